// The outcome of a void shows where the user is looking: a refused void keeps its dialog open
// with the reason in the screen's language; a void that went through closes the dialog and its
// banner is in view, however far down the list the row was. In both languages.

import { expect, inEachLanguage, test } from '../../support/fixtures';
import { ReportsPage } from '../../support/pages/operations';
import { missing } from '../../support/run';
import { newCustomer, seedShop } from '../../support/seed';

test.skip(({ run }) => !run.capabilities.points || !run.capabilities.reports, `${missing('points')}; ${missing('reports')}`);

inEachLanguage(({ locale, tr }) => {
  test('a refused void stays in its dialog with the reason; a void that goes through shows its banner in view', async ({ newCompany, apiAs, pageWithSession }) => {
    const company = await newCompany();
    const shop = await seedShop(company);
    const carlos = await apiAs(shop.cajero);
    const customer = await newCustomer(company.api, { name: 'Ana Beltrán' });
    // The oldest rows, at the bottom of the list: an accreditation whose points were then spent.
    const spent = (await carlos.accredit(customer.id, 100_000, 'FV-1')).newTransaction;
    const redemption = (await carlos.redeem(customer.id, { pointsToRedeem: 1000, description: 'Bono' })).newTransaction;
    for (let i = 0; i < 8; i += 1) await carlos.accredit(customer.id, 1000, `FV-X${i}`);
    const supervisor = await apiAs(shop.supervisor);
    const page = await pageWithSession(supervisor.session!, { locale });
    await page.setViewportSize({ width: 1000, height: 600 });
    const reports = new ReportsPage(page, locale);
    await reports.goto();

    await reports.voidButton(spent.id).click();
    const dialog = reports.voidDialog();
    const confirm = dialog.getByRole('button', { name: tr('reports.void.button'), exact: true });
    await confirm.click();
    await expect(dialog.getByRole('alert')).toHaveText(tr('errors.void.pointsSpent'));
    await expect(dialog).toBeVisible();
    await dialog.getByRole('button', { name: tr('common.cancel'), exact: true }).click();
    await expect(dialog).toHaveCount(0);
    await expect(reports.row(spent.id)).not.toContainText(tr('reports.voidedBadge'));

    await reports.voidButton(redemption.id).click();
    await confirm.click();
    await expect(dialog).toHaveCount(0);
    const banner = reports.voidBanner(tr('reports.void.success'));
    await expect(banner).toBeInViewport();
    await expect(reports.row(redemption.id)).toContainText(tr('reports.voidedBadge'));
  });
});
