// An active product is worth at least 1 point: the form says so before anything is sent, the
// server refuses it too, and an inactive product may wait for its value.

import { expect, test } from '../../support/fixtures';
import { translator, type Locale } from '../../support/i18n';
import { ProductsScreen } from '../../support/pages/settings';

for (const locale of ['es', 'en'] as const satisfies readonly Locale[]) {
  test(`${locale}: an active product needs a points value of at least 1`, async ({ newCompanyAdmin }) => {
    const t = translator(locale);
    const { company, page } = await newCompanyAdmin({ locale });
    const screen = new ProductsScreen(page, locale);
    await screen.goto();
    await screen.add({ 'products.fields.code': 'PAN-001', 'products.fields.name': 'Pan de bono', 'products.fields.price': '3000' });
    await expect(screen.addError()).toHaveText(t('products.errorPointsRequired'));
    expect(await company.api.products()).toEqual([]);

    await screen.add({ 'products.fields.pointsValue': '300' });
    await expect(screen.toast(t('products.successAdded'))).toBeVisible();
    await expect(screen.addError()).toHaveCount(0);
    expect(await company.api.products()).toEqual([expect.objectContaining({ code: 'PAN-001', pointsValue: 300, is_active: true })]);

    // The server holds the rule for any client.
    const refused = await company.api.raw('POST', '/api/products', { code: 'PAN-002', name: 'Otro', price: 1000, pointsValue: 0 });
    expect(refused.status()).toBe(400);
    expect((await refused.json()).code).toBe('product.pointsRequired');
  });
}
