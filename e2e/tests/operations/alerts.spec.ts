// The alerts screen: a cashier crediting one customer again and again shows up for the supervisor
// with its transactions, in both languages; marking it reviewed takes it off the new ones and off
// the dashboard's count. Its link opens the report filtered to its rows, a filter that survives a
// reload. A cajero never reaches the screen.

import { expect, inEachLanguage, test } from '../../support/fixtures';
import { AlertsPage } from '../../support/pages/alerts';
import { ReportsPage } from '../../support/pages/operations';
import { missing } from '../../support/run';
import { newCustomer, seedShop } from '../../support/seed';
import { expectPath } from '../../support/routes';

test.skip(({ run }) => !run.capabilities.points, missing('points'));

interface AlertPage {
  items: { id: number; kind: string }[];
  total: number;
}

inEachLanguage(({ locale, tr }) => {
  test('a cashier repeating one customer raises an alert the supervisor reviews', async ({ newCompany, apiAs, pageWithSession }) => {
    const company = await newCompany();
    const shop = await seedShop(company);
    const carlos = await apiAs(shop.cajero);
    const customer = await newCustomer(company.api, { name: 'Ana Beltrán' });
    const sales = [];
    for (let i = 0; i < 3; i += 1) sales.push((await carlos.accredit(customer.id, 10_000, `FV-${i}`)).newTransaction);
    // Rows the alert is not about: another customer, another cashier.
    const beto = await newCustomer(company.api, { name: 'Beto Díaz' });
    const other = (await carlos.accredit(beto.id, 10_000, 'FV-8')).newTransaction;
    const supervisor = await apiAs(shop.supervisor);
    const bySofia = (await supervisor.accredit(customer.id, 10_000, 'FV-9')).newTransaction;
    const found = await supervisor.call<AlertPage>('GET', '/api/alerts?kind=cashierRepeats');
    expect(found.total).toBe(1);
    const id = found.items[0]!.id;

    const page = await pageWithSession(supervisor.session!, { locale });
    await page.goto('/main');
    const count = page.getByTestId('new-alerts');
    await expect(count).toHaveText(tr('alerts.dashboard.one'));
    await count.click();
    await expectPath(page, '/alertas');

    const alerts = new AlertsPage(page, locale);
    const row = alerts.row(id);
    await expect(row).toContainText(tr('alerts.kinds.cashierRepeats'));
    await expect(row).toContainText('Ana Beltrán');
    await expect(row).toContainText(tr('alerts.detail.cashierRepeats', { cashier: 'carlos', occurrences: '3', points: '300' }));

    await alerts.transactionsButton(id).click();
    const transactions = alerts.transactions(id);
    for (const sale of sales) await expect(transactions).toContainText(`#${sale.id}`);
    await expect(transactions).toContainText('FV-2');

    // The alert's link: the report shows its three sales and nothing else, even after a reload.
    await alerts.reportLink(id).click();
    await expectPath(page, '/reportes');
    const reports = new ReportsPage(page, locale);
    for (let attempt = 0; attempt < 2; attempt += 1) {
      await expect(reports.list.range()).toHaveText(reports.list.rangeText(1, 3, 3));
      for (const sale of sales) await expect(reports.row(sale.id)).toHaveCount(1);
      await expect(reports.row(other.id)).toHaveCount(0);
      await expect(reports.row(bySofia.id)).toHaveCount(0);
      await expect(reports.filter('type')).toHaveValue('accreditation');
      await expect(reports.filter('cashier')).toHaveValue('carlos');
      expect(new URL(page.url()).searchParams.get('customerId')).toBe(String(customer.id));
      if (attempt === 0) await page.reload();
    }
    await reports.clearFilters().click();
    await expect(reports.list.range()).toHaveText(reports.list.rangeText(1, 5, 5));
    await alerts.goto();
    await alerts.reviewButton(id).click();
    await expect(alerts.row(id)).toHaveCount(0);
    await expect(alerts.list.root).toContainText(tr('alerts.emptyNew'));
    await alerts.filter('statusFilter').selectOption('reviewed');
    await expect(alerts.row(id)).toContainText(tr('alerts.status.reviewed'));
    await expect(alerts.row(id)).toContainText('sofia');

    await page.goto('/main');
    await expect(page.getByTestId('new-alerts')).toHaveText(tr('alerts.dashboard.none'));
  });
});

test('a cajero does not reach the alerts screen', async ({ newCompany, apiAs, pageWithSession }) => {
  const company = await newCompany();
  const shop = await seedShop(company);
  const carlos = await apiAs(shop.cajero);
  expect((await carlos.raw('GET', '/api/alerts')).status()).toBe(403);
  const page = await pageWithSession(carlos.session!);
  await page.goto('/alertas');
  await expectPath(page, '/main');
  await expect(page.getByTestId('new-alerts')).toHaveCount(0);
});
