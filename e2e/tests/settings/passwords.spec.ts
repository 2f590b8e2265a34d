// Staff passwords: an admin resets a user's password (the user's sessions end), and every user
// changes their own from the header (their other sessions end), in Spanish and in English.

import { LoyaltyApi } from '../../support/api';
import { expect, test } from '../../support/fixtures';
import { translator, type Locale } from '../../support/i18n';
import { AppShell } from '../../support/pages/shell';

for (const locale of ['es', 'en'] as Locale[]) {
  test(`an admin resets a cashier's password, and the cashier changes it again (${locale})`, async ({
    newCompany,
    pageWithSession,
    run,
  }) => {
    const tr = translator(locale);
    const company = await newCompany();
    const pos = await company.api.createPos('Caja');
    await company.api.createUser({ username: 'lucia', password: 'clave-lucia-1', role: 'cajero', posId: pos.id });
    const login = `lucia@${company.prefix}`;
    const before = await LoyaltyApi.login(run.baseURL, login, 'clave-lucia-1');

    await test.step('the admin resets it from the users screen', async () => {
      const page = await pageWithSession(company.api.session!, { locale });
      await page.goto('/settings/users');
      await page.getByRole('button', { name: tr('users.resetPasswordOf', { login }) }).click();
      const dialog = page.getByRole('dialog', { name: tr('users.resetPasswordTitle', { login }) });
      await expect(dialog).toContainText(tr('users.resetPasswordHint'));
      await dialog.getByRole('textbox', { name: tr('password.new'), exact: true }).fill('corta');
      await dialog.getByRole('button', { name: tr('users.resetPassword') }).click();
      await expect(dialog.getByRole('alert')).toHaveText(tr('users.errorPasswordLength'));
      await dialog.getByRole('textbox', { name: tr('password.new'), exact: true }).fill('clave-nueva-22');
      await dialog.getByRole('button', { name: tr('users.resetPassword') }).click();
      await expect(dialog).toBeHidden();
      await expect(new AppShell(page, locale).toast(tr('users.successPasswordReset', { login }))).toBeVisible();
    });
    // The cashier's session ended with it.
    expect((await before.raw('GET', '/api/settings')).status()).toBe(401);
    await before.dispose();

    const cashier = await LoyaltyApi.login(run.baseURL, login, 'clave-nueva-22');
    const other = await LoyaltyApi.login(run.baseURL, login, 'clave-nueva-22');
    await test.step('the cashier changes it from the header', async () => {
      const page = await pageWithSession(cashier.session!, { locale });
      await page.goto('/main');
      await page.getByRole('button', { name: tr('password.changeTitle') }).first().click();
      const dialog = page.getByRole('dialog', { name: tr('password.changeTitle') });
      await dialog.getByRole('textbox', { name: tr('password.current'), exact: true }).fill('no-es-la-clave');
      await dialog.getByRole('textbox', { name: tr('password.new'), exact: true }).fill('clave-final-33');
      await dialog.getByRole('textbox', { name: tr('password.repeat'), exact: true }).fill('clave-final-34');
      await dialog.getByRole('button', { name: tr('password.change'), exact: true }).click();
      await expect(dialog.getByRole('alert')).toHaveText(tr('password.errorMismatch'));
      await dialog.getByRole('textbox', { name: tr('password.repeat'), exact: true }).fill('clave-final-33');
      await dialog.getByRole('button', { name: tr('password.change'), exact: true }).click();
      await expect(dialog.getByRole('alert')).toHaveText(tr('errors.user.currentPasswordIncorrect'));
      await dialog.getByRole('textbox', { name: tr('password.current'), exact: true }).fill('clave-nueva-22');
      await dialog.getByRole('button', { name: tr('password.change'), exact: true }).click();
      await expect(dialog).toBeHidden();
      const shell = new AppShell(page, locale);
      await expect(shell.toast(tr('password.changed'))).toBeVisible();
      // This session goes on (its token was renewed); the cashier's other session ended.
      await page.reload();
      await expect(shell.heading(tr('dashboard.title'))).toBeVisible();
    });
    expect((await other.raw('GET', '/api/settings')).status()).toBe(401);
    await other.dispose();
    await cashier.dispose();
    const final = await LoyaltyApi.login(run.baseURL, login, 'clave-final-33');
    await final.dispose();
  });
}
