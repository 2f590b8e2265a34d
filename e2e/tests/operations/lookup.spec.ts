// The parts of the operation screens that need no posting: the customer lookup and its messages,
// the amount and points validation, the dashboard's scan modal and panels (docs/screens.md).

import { as, expect, test } from '../../support/fixtures';
import { t } from '../../support/i18n';
import { AccreditPanel, RedeemPanel } from '../../support/pages/operations';
import { AppShell } from '../../support/pages/shell';
import { seeded } from '../../support/run';
import { esNumber, newCustomer } from '../../support/seed';

const companies = seeded;

test.describe('cajero', () => {
  test.use(as('cajero'));

  test('finds a customer by exact document, typed with any separators', async ({ page, apiAs }) => {
    const admin = await apiAs(companies.acme.admin);
    const customer = await newCustomer(admin, { name: 'Lucía Gómez' });
    await page.goto('/accreditar');
    const accredit = new AccreditPanel(page.getByRole('main'));
    const lookup = accredit.lookup;

    await test.step('empty document', async () => {
      await lookup.searchButton().click();
      await expect(lookup.error()).toHaveText(t('dashboard.errorEnterId'));
    });
    await test.step('unknown document', async () => {
      await lookup.find('999000111222');
      await expect(lookup.error()).toHaveText(t('dashboard.errorCustomerNotFound'));
    });
    await test.step('a part of the document is not a match', async () => {
      await lookup.find(customer.document.slice(0, -2));
      await expect(lookup.error()).toHaveText(t('dashboard.errorCustomerNotFound'));
    });
    await test.step('an all-digit document, grouped by thousands', async () => {
      await lookup.document().fill('');
      await lookup.document().pressSequentially(`${customer.document.slice(0, 3)}. ${customer.document.slice(3)}`);
      await expect(lookup.document()).toHaveValue(esNumber(Number(customer.document)));
      await expect(accredit.amount()).toBeDisabled();
      await lookup.searchButton().click();
    });
    await expect(lookup.customerCard()).toContainText('Lucía Gómez');
    await expect(lookup.customerCard()).toContainText(t('dashboard.lookup.documentValue', { document: esNumber(Number(customer.document)) }));
    await expect(lookup.balance()).toHaveText('0');
    await expect(accredit.amount()).toBeEnabled();

    await lookup.changeCustomer().click();
    await expect(lookup.customerCard()).toHaveCount(0);
    await expect(lookup.document()).toHaveValue('');
    await expect(accredit.amount()).toBeDisabled();
  });

  test('refuses an invoice amount of zero', async ({ page, apiAs }) => {
    const admin = await apiAs(companies.acme.admin);
    const customer = await newCustomer(admin);
    await page.goto('/accreditar');
    const accredit = new AccreditPanel(page.getByRole('main'));
    await accredit.lookup.find(customer.document);
    await expect(accredit.lookup.customerCard()).toBeVisible();
    await accredit.submit().click();
    await expect(accredit.error()).toHaveText(t('dashboard.errorInvalidInvoiceAmount'));
    await accredit.amount().pressSequentially('0');
    await accredit.submit().click();
    await expect(accredit.error()).toHaveText(t('dashboard.errorInvalidInvoiceAmount'));
    await accredit.amount().fill('abc');
    await expect(accredit.amount()).toHaveValue('');
  });

  test('a customer without points can redeem nothing', async ({ page, apiAs }) => {
    const admin = await apiAs(companies.acme.admin);
    const customer = await newCustomer(admin);
    await page.goto('/redimir');
    const redeem = new RedeemPanel(page.getByRole('main'));
    await expect(redeem.productsMessage('redeem.findCustomerFirst')).toBeVisible();
    await expect(redeem.points()).toBeDisabled();
    await redeem.lookup.find(customer.document);
    await expect(redeem.lookup.balance()).toHaveText('0');
    await expect(redeem.productsMessage('redeem.noProductsAvailable')).toBeVisible();

    await redeem.submit().click();
    await expect(redeem.error()).toHaveText(t('redeem.errorInvalidPoints'));
    await redeem.points().fill('5');
    await redeem.submit().click();
    await expect(redeem.error()).toHaveText(t('redeem.errorNotEnoughPoints'));
    await expect(redeem.points()).toHaveAttribute('min', '1');
    await expect(redeem.points()).toHaveAttribute('step', '1');
  });
});

test.describe('dashboard', () => {
  test.use(as('supervisor'));

  test('shows the KPI cards, the chart and both quick panels; scanning is not available yet', async ({ page }) => {
    const shell = new AppShell(page);
    await shell.open('/main', 'dashboard.title');
    const kpis = page.getByRole('list', { name: t('dashboard.kpisLabel') });
    await expect(kpis.getByRole('listitem')).toHaveCount(5);
    for (const key of ['totalCustomers', 'pointsInCirculation', 'transactionsLast30Days', 'pointsAccreditedLast30Days', 'pointsReturnedLast30Days'] as const) {
      await expect(kpis).toContainText(t(`dashboard.kpi.${key}`));
    }
    await expect(page.getByRole('heading', { name: t('dashboard.chart.title') })).toBeVisible();
    await expect(page.getByRole('region', { name: t('dashboard.quickAccredit') })).toBeVisible();
    await expect(page.getByRole('region', { name: t('dashboard.quickRedeem') })).toBeVisible();

    await page.getByRole('button', { name: t('dashboard.scan') }).click();
    const scan = page.getByRole('dialog', { name: t('dashboard.scanTitle') });
    await expect(scan).toContainText(t('dashboard.scanNotImplemented'));
    await scan.getByRole('button', { name: t('common.close') }).last().click();
    await expect(scan).toHaveCount(0);
  });

  test('the quick panels look customers up; quick redeem stays disabled until the points are valid', async ({ page, apiAs }) => {
    const admin = await apiAs(companies.acme.admin);
    const customer = await newCustomer(admin, { name: 'Mario Quintero' });
    await page.goto('/main');
    const quickAccredit = new AccreditPanel(page.getByRole('region', { name: t('dashboard.quickAccredit') }));
    const quickRedeem = new RedeemPanel(page.getByRole('region', { name: t('dashboard.quickRedeem') }));

    await quickAccredit.lookup.searchButton().click();
    await expect(quickAccredit.lookup.error()).toHaveText(t('dashboard.errorEnterId'));
    await quickAccredit.lookup.find(customer.document);
    await expect(quickAccredit.lookup.customerCard()).toContainText('Mario Quintero');

    await expect(quickRedeem.submit()).toBeDisabled();
    await quickRedeem.lookup.find(customer.document);
    await expect(quickRedeem.lookup.customerCard()).toContainText('Mario Quintero');
    await quickRedeem.points().fill('1');
    // A balance of 0 cannot cover even one point.
    await expect(quickRedeem.submit()).toBeDisabled();
    await expect(quickRedeem.description()).toHaveCount(0);
  });
});
