// /settings/permissions: the checkbox grid, and what a supervisor sees after logging in again
// (docs/screens.md).

import { expect, test } from '../../support/fixtures';
import { t, type TKey } from '../../support/i18n';
import { LoginPage } from '../../support/pages/login';
import { PermissionsScreen, SettingsMenu } from '../../support/pages/settings';
import { AppShell } from '../../support/pages/shell';
import { expectPath } from '../../support/routes';

const SCREENS: [path: string, label: TKey][] = [
  ['/main', 'settings.permissions.paths.main'],
  ['/accreditar', 'settings.permissions.paths.accredit'],
  ['/redimir', 'settings.permissions.paths.redeem'],
  ['/reportes', 'settings.permissions.paths.reports'],
  ['/settings/customers', 'settings.permissions.paths.customers'],
  ['/settings/products', 'settings.permissions.paths.products'],
  ['/settings/categories', 'settings.permissions.paths.categories'],
];

test("shows a new company's defaults and saves changes", async ({ newCompanyAdmin }) => {
  const { company, page } = await newCompanyAdmin();
  const screen = new PermissionsScreen(page);
  await screen.goto();
  for (const [path, label] of SCREENS) {
    await expect(screen.checkbox('supervisor', label)).toBeChecked();
    const cajeroDefault = ['/main', '/accreditar', '/redimir', '/reportes'].includes(path);
    await expect(screen.checkbox('cajero', label)).toBeChecked({ checked: cajeroDefault });
  }

  await screen.checkbox('supervisor', 'settings.permissions.paths.main').uncheck();
  await screen.checkbox('supervisor', 'settings.permissions.paths.categories').uncheck();
  await screen.checkbox('cajero', 'settings.permissions.paths.reports').uncheck();
  await screen.checkbox('cajero', 'settings.permissions.paths.customers').check();
  await screen.save().click();
  await expect(screen.saved()).toBeVisible();

  expect((await company.api.settings()).rolePermissions).toEqual({
    // Alerts are granted to supervisors by default (docs/roles.md).
    supervisor: ['/accreditar', '/redimir', '/reportes', '/settings/customers', '/settings/products', '/alertas'],
    cajero: ['/main', '/accreditar', '/redimir', '/settings/customers'],
  });
  await page.reload();
  await expect(screen.checkbox('supervisor', 'settings.permissions.paths.main')).not.toBeChecked();
  await expect(screen.checkbox('cajero', 'settings.permissions.paths.customers')).toBeChecked();
});

test('a supervisor sees what the new permissions allow after logging in again', async ({ newCompanyAdmin, browser, pageOptions }) => {
  const { company, page: adminPage } = await newCompanyAdmin();
  const pos = await company.api.createPos('Caja');
  await company.api.createUser({ username: 'sara', password: 'clave-sara-12', role: 'supervisor', posId: pos.id });
  const supervisorLogin = { username: `sara@${company.prefix}`, password: 'clave-sara-12' };

  const context = await browser.newContext(pageOptions);
  const page = await context.newPage();
  const shell = new AppShell(page);
  const login = new LoginPage(page);
  await login.goto();
  await login.login(supervisorLogin.username, supervisorLogin.password);
  await expectPath(page, '/main');
  await expect(shell.nav().getByRole('link')).toHaveText(
    (['nav.dashboard', 'nav.accredit', 'nav.redeem', 'nav.reports', 'nav.alerts', 'nav.settings'] as const).map((key) => t(key)),
  );

  const screen = new PermissionsScreen(adminPage);
  await screen.goto();
  for (const label of ['paths.main', 'paths.accredit', 'paths.redeem', 'paths.customers'] as const) {
    await screen.checkbox('supervisor', `settings.permissions.${label}`).uncheck();
  }
  await screen.save().click();
  await expect(screen.saved()).toBeVisible();

  await shell.logoutButton().click();
  await login.login(supervisorLogin.username, supervisorLogin.password);
  // /main is no longer permitted: the first permitted route is /reportes.
  await expectPath(page, '/reportes');
  await expect(shell.nav().getByRole('link')).toHaveText([t('nav.reports'), t('nav.alerts'), t('nav.settings')]);
  await page.goto('/accreditar');
  await expectPath(page, '/reportes');
  await shell.navLink(t('nav.settings')).click();
  await expectPath(page, '/settings/categories');
  await expect(new SettingsMenu(page).links()).toHaveText([t('settings.nav.categories'), t('settings.nav.products')]);
  await context.close();
});
