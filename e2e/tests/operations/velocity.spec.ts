// Velocity limits at the till (docs/points.md, "Velocity limits"): an accreditation beyond the
// day's limit is refused with the limit and what the customer has had today; a wrong supervisor
// password keeps the dialog open (and the cashier logged in); the supervisor's approval credits
// it, and the ledger records who approved. In both languages.

import { expect, inEachLanguage, test } from '../../support/fixtures';
import { AccreditPanel } from '../../support/pages/operations';
import { missing } from '../../support/run';
import { newCustomer, seedShop } from '../../support/seed';

test.skip(({ run }) => !run.capabilities.points, missing('points'));

inEachLanguage(({ locale, tr, number }) => {
  test('an accreditation beyond the day\'s limit is refused, then approved by a supervisor', async ({ newCompany, apiAs, pageWithSession }) => {
    // Two supervisor passwords checked as logins (argon2, and the throttle's delay after a wrong one).
    test.slow();
    const company = await newCompany();
    const shop = await seedShop(company);
    await company.api.saveSettings({ maxAccreditationsPerCustomerPerDay: 1 });
    const carlos = await apiAs(shop.cajero);
    const customer = await newCustomer(company.api, { name: 'Lucía Prieto' });
    await carlos.accredit(customer.id, 10_000, 'FV-V1');

    const page = await pageWithSession(carlos.session!, { locale });
    await page.goto('/accreditar');
    const accredit = new AccreditPanel(page.getByRole('main'), locale);
    await accredit.lookup.find(customer.document);
    await accredit.amount().fill('20000');
    await accredit.submit().click();

    const dialog = page.getByRole('dialog', { name: tr('accredit.approval.title') });
    await expect(dialog.getByTestId('velocity-refusal')).toHaveText(tr('errors.points.velocityAccreditations', { today: 1, limit: 1 }));
    const username = dialog.getByLabel(tr('supervisorCredentials.username'));
    const password = dialog.getByLabel(tr('supervisorCredentials.password'));
    const approve = dialog.getByRole('button', { name: tr('accredit.approval.submit'), exact: true });

    await username.fill('sofia');
    await password.fill('not-her-password');
    await approve.click();
    await expect(dialog.getByRole('alert')).toHaveText(tr('errors.void.incorrectCredentials'));
    expect((await company.api.customerByDocument(customer.document)).points).toBe(100);

    await password.fill(shop.supervisor.password);
    await approve.click();
    await expect(dialog).toHaveCount(0);
    await expect(accredit.success()).toHaveText(
      `${tr('accredit.success', { points: number(200), name: 'Lucía Prieto', balance: number(300) })} ${tr('accredit.approvedBy', { approver: 'sofia' })}`,
    );
    expect((await company.api.customerByDocument(customer.document)).points).toBe(300);
    const page1 = await company.api.searchTransactions({ customerId: customer.id });
    expect(page1.items.map((t) => [t.points, t.approvedBy ?? null])).toEqual([
      [200, 'sofia'],
      [100, null],
    ]);
  });
});
