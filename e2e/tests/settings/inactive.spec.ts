// Inactive records come back: each list shows its inactive records behind a filter, with a
// reactivate button, and adding the document, name or code of an inactive record offers to
// reactivate it instead.

import { expect, test } from '../../support/fixtures';
import { translator, type Locale } from '../../support/i18n';
import { CategoriesScreen, CustomersScreen, PosScreen, UsersScreen } from '../../support/pages/settings';
import { seedShop } from '../../support/seed';

for (const locale of ['es', 'en'] as const satisfies readonly Locale[]) {
  test.describe(locale, () => {
    test('a customer deleted with history is offered back when the document is added again, and listed as inactive', async ({ newCompanyAdmin }) => {
      const t = translator(locale);
      const { company, page } = await newCompanyAdmin({ locale });
      await company.api.saveSettings({ pointsPerPeso: 0.01, redemptionRate: 10 });
      const rosa = await company.api.createCustomer({ name: 'Rosa Villamil', document: '52111222' });
      await company.api.accredit(rosa.id, 150_000);
      expect((await company.api.remove(`/api/customers/${rosa.id}`)).deleted).toBe('soft');

      const screen = new CustomersScreen(page, locale);
      await screen.goto();
      await expect(screen.list.emptyText()).toHaveText(t('customers.empty'));
      await screen.add({ 'customers.fields.name': 'Rosa V.', 'customers.fields.document': '52111222' });
      await expect(screen.reactivateOffer()).toContainText(t('customers.inactiveOffer'));
      await screen.reactivateOfferButton().click();
      await expect(screen.toast(t('customers.successReactivated'))).toBeVisible();
      await expect(screen.reactivateOffer()).toHaveCount(0);
      await expect(screen.addField('customers.fields.name')).toHaveValue('');
      await expect(screen.list.row('Rosa Villamil')).toContainText(t('customers.pointsValue', { points: '1' + (locale === 'es' ? '.' : ',') + '500' }));

      expect((await company.api.remove(`/api/customers/${rosa.id}`)).deleted).toBe('soft');
      await page.reload();
      await expect(screen.list.row('Rosa Villamil')).toHaveCount(0);
      await screen.list.showInactive().check();
      await expect(screen.list.row('Rosa Villamil')).toContainText(t('list.inactive'));
      await screen.list.reactivateButton('Rosa Villamil').click();
      await expect(screen.toast(t('customers.successReactivated'))).toBeVisible();
      await expect(screen.list.emptyText()).toHaveText(t('list.noInactive'));
      await screen.list.showInactive().uncheck();
      await expect(screen.list.row('Rosa Villamil')).toBeVisible();
    });

    test('points of sale, categories and users list their inactive records and take them back', async ({ newCompanyAdmin, apiAs }) => {
      const t = translator(locale);
      const { company, page } = await newCompanyAdmin({ locale });
      const shop = await seedShop(company);
      const [north] = shop.pos;
      // Records with history are only deactivated: a point of sale with users, a category with
      // products, a cashier with a sale.
      const carlos = await apiAs(shop.cajero);
      const customer = await company.api.createCustomer({ name: 'Cliente Uno', document: '7001001' });
      await carlos.accredit(customer.id, 10_000);
      const carlosUser = (await company.api.users()).find((u) => u.username === 'carlos')!;
      expect((await company.api.remove(`/api/users/${carlosUser.id}`)).deleted).toBe('soft');
      expect((await company.api.remove(`/api/pos/${north!.id}`)).deleted).toBe('soft');
      expect((await company.api.remove(`/api/categories/${shop.categories[0]!.id}`)).deleted).toBe('soft');

      const pos = new PosScreen(page, locale);
      await pos.goto();
      await expect(pos.list.row('Caja Norte')).toHaveCount(0);
      await pos.add({ 'pos.fields.name': 'caja norte' });
      await expect(pos.reactivateOffer()).toContainText(t('pos.inactiveOffer'));
      await pos.reactivateOfferButton().click();
      await expect(pos.toast(t('pos.successReactivated'))).toBeVisible();
      await expect(pos.list.row('Caja Norte')).toBeVisible();

      const categories = new CategoriesScreen(page, locale);
      await categories.goto();
      await expect(categories.list.row('Bebidas')).toHaveCount(0);
      await categories.list.showInactive().check();
      await expect(categories.list.rows()).toHaveCount(1);
      await categories.list.reactivateButton('Bebidas').click();
      await expect(categories.toast(t('categories.successReactivated'))).toBeVisible();
      await categories.list.showInactive().uncheck();
      await expect(categories.list.row('Bebidas')).toBeVisible();

      const users = new UsersScreen(page, locale);
      await users.goto();
      await expect(users.list.row(/^carlos/)).toHaveCount(0);
      await users.list.showInactive().check();
      await users.list.reactivateButton('carlos').click();
      await expect(users.toast(t('users.successReactivated'))).toBeVisible();
      await users.list.showInactive().uncheck();
      await expect(users.list.row(/^carlos/)).toBeVisible();
      // The cashier is back with the password they had.
      await apiAs(shop.cajero);
    });
  });
}
