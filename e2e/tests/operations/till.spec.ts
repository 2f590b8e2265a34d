// The till: what an invoice earns before it is submitted (with the bonuses that apply), the
// customer cleared after each accreditation, an invoice credited only once, and the expiration
// run confirmed before it runs. In both languages.

import { expect, inEachLanguage, test } from '../../support/fixtures';
import { AccreditPanel } from '../../support/pages/operations';
import { RulesScreen } from '../../support/pages/settings';
import { missing } from '../../support/run';
import { bogotaMinute, newCustomer, seedShop, todayInBogota, uniqueDocument } from '../../support/seed';

test.skip(({ run }) => !run.capabilities.points, missing('points'));

inEachLanguage(({ locale, tr, number }) => {
  test('shows what the invoice earns with its bonuses before it is submitted, then clears the customer', async ({ newCompany, apiAs, pageWithSession }) => {
    const company = await newCompany();
    const shop = await seedShop(company);
    await company.api.saveSettings({ enableFirstPurchaseBonus: true, firstPurchaseBonusMultiplier: 1.5, enableBirthdayBonus: true, birthdayBonusMultiplier: 2 });
    const birthdate = `1990-${todayInBogota().slice(5)}`;
    const customer = await company.api.createCustomer({ name: 'Sara Cumpleaños', document: uniqueDocument(), birthdate });
    const cajero = await apiAs(shop.cajero);
    const page = await pageWithSession(cajero.session!, { locale });

    await page.goto('/accreditar');
    const accredit = new AccreditPanel(page.getByRole('main'), locale);
    await accredit.lookup.find(customer.document);
    await accredit.amount().fill('100000');
    // 100,000 x 0.01 = 1,000, x 1.5 first purchase, x 2 birthday.
    const preview = page.getByTestId('accredit-preview');
    await expect(preview).toContainText(tr('accredit.preview', { points: number(3000) }));
    await expect(preview).toContainText(tr('accredit.bonus.firstPurchase', { multiplier: locale === 'es' ? '1,5' : '1.5' }));
    await expect(preview).toContainText(tr('accredit.bonus.birthday', { multiplier: '2' }));
    await accredit.submit().click();
    await expect(accredit.success()).toHaveText(tr('accredit.success', { points: number(3000), name: 'Sara Cumpleaños', balance: number(3000) }));
    await expect(accredit.lookup.customerCard()).toHaveCount(0);
    await expect(accredit.lookup.document()).toHaveValue('');
    await expect(accredit.amount()).toBeDisabled();

    // The next purchase is no longer the first: only the birthday applies.
    await accredit.lookup.find(customer.document);
    await accredit.amount().fill('100000');
    await expect(preview).toContainText(tr('accredit.preview', { points: number(2000) }));
    await expect(preview).not.toContainText(tr('accredit.bonus.firstPurchase', { multiplier: locale === 'es' ? '1,5' : '1.5' }));
  });

  test('refuses an invoice already credited, naming the earlier transaction', async ({ newCompany, apiAs, pageWithSession }) => {
    const company = await newCompany();
    const shop = await seedShop(company);
    const cajero = await apiAs(shop.cajero);
    const first = await newCustomer(company.api);
    const earlier = (await cajero.accredit(first.id, 20_000, 'FV-900')).newTransaction;
    const second = await newCustomer(company.api, { name: 'Otra Persona' });
    const page = await pageWithSession(cajero.session!, { locale });

    await page.goto('/accreditar');
    const accredit = new AccreditPanel(page.getByRole('main'), locale);
    await accredit.lookup.find(second.document);
    await accredit.amount().fill('20000');
    await accredit.reference().fill('fv-900');
    await accredit.submit().click();
    await expect(accredit.error()).toHaveText(
      tr('errors.points.invoiceAlreadyCredited', { reference: 'fv-900', transactionId: String(earlier.id), date: bogotaMinute(earlier.date) }),
    );
    expect((await company.api.customerByDocument(second.document)).points).toBe(0);
  });

  test('asks before running the irreversible point expiration', async ({ newCompanyAdmin }) => {
    const { page } = await newCompanyAdmin({ locale });
    let runs = 0;
    await page.route('**/api/tasks/expire-points', async (route) => {
      runs += 1;
      await route.continue();
    });
    const rules = new RulesScreen(page, locale);
    await rules.goto();
    await rules.runExpiration().click();
    await expect(rules.expirationDialog()).toContainText(tr('settings.maintenance.confirmText'));
    await rules.cancelExpiration().click();
    await expect(rules.expirationDialog()).toHaveCount(0);
    await expect(rules.expirationResult()).toHaveCount(0);
    expect(runs).toBe(0);

    await rules.runExpiration().click();
    await rules.confirmExpiration().click();
    await expect(rules.expirationResult()).toContainText(tr('settings.maintenance.runExpirationSuccess'));
    expect(runs).toBe(1);
  });
});
