// /reportes: each filter, paging, the CSV download (file name and content), void by a supervisor,
// void by a cajero with wrong then right supervisor credentials, and reprint
// (docs/screens.md; who may void: docs/roles.md).
//
// Needs the points API (postings, GET /api/transactions/search, POST /api/transactions/{id}/void):
// skipped, with that reason, while the server does not list those endpoints.

import { readFile } from 'node:fs/promises';
import type { LoyaltyApi, Transaction } from '../../support/api';
import { expect, test, type TestCompany } from '../../support/fixtures';
import { t } from '../../support/i18n';
import { ReceiptDialog, ReportsPage } from '../../support/pages/operations';
import { missing } from '../../support/run';
import { newCustomer, seedShop, todayInBogota, type Shop } from '../../support/seed';

test.skip(({ run }) => !run.capabilities.points || !run.capabilities.reports, `${missing('points')}; ${missing('reports')}`);

interface History {
  shop: Shop;
  carlos: LoyaltyApi;
  camila: LoyaltyApi;
  ana: { id: number; name: string; document: string };
  beto: { id: number; name: string; document: string };
  /** carlos at Caja Norte: Ana's accreditation (1.000 points). */
  accreditation: Transaction;
  /** carlos at Caja Norte: Ana redeems 200 free points. */
  redemption: Transaction;
  /** camila at Caja Sur: Beto's accreditation (500 points). */
  other: Transaction;
}

/** Three transactions by two cashiers at two points of sale, oldest first. */
async function seedHistory(company: TestCompany, apiAs: (login: { username: string; password: string }) => Promise<LoyaltyApi>): Promise<History> {
  const shop = await seedShop(company);
  const carlos = await apiAs(shop.cajero);
  const camila = await apiAs(shop.cajero2);
  const ana = await newCustomer(company.api, { name: 'Ana Beltrán' });
  const beto = await newCustomer(company.api, { name: 'Beto Salazar' });
  const accreditation = (await carlos.accredit(ana.id, 100_000, 'FV-100')).newTransaction;
  const redemption = (await carlos.redeem(ana.id, { pointsToRedeem: 200, description: 'Descuento', invoiceReference: 'FV-101' })).newTransaction;
  const other = (await camila.accredit(beto.id, 50_000)).newTransaction;
  return { shop, carlos, camila, ana, beto, accreditation, redemption, other };
}

test('filters by customer, type, point of sale, cashier and dates', async ({ newCompanyAdmin, apiAs }) => {
  const { company, page } = await newCompanyAdmin();
  const history = await seedHistory(company, apiAs);
  const reports = new ReportsPage(page);
  const list = reports.list;
  await reports.goto();

  const shows = async (transactions: Transaction[]) => {
    await expect(list.range()).toHaveText(list.rangeText(transactions.length ? 1 : 0, transactions.length, transactions.length));
    for (const tx of transactions) await expect(reports.row(tx.id)).toBeVisible();
  };

  // Newest first.
  await shows([history.other, history.redemption, history.accreditation]);
  await expect(list.rows().first()).toContainText('Beto Salazar');

  await test.step('customer name or document', async () => {
    await list.search().fill('beto');
    await shows([history.other]);
    await list.search().fill(history.ana.document);
    await shows([history.redemption, history.accreditation]);
    await list.search().fill('');
  });
  await test.step('type', async () => {
    await reports.filter('type').selectOption({ label: t('reports.types.redemption') });
    await shows([history.redemption]);
    await reports.filter('type').selectOption({ label: t('reports.filters.allTypes') });
  });
  await test.step('point of sale', async () => {
    await reports.filter('pos').selectOption({ label: 'Caja Sur' });
    await shows([history.other]);
    await reports.filter('pos').selectOption({ label: t('reports.filters.allPos') });
  });
  await test.step('cashier', async () => {
    await reports.filter('cashier').selectOption({ label: 'carlos' });
    await shows([history.redemption, history.accreditation]);
    await reports.filter('cashier').selectOption({ label: t('reports.filters.allCashiers') });
  });
  await test.step('dates: from today, and up to yesterday', async () => {
    await reports.filter('from').fill(todayInBogota());
    await shows([history.other, history.redemption, history.accreditation]);
    await reports.filter('from').fill(todayInBogota(-2));
    await reports.filter('to').fill(todayInBogota(-1));
    await expect(list.emptyText()).toHaveText(t('reports.noResults'));
  });
  await reports.clearFilters().click();
  await shows([history.other, history.redemption, history.accreditation]);
});

test('pages the report 10 at a time', async ({ newCompanyAdmin, apiAs }) => {
  const { company, page } = await newCompanyAdmin();
  const shop = await seedShop(company);
  const cajero = await apiAs(shop.cajero);
  const customer = await newCustomer(company.api);
  for (let i = 1; i <= 12; i += 1) await cajero.accredit(customer.id, 1000 * i, `FV-${i}`);
  const reports = new ReportsPage(page);
  const list = reports.list;
  await reports.goto();
  await expect(list.range()).toHaveText(list.rangeText(1, 10, 12));
  await expect(list.previous()).toBeDisabled();
  await list.next().click();
  await expect(list.range()).toHaveText(list.rangeText(11, 12, 12));
  await expect(list.rows()).toHaveCount(2);
  await expect(list.next()).toBeDisabled();
  await list.perPage().selectOption('25');
  await expect(list.range()).toHaveText(list.rangeText(1, 12, 12));
});

/** The fields of one CSV line (quoted fields may hold the separator; quotes are doubled). */
function csvFields(line: string, separator: string): string[] {
  const fields: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < line.length; i += 1) {
    const c = line[i]!;
    if (quoted) {
      if (c === '"' && line[i + 1] === '"') {
        field += '"';
        i += 1;
      } else if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"') quoted = true;
    else if (c === separator) {
      fields.push(field);
      field = '';
    } else field += c;
  }
  fields.push(field);
  return fields;
}

for (const locale of ['es', 'en'] as const) {
  test(`exports the filtered rows with their totals to reporte_fidelidad.csv (${locale === 'es' ? 'Spanish: ";"' : 'English: ","'})`, async ({ newCompany, apiAs, pageWithSession }) => {
    const company = await newCompany();
    const history = await seedHistory(company, apiAs);
    const page = await pageWithSession(company.api.session!, { locale });
    const tr = (key: Parameters<typeof t>[0], params: Record<string, string | number> = {}) => t(key, params, locale);
    const number = (value: number) => new Intl.NumberFormat(locale === 'es' ? 'es-CO' : 'en-US').format(value);
    const reports = new ReportsPage(page, locale);
    await reports.goto();
    await reports.filter('cashier').selectOption({ label: 'carlos' });
    await expect(reports.list.range()).toHaveText(reports.list.rangeText(1, 2, 2));

    // The totals of the filtered rows, on screen: Ana's 1.000 points for $100.000, 200 redeemed ($20).
    const totals = page.getByRole('region', { name: tr('reports.totals.title') });
    await expect(totals.getByTestId('total-pointsAccredited')).toHaveText(number(1000));
    await expect(totals.getByTestId('total-pointsRedeemed')).toHaveText('200');
    await expect(totals.getByTestId('total-invoiceAmount')).toContainText(number(100_000));
    await expect(totals.getByTestId('total-redeemedValue')).toContainText('20');

    const [download] = await Promise.all([page.waitForEvent('download'), reports.exportButton().click()]);
    expect(download.suggestedFilename()).toBe('reporte_fidelidad.csv');
    const content = await readFile(await download.path(), 'utf8');
    expect(content.startsWith('\uFEFF')).toBe(true);
    // Excel splits a CSV by the regional settings: ';' for Spanish (Colombia), ',' for English.
    const separator = locale === 'es' ? ';' : ',';
    const lines = content.replace(/^\uFEFF/, '').trimEnd().split('\r\n');
    const columns = [
      'id',
      'date',
      'cashier',
      'pos',
      'customerDocument',
      'customerName',
      'type',
      'description',
      'points',
      'invoiceAmount',
      'redeemedValue',
      'approvedBy',
    ] as const;
    expect(lines[0]).toBe(columns.map((column) => tr(`reports.csv.${column}`)).join(separator));
    expect(lines).toHaveLength(3 + 8);
    const dateTime = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/;
    const [redemption, accreditation] = [csvFields(lines[1]!, separator), csvFields(lines[2]!, separator)];
    // Both rows are carlos's, at Caja Norte, for Ana: the first columns are the same but the id.
    const byCarlosForAna = (transaction: Transaction, ...rest: string[]) => [
      String(transaction.id),
      expect.stringMatching(dateTime),
      'carlos',
      'Caja Norte',
      history.ana.document,
      'Ana Beltrán',
      ...rest,
    ];
    expect(redemption).toEqual(byCarlosForAna(history.redemption, tr('reports.types.redemption'), 'Descuento', '-200', 'N/A', '20', 'N/A'));
    expect(accreditation).toEqual(
      byCarlosForAna(
        history.accreditation,
        tr('reports.types.accreditation'),
        tr('ledger.purchase', { amount: `$${locale === 'es' ? '\u00a0' : ''}${number(100_000)}` }),
        '1000',
        '100000',
        'N/A',
        'N/A',
      ),
    );
    expect(lines.slice(3)).toEqual([
      '',
      tr('reports.totals.title'),
      [tr('reports.totals.pointsAccredited'), '1000'].join(separator),
      [tr('reports.totals.pointsRedeemed'), '200'].join(separator),
      [tr('reports.totals.invoiceAmount'), '100000'].join(separator),
      [tr('reports.totals.redeemedValue'), '20'].join(separator),
      [tr('reports.totals.pointsReturned'), '0'].join(separator),
      [tr('reports.totals.returnedAmount'), '0'].join(separator),
    ]);
  });
}

test('a supervisor voids a redemption: the row is struck through and the points come back', async ({ newCompany, apiAs, pageWithSession }) => {
  const company = await newCompany();
  const history = await seedHistory(company, apiAs);
  const supervisor = await apiAs(history.shop.supervisor);
  const page = await pageWithSession(supervisor.session!);
  const reports = new ReportsPage(page);
  await reports.goto();

  await expect(reports.reprintButton(history.redemption.id)).toBeVisible();
  await reports.voidButton(history.redemption.id).click();
  const dialog = reports.voidDialog();
  await expect(dialog).toContainText(
    t('reports.void.confirm', { id: history.redemption.id, type: t('reports.types.redemption'), points: '-200', customer: 'Ana Beltrán' }),
  );
  await expect(dialog.getByLabel(t('supervisorCredentials.username'))).toHaveCount(0);
  await dialog.getByRole('button', { name: t('reports.void.button'), exact: true }).click();
  await expect(reports.voidBanner(t('reports.void.success'))).toBeVisible();

  const voided = reports.row(history.redemption.id);
  await expect(voided).toContainText(t('reports.voidedBadge'));
  await expect(voided).toContainText(t('reports.voidedBy', { username: 'sofia' }));
  await expect(reports.voidButton(history.redemption.id)).toHaveCount(0);
  await expect(reports.reprintButton(history.redemption.id)).toHaveCount(0);
  await expect(reports.list.rows().first()).toContainText(t('reports.types.cancellation'));
  await expect(reports.list.rows().first()).toContainText(t('reports.row.cancels', { id: history.redemption.id }));
  // The banner goes away by itself (after 4 s).
  await expect(reports.voidBanner(t('reports.void.success'))).toBeHidden({ timeout: 8_000 });

  expect((await company.api.customerByDocument(history.ana.document)).points).toBe(1000);
  const [cancellation] = (await company.api.searchTransactions({ type: 'cancellation' })).items;
  expect(cancellation).toMatchObject({ points: 200, customerId: history.ana.id });
});

test('a cajero voids an own accreditation only with right supervisor credentials', async ({ newCompany, apiAs, pageWithSession }) => {
  const company = await newCompany();
  const history = await seedHistory(company, apiAs);
  const carla = await newCustomer(company.api, { name: 'Carla Méndez' });
  const own = (await history.carlos.accredit(carla.id, 30_000, 'FV-300')).newTransaction;
  const page = await pageWithSession(history.carlos.session!);
  const reports = new ReportsPage(page);
  await reports.goto();

  // Only own rows can be voided by a cajero.
  await expect(reports.voidButton(own.id)).toBeVisible();
  await expect(reports.voidButton(history.other.id)).toHaveCount(0);

  await reports.voidButton(own.id).click();
  const dialog = reports.voidDialog();
  const confirm = dialog.getByRole('button', { name: t('reports.void.button'), exact: true });
  await expect(dialog).toContainText(t('reports.void.supervisorHint'));
  await confirm.click();
  await expect(dialog.getByRole('alert')).toHaveText(t('supervisorCredentials.required'));

  await dialog.getByLabel(t('supervisorCredentials.username')).fill(history.shop.supervisor.username);
  await dialog.getByLabel(t('supervisorCredentials.password')).fill('not-the-password');
  await confirm.click();
  await expect(dialog.getByRole('alert')).toHaveText(t('reports.void.invalidSupervisor'));
  expect((await company.api.customerByDocument(carla.document)).points).toBe(300);

  await dialog.getByLabel(t('supervisorCredentials.password')).fill(history.shop.supervisor.password);
  await confirm.click();
  await expect(dialog).toHaveCount(0);
  await expect(reports.voidBanner(t('reports.void.success'))).toBeVisible();
  await expect(reports.row(own.id)).toContainText(t('reports.voidedBadge'));
  expect((await company.api.customerByDocument(carla.document)).points).toBe(0);
});

test('reprints the receipt of a redemption', async ({ newCompanyAdmin, apiAs }) => {
  const { company, page } = await newCompanyAdmin();
  const history = await seedHistory(company, apiAs);
  const reports = new ReportsPage(page);
  await reports.goto();
  await expect(reports.reprintButton(history.accreditation.id)).toHaveCount(0);
  await reports.reprintButton(history.redemption.id).click();
  const receipt = new ReceiptDialog(page);
  await expect(receipt.receipt).not.toContainText(t('receipt.reprintNote'));
  expect(await receipt.lines()).toMatchObject({
    [t('receipt.transaction')]: `#${history.redemption.id}`,
    [t('receipt.pos')]: 'Caja Norte',
    [t('receipt.cashier')]: 'carlos',
    [t('receipt.invoiceReference')]: 'FV-101',
    [t('receipt.customer')]: 'Ana Beltrán',
    [t('receipt.document')]: history.ana.document,
    [t('receipt.description')]: 'Descuento',
    [t('receipt.points')]: '200',
    // The balances kept with the redemption: exact, not N/A.
    [t('receipt.previousBalance')]: '1.000',
    [t('receipt.newBalance')]: '800',
  });
  await expect(receipt.receipt).toContainText(company.name);
  await receipt.close().click();
  await expect(receipt.root).toHaveCount(0);
});
