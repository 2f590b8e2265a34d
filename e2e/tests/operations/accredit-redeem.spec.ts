// Accredit and redeem (products and free points) from the full screens and the dashboard's quick
// panels, with the balance checked on screen and through the API; the receipt's fields and its
// print view (docs/screens.md).
//
// Needs the points API (POST /api/customers/{id}/accredit and /redeem): skipped, with that reason,
// while the server does not list those endpoints in /api/openapi.json.

import { as, expect, test } from '../../support/fixtures';
import { t } from '../../support/i18n';
import { AccreditPanel, ReceiptDialog, RedeemPanel } from '../../support/pages/operations';
import { AppShell } from '../../support/pages/shell';
import { missing, seeded } from '../../support/run';
import { esNumber, newCustomer, seedShop } from '../../support/seed';


test.skip(({ run }) => !run.capabilities.points, missing('points'));

test.describe('cajero', () => {
  test.use(as('cajero'));

  test('accredits from the full screen: the points show on screen and in the API', async ({ page, apiAs }) => {
    const admin = await apiAs(seeded.acme.admin);
    const customer = await newCustomer(admin, { name: 'Daniela Ortiz' });
    await page.goto('/accreditar');
    const accredit = new AccreditPanel(page.getByRole('main'));
    await accredit.lookup.find(customer.document);
    await expect(accredit.lookup.balance()).toHaveText('0');

    await accredit.amount().pressSequentially('125000');
    await expect(accredit.amount()).toHaveValue('125.000');
    await accredit.reference().fill('FV-1001');
    await accredit.submit().click();
    await expect(accredit.success()).toHaveText(t('accredit.success', { points: esNumber(1250), name: 'Daniela Ortiz', balance: esNumber(1250) }));
    // The customer is cleared with the form, so the next sale starts from the lookup.
    await expect(accredit.lookup.customerCard()).toHaveCount(0);
    await expect(accredit.lookup.document()).toHaveValue('');
    await expect(accredit.amount()).toHaveValue('');
    await expect(accredit.reference()).toHaveValue('');
    expect((await admin.customerByDocument(customer.document)).points).toBe(1250);

    await accredit.lookup.find(customer.document);
    await expect(accredit.lookup.balance()).toHaveText(esNumber(1250));
    await accredit.amount().fill('10000');
    await accredit.submit().click();
    await expect(accredit.success()).toHaveText(t('accredit.success', { points: esNumber(100), name: 'Daniela Ortiz', balance: esNumber(1350) }));
    expect((await admin.customerByDocument(customer.document)).points).toBe(1350);
  });

  test('redeems a product from the full screen and prints a receipt with every field', async ({ page, apiAs }) => {
    await page.addInitScript(() => {
      (window as unknown as { printed: number }).printed = 0;
      window.print = () => {
        (window as unknown as { printed: number }).printed += 1;
      };
    });
    const admin = await apiAs(seeded.acme.admin);
    const customer = await newCustomer(admin, { name: 'Andrés Cárdenas', points: 2000, earnedBy: await apiAs(seeded.acme.supervisor) });
    await page.goto('/redimir');
    const redeem = new RedeemPanel(page.getByRole('main'));
    await redeem.lookup.find(customer.document);
    await expect(redeem.lookup.balance()).toHaveText(esNumber(2000));

    await test.step('active products within the balance, most valuable first', async () => {
      await expect(redeem.productOptions()).toHaveCount(3);
      await expect(redeem.productOptions().nth(0)).toContainText('Termo de Acero');
      await expect(redeem.productOptions().nth(1)).toContainText('Café de Origen');
      await expect(redeem.productOptions().nth(2)).toContainText('Taza Esmaltada');
      await expect(redeem.products).not.toContainText('Producto Retirado');
    });

    await test.step('category filter, search by description, list and grid views', async () => {
      await redeem.category().selectOption({ label: 'Bebidas' });
      await expect(redeem.productOptions()).toHaveCount(1);
      await expect(redeem.productOptions()).toContainText('Café de Origen');
      await redeem.category().selectOption({ label: t('redeem.allCategories') });
      await redeem.productSearch().fill('LITRO');
      await expect(redeem.productOptions()).toHaveCount(1);
      await expect(redeem.productOptions()).toContainText('Termo de Acero');
      await redeem.productSearch().fill('no existe');
      await expect(redeem.productsMessage('redeem.noProductsMatchSearch')).toBeVisible();
      await redeem.productSearch().fill('');
      await redeem.listView().click();
      await expect(redeem.listView()).toHaveAttribute('aria-pressed', 'true');
      await expect(redeem.product('Café de Origen')).toContainText('Bolsa de 500 g');
      await redeem.gridView().click();
      await expect(redeem.gridView()).toHaveAttribute('aria-pressed', 'true');
    });

    await test.step('a product locks the points and the description', async () => {
      await redeem.product('Café de Origen').click();
      await expect(redeem.product('Café de Origen')).toHaveAttribute('aria-pressed', 'true');
      await expect(redeem.points()).toBeDisabled();
      await expect(redeem.points()).toHaveValue('500');
      await expect(redeem.description()).toBeDisabled();
      await expect(redeem.description()).toHaveValue('Café de Origen');
      await expect(redeem.equivalentValue()).toContainText('15.000');
      await redeem.reference().fill('FV-2001');
      await redeem.submit().click();
    });

    const receipt = new ReceiptDialog(page);
    await test.step('the receipt', async () => {
      await expect(receipt.receipt).toBeVisible();
      const lines = await receipt.lines();
      expect(lines[t('receipt.date')]).toMatch(/^\d{2}\/\d{2}\/\d{4},? \d{2}:\d{2}$/);
      expect(lines[t('receipt.transaction')]).toMatch(/^#\d+$/);
      expect(lines).toMatchObject({
        [t('receipt.pos')]: 'Caja Norte',
        [t('receipt.cashier')]: 'carlos',
        [t('receipt.invoiceReference')]: 'FV-2001',
        [t('receipt.customer')]: 'Andrés Cárdenas',
        [t('receipt.document')]: customer.document,
        [t('receipt.description')]: 'Café de Origen',
        [t('receipt.points')]: '500',
        [t('receipt.previousBalance')]: esNumber(2000),
        [t('receipt.redeemedPoints')]: '-500',
        [t('receipt.newBalance')]: esNumber(1500),
      });
      expect(lines[t('receipt.equivalentValue')]).toContain('15.000');
      for (const text of [seeded.acme.name, seeded.acme.businessName, t('receipt.taxId', { taxId: seeded.acme.taxId }), seeded.acme.address, t('receipt.phone', { phone: seeded.acme.phone }), t('receipt.thanks')]) {
        await expect(receipt.receipt).toContainText(text);
      }
      const box = await receipt.receipt.boundingBox();
      expect(Math.round(box?.width ?? 0)).toBe(302);
    });

    await test.step('the print view shows only the receipt', async () => {
      const shell = new AppShell(page);
      await page.emulateMedia({ media: 'print' });
      await expect(receipt.receipt).toBeVisible();
      await expect(page.getByRole('banner')).toBeHidden();
      await expect(shell.heading(t('redeem.title'))).toBeHidden();
      await expect(redeem.form).toBeHidden();
      await expect(receipt.print()).toBeHidden();
      await expect(page.getByRole('contentinfo')).toBeHidden();
      await page.emulateMedia({ media: 'screen' });
      await receipt.print().click();
      expect(await page.evaluate(() => (window as unknown as { printed: number }).printed)).toBe(1);
    });

    await receipt.close().click();
    await expect(receipt.root).toHaveCount(0);
    await expect(redeem.lookup.customerCard()).toHaveCount(0);
    await expect(redeem.lookup.document()).toHaveValue('');
    expect((await admin.customerByDocument(customer.document)).points).toBe(1500);
  });

  test('redeems free points with a description, refusing invalid amounts', async ({ page, apiAs }) => {
    const admin = await apiAs(seeded.acme.admin);
    const customer = await newCustomer(admin, { name: 'Paula Herrera', points: 1000, earnedBy: await apiAs(seeded.acme.supervisor) });
    await page.goto('/redimir');
    const redeem = new RedeemPanel(page.getByRole('main'));
    await redeem.lookup.find(customer.document);
    await redeem.points().fill('1001');
    await redeem.submit().click();
    await expect(redeem.error()).toHaveText(t('redeem.errorNotEnoughPoints'));
    await redeem.points().fill('0');
    await redeem.submit().click();
    await expect(redeem.error()).toHaveText(t('redeem.errorInvalidPoints'));

    await redeem.points().fill('250');
    // 250 points at 10 points per peso.
    await expect(redeem.equivalentValue()).toContainText('25');
    await redeem.description().fill('Descuento en compra');
    await redeem.submit().click();
    const receipt = new ReceiptDialog(page);
    const lines = await receipt.lines();
    expect(lines).toMatchObject({
      [t('receipt.description')]: 'Descuento en compra',
      [t('receipt.points')]: '250',
      [t('receipt.previousBalance')]: esNumber(1000),
      [t('receipt.newBalance')]: '750',
      [t('receipt.invoiceReference')]: t('common.notAvailable'),
    });
    await receipt.close().click();
    expect((await admin.customerByDocument(customer.document)).points).toBe(750);
  });
});

test.describe('dashboard quick panels', () => {
  test.use(as('supervisor'));

  test('accredit and redeem from the panels, balances on screen and in the API', async ({ page, apiAs }) => {
    const admin = await apiAs(seeded.acme.admin);
    const customer = await newCustomer(admin, { name: 'Tomás Rincón' });
    await page.goto('/main');
    const quickAccredit = new AccreditPanel(page.getByRole('region', { name: t('dashboard.quickAccredit') }));
    const quickRedeem = new RedeemPanel(page.getByRole('region', { name: t('dashboard.quickRedeem') }));

    await quickAccredit.lookup.find(customer.document);
    await quickAccredit.amount().fill('80000');
    await quickAccredit.submit().click();
    await expect(quickAccredit.success()).toContainText('Tomás Rincón');
    await expect(quickAccredit.lookup.customerCard()).toHaveCount(0);
    expect((await admin.customerByDocument(customer.document)).points).toBe(800);

    await quickRedeem.lookup.find(customer.document);
    await expect(quickRedeem.lookup.balance()).toHaveText('800');
    // The quick panel lists every match by name: Termo (1.500) is above the balance.
    await expect(quickRedeem.productOptions()).toHaveCount(2);
    await quickRedeem.productSearch().fill('taza');
    await expect(quickRedeem.productOptions()).toHaveCount(1);
    await expect(quickRedeem.submit()).toBeDisabled();
    await quickRedeem.product('Taza Esmaltada').click();
    await expect(quickRedeem.submit()).toBeEnabled();
    await quickRedeem.submit().click();
    const receipt = new ReceiptDialog(page);
    expect(await receipt.lines()).toMatchObject({
      [t('receipt.description')]: 'Taza Esmaltada',
      [t('receipt.cashier')]: 'sofia',
      [t('receipt.previousBalance')]: '800',
      [t('receipt.newBalance')]: '500',
    });
    await receipt.close().click();
    expect((await admin.customerByDocument(customer.document)).points).toBe(500);

    await test.step('free points: enabled only within the balance', async () => {
      await quickRedeem.lookup.find(customer.document);
      await quickRedeem.points().fill('501');
      await expect(quickRedeem.submit()).toBeDisabled();
      await quickRedeem.points().fill('500');
      await expect(quickRedeem.submit()).toBeEnabled();
      await quickRedeem.submit().click();
      expect(await receipt.lines()).toMatchObject({
        [t('receipt.points')]: '500',
        [t('receipt.previousBalance')]: '500',
        [t('receipt.newBalance')]: '0',
      });
      await receipt.close().click();
    });
    expect((await admin.customerByDocument(customer.document)).points).toBe(0);
  });
});

test('the full redeem screen lists the 10 most valuable products until the cashier searches', async ({ newCompanyAdmin, apiAs }) => {
  const { company, page } = await newCompanyAdmin();
  const shop = await seedShop(company);
  for (let i = 1; i <= 10; i += 1) {
    await company.api.createProduct({ code: `BON-${i}`, name: `Bono ${String(i).padStart(2, '0')}`, price: 1000 * i, pointsValue: 100 * i });
  }
  const customer = await newCustomer(company.api, { points: 5000, earnedBy: await apiAs(shop.supervisor) });
  await page.goto('/redimir');
  const redeem = new RedeemPanel(page.getByRole('main'));
  await redeem.lookup.find(customer.document);
  await expect(redeem.productOptions()).toHaveCount(10);
  await expect(redeem.productOptions().first()).toContainText('Termo de Acero');
  await expect(redeem.products).toContainText(t('redeem.showingTop', { shown: 10, total: 12 }));
  await redeem.productSearch().fill('bono 0');
  await expect(redeem.productOptions()).toHaveCount(9);
  await redeem.productSearch().fill('');
  await redeem.category().selectOption({ label: 'Bebidas' });
  await expect(redeem.productOptions()).toHaveText([/Café de Origen/]);
});

test('in English, the accredit screen speaks English and groups numbers the en-US way', async ({ newCompany, apiAs, pageWithSession }) => {
  const company = await newCompany();
  const shop = await seedShop(company);
  const cajero = await apiAs(shop.cajero);
  const customer = await newCustomer(company.api, { name: 'Grace Hopper' });
  const page = await pageWithSession(cajero.session!, { locale: 'en' });
  await new AppShell(page, 'en').open('/accreditar', 'accredit.title');
  const accredit = new AccreditPanel(page.getByRole('main'), 'en');
  await accredit.lookup.searchButton().click();
  // The product's own wording for an empty lookup.
  await expect(accredit.lookup.error()).toHaveText('Please enter a document number.');
  await accredit.lookup.find(customer.document);
  // The amount field is disabled until the customer is found: typing earlier types nothing.
  await expect(accredit.lookup.customerCard()).toBeVisible();
  await accredit.amount().pressSequentially('250000');
  await expect(accredit.amount()).toHaveValue('250,000');
  await accredit.submit().click();
  await expect(accredit.success()).toHaveText(t('accredit.success', { points: '2,500', name: 'Grace Hopper', balance: '2,500' }, 'en'));
  expect((await company.api.customerByDocument(customer.document)).points).toBe(2500);
});
