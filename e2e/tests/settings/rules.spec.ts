// /settings/rules: the program rules (conditional fields, validation, saved message) and the
// maintenance card that runs point expiration, with its effect (docs/screens.md).

import { expect, inEachLanguage, test } from '../../support/fixtures';
import { t } from '../../support/i18n';
import { RulesScreen } from '../../support/pages/settings';
import { ageEarnedPoints } from '../../support/clock';
import { ReportsPage } from '../../support/pages/operations';
import { missing } from '../../support/run';
import { newCustomer, seedShop } from '../../support/seed';

test('shows each field only when its policy or bonus applies', async ({ newCompanyAdmin }) => {
  const { page } = await newCompanyAdmin();
  const rules = new RulesScreen(page);
  await rules.goto();
  const policy = rules.form.getByLabel(t('settings.rules.expirationPolicy'));
  const fifoDays = rules.field('settings.rules.pointsExpirationDays');
  const inactivityDays = rules.field('settings.rules.inactivityDays');
  const explanation = rules.form.getByTestId('policy-explanation');

  await expect(policy).toHaveValue('none');
  await expect(fifoDays).toHaveCount(0);
  await expect(inactivityDays).toHaveCount(0);
  await expect(explanation).toHaveText(t('settings.rules.explanations.none'));

  await policy.selectOption({ label: t('settings.rules.policies.fifo') });
  await expect(fifoDays).toHaveValue('365');
  await expect(fifoDays).toHaveAccessibleDescription(t('settings.rules.daysHint', { min: '1', max: '36.500', step: '1' }));
  await expect(inactivityDays).toHaveCount(0);
  await expect(explanation).toHaveText(t('settings.rules.explanations.fifo'));

  await policy.selectOption({ label: t('settings.rules.policies.inactivity') });
  await expect(inactivityDays).toHaveValue('180');
  await expect(fifoDays).toHaveCount(0);

  await policy.selectOption({ label: t('settings.rules.policies.calendar') });
  await expect(fifoDays).toHaveCount(0);
  await expect(inactivityDays).toHaveCount(0);
  await expect(explanation).toHaveText(t('settings.rules.explanations.calendar'));

  for (const [toggle, multiplier] of [
    ['settings.rules.enableFirstPurchaseBonus', 'settings.rules.firstPurchaseBonusMultiplier'],
    ['settings.rules.enableBirthdayBonus', 'settings.rules.birthdayBonusMultiplier'],
  ] as const) {
    await expect(rules.field(multiplier)).toHaveCount(0);
    await rules.field(toggle).check();
    await expect(rules.field(multiplier)).toHaveValue('1');
    await expect(rules.field(multiplier)).toHaveAccessibleDescription(t('settings.rules.multiplierHint', { min: '1', max: '100', step: '0,1' }));
    await rules.field(toggle).uncheck();
    await expect(rules.field(multiplier)).toHaveCount(0);
  }

  await expect(rules.field('settings.rules.pointsPerPeso')).toHaveAccessibleDescription(
    t('settings.rules.pointsPerPesoHint', { min: '0,001', max: '1.000', step: '0,001' }),
  );
  await expect(rules.field('settings.rules.redemptionRate')).toHaveAccessibleDescription(
    t('settings.rules.redemptionRateHint', { min: '1', max: '1.000.000' }),
  );
  await expect(rules.field('settings.rules.campaignMultiplier')).toHaveAccessibleDescription(
    t('settings.rules.campaignMultiplierHint', { min: '1', max: '100', step: '0,5' }),
  );
});

test('refuses values out of bounds, then saves and shows the saved message for a moment', async ({ newCompanyAdmin }) => {
  const { company, page } = await newCompanyAdmin();
  const rules = new RulesScreen(page);
  await rules.goto();

  await rules.field('settings.rules.pointsPerPeso').fill('0');
  await rules.field('settings.rules.campaignMultiplier').fill('1.3');
  await rules.save().click();
  await expect(rules.error()).toContainText(t('settings.rules.errorInvalid'));
  await expect(rules.field('settings.rules.pointsPerPeso')).toHaveAttribute('aria-invalid', 'true');
  await expect(rules.form).toContainText(
    t('settings.rules.errorRange', { field: t('settings.rules.pointsPerPeso'), min: '0,001', max: '1.000' }),
  );
  await expect(rules.form).toContainText(t('settings.rules.errorStep', { field: t('settings.rules.campaignMultiplier'), step: '0,5' }));

  await rules.field('settings.rules.pointsPerPeso').fill('0.02');
  await rules.field('settings.rules.redemptionRate').fill('20');
  await rules.field('settings.rules.campaignMultiplier').fill('2');
  await rules.form.getByLabel(t('settings.rules.expirationPolicy')).selectOption('fifo');
  await rules.field('settings.rules.pointsExpirationDays').fill('90');
  await rules.field('settings.rules.enableBirthdayBonus').check();
  await rules.field('settings.rules.birthdayBonusMultiplier').fill('1.5');
  await rules.save().click();
  await expect(rules.saved()).toBeVisible();
  await expect(rules.error()).toHaveCount(0);
  // The message goes away by itself (after 3 s).
  await expect(rules.saved()).toBeHidden({ timeout: 6_000 });

  expect(await company.api.settings()).toMatchObject({
    pointsPerPeso: 0.02,
    redemptionRate: 20,
    campaignMultiplier: 2,
    expirationPolicy: 'fifo',
    pointsExpirationDays: 90,
    enableBirthdayBonus: true,
    birthdayBonusMultiplier: 1.5,
    enableFirstPurchaseBonus: false,
  });
  await page.reload();
  await expect(rules.field('settings.rules.redemptionRate')).toHaveValue('20');
  await expect(rules.field('settings.rules.pointsExpirationDays')).toHaveValue('90');
  await expect(rules.field('settings.rules.birthdayBonusMultiplier')).toHaveValue('1,5');
});

inEachLanguage(({ locale, tr, number }) => {
  test('takes the alert threshold, operations a day, as a whole number from 0 to 1,000', async ({ newCompanyAdmin }) => {
    const { company, page } = await newCompanyAdmin({ locale });
    const rules = new RulesScreen(page, locale);
    await rules.goto();
    const threshold = rules.field('settings.rules.alertOperationsPerDay');
    await expect(page.getByRole('region', { name: tr('settings.rules.alertsTitle') })).toBeVisible();
    await expect(threshold).toHaveValue('5');
    await expect(threshold).toHaveAccessibleDescription(
      tr('settings.rules.alertOperationsPerDayHint', { min: '0', max: number(1000), step: '1' }),
    );

    for (const bad of ['1001', '-1']) {
      await threshold.fill(bad);
      await rules.save().click();
      await expect(rules.error()).toContainText(tr('settings.rules.errorInvalid'));
      await expect(threshold).toHaveAttribute('aria-invalid', 'true');
      await expect(rules.form).toContainText(
        tr('settings.rules.errorRange', { field: tr('settings.rules.alertOperationsPerDay'), min: '0', max: number(1000) }),
      );
    }
    await threshold.fill('2.5');
    await rules.save().click();
    await expect(rules.form).toContainText(tr('settings.rules.errorStep', { field: tr('settings.rules.alertOperationsPerDay'), step: '1' }));
    expect(await company.api.settings()).toMatchObject({ alertOperationsPerDay: 5 });

    // A new company's earning rules are not set yet: set them to save.
    await rules.field('settings.rules.pointsPerPeso').fill('1');
    await rules.field('settings.rules.redemptionRate').fill('1');
    await threshold.fill('12');
    await rules.save().click();
    await expect(rules.saved()).toBeVisible();
    expect(await company.api.settings()).toMatchObject({ alertOperationsPerDay: 12 });
    await page.reload();
    await expect(threshold).toHaveValue('12');
  });
});

test('runs point expiration: "Ejecutando..." while it runs, then the result, and due points are gone', async ({ newCompanyAdmin, apiAs, run }) => {
  test.skip(!run.capabilities.expiration || !run.capabilities.points, missing('expiration'));
  const { company, page } = await newCompanyAdmin();
  const shop = await seedShop(company);
  await company.api.saveSettings({ expirationPolicy: 'fifo', pointsExpirationDays: 30 });
  const customer = await newCustomer(company.api, { name: 'Julio Pardo', points: 1000, earnedBy: await apiAs(shop.cajero) });
  ageEarnedPoints(company.prefix, 31);

  const rules = new RulesScreen(page);
  let release: () => void = () => {};
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route('**/api/tasks/expire-points', async (route) => {
    await held;
    await route.continue();
  });
  await rules.goto();
  await expect(rules.runExpiration()).toHaveText(t('settings.maintenance.runExpiration'));
  await rules.runExpiration().click();
  await rules.confirmExpiration().click();
  await expect(rules.runExpiration()).toHaveText(t('settings.maintenance.running'));
  await expect(rules.runExpiration()).toBeDisabled();
  release();
  await expect(rules.expirationResult()).toContainText(t('settings.maintenance.runExpirationSuccess'));
  await expect(rules.runExpiration()).toBeEnabled();
  // The result goes away by itself (after 5 s).
  await expect(rules.expirationResult()).toBeHidden({ timeout: 8_000 });

  expect((await company.api.customerByDocument(customer.document)).points).toBe(0);
  const expired = await company.api.searchTransactions({ type: 'expiration' });
  expect(expired.items).toEqual([expect.objectContaining({ customerId: customer.id, points: -1000, cashierUsername: 'system' })]);

  // Running again expires nothing more.
  await rules.runExpiration().click();
  await rules.confirmExpiration().click();
  await expect(rules.expirationResult()).toContainText(t('settings.maintenance.runExpirationSuccess'));
  expect((await company.api.searchTransactions({ type: 'expiration' })).total).toBe(1);

  // The report shows the expiration by the system, which cannot be voided.
  const reports = new ReportsPage(page);
  await reports.goto();
  const row = reports.row(expired.items[0]!.id);
  await expect(row).toContainText(t('reports.types.expiration'));
  // The row names the server's 'system' in the screen's language.
  await expect(row).toContainText(t('reports.row.cashier', { cashier: t('common.system') }));
  await expect(reports.voidButton(expired.items[0]!.id)).toHaveCount(0);
});

test('shows the error when running expiration fails', async ({ newCompanyAdmin }) => {
  const { page } = await newCompanyAdmin();
  const rules = new RulesScreen(page);
  await page.route('**/api/tasks/expire-points', (route) =>
    route.fulfill({ status: 500, contentType: 'application/json', body: JSON.stringify({ message: 'internal error' }) }),
  );
  await rules.goto();
  await rules.runExpiration().click();
  await rules.confirmExpiration().click();
  await expect(rules.expirationResult()).toContainText(t('settings.maintenance.runExpirationError'));
});
