// Records with history are only deactivated (docs/screens.md): the soft confirmation texts for a
// user, a product and a customer with transactions, and what deactivation means afterwards. The
// dashboard's figures follow the postings.
//
// Needs the points API: skipped, with that reason, while the server does not list it.

import { ApiError, LoyaltyApi } from '../../support/api';
import { expect, test } from '../../support/fixtures';
import { t } from '../../support/i18n';
import { AccreditPanel } from '../../support/pages/operations';
import { CustomersScreen, ProductsScreen, UsersScreen } from '../../support/pages/settings';
import { missing } from '../../support/run';
import { esNumber, newCustomer, seedShop } from '../../support/seed';

test.skip(({ run }) => !run.capabilities.points, missing('points'));

test('a user, a product and a customer with transactions are deactivated, not deleted', async ({ newCompanyAdmin, apiAs, run }) => {
  const { company, page } = await newCompanyAdmin();
  const shop = await seedShop(company);
  const carlos = await apiAs(shop.cajero);
  const customer = await newCustomer(company.api, { name: 'Rosa Villamil', points: 1000, earnedBy: carlos });
  const coffee = shop.products.find((p) => p.code === 'CAF-01')!;
  await carlos.redeem(customer.id, { pointsToRedeem: coffee.pointsValue, productId: coffee.id, description: coffee.name });

  await test.step('user', async () => {
    const users = new UsersScreen(page);
    await users.goto();
    const confirm = await users.askToDelete('carlos', t('users.deleteSoft', { name: shop.cajero.username }));
    await confirm.confirm().click();
    await expect(users.list.row(/^carlos/)).toHaveCount(0);
    await expect(LoyaltyApi.login(run.baseURL, shop.cajero.username, shop.cajero.password)).rejects.toBeInstanceOf(ApiError);
  });

  await test.step('product', async () => {
    const products = new ProductsScreen(page);
    await products.goto();
    const confirm = await products.askToDelete(coffee.name, t('products.deleteSoft', { name: coffee.name }));
    await confirm.confirm().click();
    await expect(products.list.row(coffee.name)).toHaveCount(0);
    await products.list.showInactive().check();
    await expect(products.list.row(coffee.name)).toContainText(t('common.inactive'));
    expect((await company.api.products()).find((p) => p.id === coffee.id)?.is_active).toBe(false);
  });

  await test.step('customer', async () => {
    const customers = new CustomersScreen(page);
    await customers.goto();
    const confirm = await customers.askToDelete('Rosa Villamil', t('customers.deleteSoft', { name: 'Rosa Villamil' }));
    await confirm.confirm().click();
    await expect(customers.list.row('Rosa Villamil')).toHaveCount(0);
  });

  await test.step('an inactive customer cannot be found to earn points', async () => {
    await page.goto('/accreditar');
    const accredit = new AccreditPanel(page.getByRole('main'));
    await accredit.lookup.find(customer.document);
    await expect(accredit.lookup.error()).toHaveText(t('dashboard.errorCustomerNotFound'));
  });
});

test("the dashboard's figures follow the postings", async ({ newCompanyAdmin, apiAs, run }) => {
  test.skip(!run.capabilities.stats, missing('stats'));
  const { company, page } = await newCompanyAdmin();
  const shop = await seedShop(company);
  const carlos = await apiAs(shop.cajero);
  const first = await newCustomer(company.api, { points: 1000, earnedBy: carlos });
  await newCustomer(company.api, { points: 500, earnedBy: carlos });
  await carlos.redeem(first.id, { pointsToRedeem: 200, description: 'Descuento' });

  await page.goto('/main');
  await expect(page.getByTestId('kpi-totalCustomers')).toHaveText('2');
  await expect(page.getByTestId('kpi-pointsInCirculation')).toHaveText(esNumber(1300));
  await expect(page.getByTestId('kpi-transactionsLast30Days')).toHaveText('3');
  await expect(page.getByTestId('kpi-pointsAccreditedLast30Days')).toHaveText(esNumber(1500));
  expect(await company.api.dashboardStats()).toMatchObject({
    totalCustomers: 2,
    pointsInCirculation: 1300,
    transactionsLast30Days: 3,
    pointsAccreditedLast30Days: 1500,
  });
  const chart = page.getByRole('region', { name: t('dashboard.chart.title') });
  await expect(chart).toContainText(t('dashboard.chart.accredited'));
  await expect(chart).toContainText(t('dashboard.chart.redeemed'));
});
