// A partial return through the report (docs/points.md, "Returns"): a cajero starts it where a void
// is started, gives the returned amount, a credit note and a supervisor's credentials; the points
// come back in proportion, the return's receipt opens to print, and the row shows as a return. An
// amount beyond what is left of the invoice is refused inside the dialog. In both languages.

import { expect, inEachLanguage, test } from '../../support/fixtures';
import { ReceiptDialog, ReportsPage } from '../../support/pages/operations';
import { missing } from '../../support/run';
import { newCustomer, seedShop } from '../../support/seed';

test.skip(({ run }) => !run.capabilities.points || !run.capabilities.reports, `${missing('points')}; ${missing('reports')}`);

inEachLanguage(({ locale, tr, number }) => {
  test('a cajero records a partial return with a supervisor and prints its receipt', async ({ newCompany, apiAs, pageWithSession }) => {
    const company = await newCompany();
    const shop = await seedShop(company);
    const carlos = await apiAs(shop.cajero);
    const customer = await newCustomer(company.api, { name: 'Ana Beltrán' });
    // 100,000 pesos earn 1,000 points (1 point per 100 pesos).
    const sale = (await carlos.accredit(customer.id, 100_000, 'FV-9')).newTransaction;
    const page = await pageWithSession(carlos.session!, { locale });
    const reports = new ReportsPage(page, locale);
    await reports.goto();

    await reports.returnButton(sale.id).click();
    const dialog = reports.returnDialog();
    await expect(dialog).toContainText(tr('reports.return.hint'));
    const submit = dialog.getByRole('button', { name: tr('reports.return.submit'), exact: true });
    // A third of the invoice back: floor(1,000 x 33,333 / 100,000) = 333 points.
    await dialog.getByLabel(tr('reports.return.amount')).fill('33333');
    await dialog.getByLabel(tr('reports.return.reference')).fill('NC-1');
    await dialog.getByLabel(tr('supervisorCredentials.username')).fill(shop.supervisor.username);
    await dialog.getByLabel(tr('supervisorCredentials.password')).fill(shop.supervisor.password);
    await submit.click();
    await expect(dialog).toHaveCount(0);

    const receipt = new ReceiptDialog(page, locale, 'return');
    await expect(receipt.receipt).toBeVisible();
    expect(await receipt.lines()).toMatchObject({
      [tr('receipt.invoiceReference')]: 'NC-1',
      [tr('receipt.returnedPoints')]: `-${number(333)}`,
      [tr('receipt.previousBalance')]: number(1000),
      [tr('receipt.newBalance')]: number(667),
    });
    await receipt.close().click();

    const [row] = (await carlos.searchTransactions({ type: 'return' })).items;
    expect(row).toMatchObject({ points: -333, originalTransactionId: sale.id, invoiceAmount: 33_333 });
    await expect(reports.row(row!.id)).toContainText(tr('reports.types.return'));
    await expect(reports.row(row!.id)).toContainText(tr('reports.row.returns', { id: sale.id }));

    // More than what is left of the invoice (66,667 pesos) is refused inside the dialog.
    await reports.returnButton(sale.id).click();
    await dialog.getByLabel(tr('reports.return.amount')).fill('70000');
    await dialog.getByLabel(tr('supervisorCredentials.username')).fill(shop.supervisor.username);
    await dialog.getByLabel(tr('supervisorCredentials.password')).fill(shop.supervisor.password);
    await submit.click();
    await expect(dialog.getByRole('alert')).toHaveText(tr('errors.return.amountExceeds', { left: number(66_667) }));
    await expect(dialog).toBeVisible();
    await dialog.getByRole('button', { name: tr('common.cancel'), exact: true }).click();

    // The row names the supervisor who approved it; the totals and the dashboard count the
    // returned points as a figure of their own: 1,000 accredited - 333 returned = the balance.
    const approver = shop.supervisor.username.split('@')[0]!;
    await expect(reports.row(row!.id)).toContainText(tr('reports.row.approvedBy', { username: approver }));
    expect(row).toMatchObject({ approvedBy: approver });
    const totals = page.getByRole('region', { name: tr('reports.totals.title') });
    await expect(totals.getByTestId('total-pointsAccredited')).toHaveText(number(1000));
    await expect(totals.getByTestId('total-pointsReturned')).toHaveText(number(333));
    await expect(totals.getByTestId('total-returnedAmount')).toContainText(number(33_333));
    await page.goto('/main');
    await expect(page.getByTestId('kpi-pointsReturnedLast30Days')).toHaveText(number(333));
    await expect(page.getByTestId('kpi-pointsAccreditedLast30Days')).toHaveText(number(1000));
    await expect(page.getByTestId('kpi-pointsInCirculation')).toHaveText(number(667));
  });
});
