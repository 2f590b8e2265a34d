// A new company's first day: the till refuses to accredit or redeem until an admin has set the
// rules (points per peso and redemption rate), and the admin's dashboard lists what is left to
// set up (docs/points.md, "Errors the till shows").

import { expect, inEachLanguage, test } from '../../support/fixtures';
import { t } from '../../support/i18n';
import { AccreditPanel } from '../../support/pages/operations';
import { missing } from '../../support/run';
import { newCustomer } from '../../support/seed';

test.skip(({ run }) => !run.capabilities.points, missing('points'));

inEachLanguage(({ locale }) => {
  test('a new company cannot accredit until the rules are set, and its dashboard says what to set up', async ({ newCompanyAdmin }) => {
    const { company, page } = await newCompanyAdmin({ locale });
    const customer = await newCustomer(company.api, { name: 'Lucía Prieto' });

    await page.goto('/main');
    const checklist = page.getByRole('region', { name: t('dashboard.setup.title', {}, locale) });
    await expect(checklist).toBeVisible();
    for (const step of ['rules', 'pointsOfSale', 'users', 'products'] as const) {
      await expect(checklist.getByTestId(`setup-${step}`)).toContainText(t(`dashboard.setup.${step}`, {}, locale));
    }
    await expect(checklist.getByRole('link', { name: t('dashboard.setup.rulesAction', {}, locale) })).toHaveAttribute('href', '/settings/rules');

    await page.goto('/accreditar');
    const accredit = new AccreditPanel(page.getByRole('main'), locale);
    await accredit.lookup.find(customer.document);
    await accredit.amount().fill('50000');
    await accredit.submit().click();
    await expect(accredit.error()).toHaveText(t('errors.points.rulesNotSet', {}, locale));
    await expect(accredit.success()).toHaveCount(0);
    expect((await company.api.customerByDocument(customer.document)).points).toBe(0);

    await company.api.saveSettings({ pointsPerPeso: 0.01, redemptionRate: 10 });
    await accredit.submit().click();
    await expect(accredit.success()).toBeVisible();
    expect((await company.api.customerByDocument(customer.document)).points).toBe(500);

    await page.goto('/main');
    await expect(checklist.getByTestId('setup-rules')).toContainText(t('dashboard.setup.done', {}, locale));
    await expect(checklist.getByTestId('setup-pointsOfSale')).toContainText(t('dashboard.setup.pending', {}, locale));
  });
});
