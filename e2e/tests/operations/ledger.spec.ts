// The ledger stores what happened, not a sentence: a redemption made at a Spanish till reads in
// English to an English reader (and the other way round), on the report, on the reprinted
// receipt and in the CSV.

import { readFile } from 'node:fs/promises';
import { expect, test } from '../../support/fixtures';
import { t, type Locale } from '../../support/i18n';
import { ReceiptDialog, RedeemPanel, ReportsPage } from '../../support/pages/operations';
import { missing } from '../../support/run';
import { newCustomer, seedShop } from '../../support/seed';

test.skip(({ run }) => !run.capabilities.points || !run.capabilities.reports, `${missing('points')}; ${missing('reports')}`);

function currency(value: number, locale: Locale): string {
  return new Intl.NumberFormat(locale === 'es' ? 'es-CO' : 'en-US', {
    style: 'currency',
    currency: 'COP',
    currencyDisplay: 'narrowSymbol',
    minimumFractionDigits: 0,
    maximumFractionDigits: 0,
  }).format(value);
}

for (const locale of ['es', 'en'] as const satisfies readonly Locale[]) {
  const writer: Locale = locale === 'es' ? 'en' : 'es';
  const tr = (key: Parameters<typeof t>[0], params: Record<string, string | number> = {}) => t(key, params, locale);

  test.describe(`read in ${locale === 'es' ? 'Spanish' : 'English'}`, () => {
    test(`a redemption made at a till in ${writer === 'es' ? 'Spanish' : 'English'} reads in the reader's language`, async ({ newCompany, apiAs, pageWithSession }) => {
      const company = await newCompany();
      const shop = await seedShop(company);
      const carlos = await apiAs(shop.cajero);
      const customer = await newCustomer(company.api, { name: 'Rosa Villamil', points: 1000, earnedBy: carlos });

      const till = await pageWithSession(carlos.session!, { locale: writer });
      await till.goto('/redimir');
      const redeem = new RedeemPanel(till.getByRole('main'), writer);
      await redeem.lookup.find(customer.document);
      await redeem.points().fill('100');
      await redeem.submit().click();
      await expect(new ReceiptDialog(till, writer).receipt).toContainText(t('ledger.pointsRedemption', {}, writer));
      const [redemption] = (await company.api.searchTransactions({ type: 'redemption' })).items;
      expect(redemption!.description).toBeNull();

      const page = await pageWithSession(company.api.session!, { locale });
      const reports = new ReportsPage(page, locale);
      await reports.goto();
      await expect(reports.row(redemption!.id)).toContainText(tr('ledger.pointsRedemption'));
      await expect(reports.row(redemption!.id)).not.toContainText(t('ledger.pointsRedemption', {}, writer));
      await reports.reprintButton(redemption!.id).click();
      const receipt = new ReceiptDialog(page, locale);
      expect(await receipt.lines()).toMatchObject({ [tr('receipt.description')]: tr('ledger.pointsRedemption') });
      await receipt.close().click();

      const [download] = await Promise.all([page.waitForEvent('download'), reports.exportButton().click()]);
      const csv = await readFile(await download.path(), 'utf8');
      expect(csv).toContain(tr('ledger.pointsRedemption'));
      // The accreditation that earned the points: its invoice, in the reader's money format.
      expect(csv).toContain(tr('ledger.purchase', { amount: currency(100_000, locale) }));
      expect(csv).not.toContain('Purchase of 100000 COP');
    });
  });
}
