// The setup project: logs in once per role through the login screen and saves the session
// (the client keeps it in localStorage) for the specs to start from.

import { expect, test as setup } from '../support/fixtures';
import { t } from '../support/i18n';
import { AppShell } from '../support/pages/shell';
import { LoginPage } from '../support/pages/login';
import { SuperAdminPage } from '../support/pages/superadmin';
import { authFile, type SeededCompanies, type StoredRole } from '../support/run';

/** Each saved company session: which seeded company and which of its users. */
const companyLogins: [StoredRole, keyof SeededCompanies, 'admin' | 'supervisor' | 'cajero'][] = [
  ['admin', 'acme', 'admin'],
  ['supervisor', 'acme', 'supervisor'],
  ['cajero', 'acme', 'cajero'],
  ['limitedSupervisor', 'limited', 'supervisor'],
  ['limitedCajero', 'limited', 'cajero'],
  ['noPermSupervisor', 'noperm', 'supervisor'],
  ['noPermCajero', 'noperm', 'cajero'],
];

for (const [role, companyKey, user] of companyLogins) {
  setup(`log in as ${role} (${user} of ${companyKey})`, async ({ page, run }) => {
    const company = run.companies[companyKey];
    const login = company[user];
    const loginPage = new LoginPage(page);
    await loginPage.goto();
    await loginPage.login(login.username, login.password);
    const shell = new AppShell(page);
    await expect(shell.userBadge()).toContainText(login.username);
    await expect(shell.userBadge()).toContainText(company.name);
    await page.context().storageState({ path: authFile(role) });
  });
}

setup('log in as the super admin', async ({ page, run }) => {
  const loginPage = new LoginPage(page);
  await loginPage.goto();
  await loginPage.login(run.superAdmin.username, run.superAdmin.password);
  await expect(page).toHaveURL(/\/superadmin$/);
  await expect(new SuperAdminPage(page).heading()).toBeVisible();
  await page.context().storageState({ path: authFile('superAdmin') });
});

setup('log in as the super admin impersonating Tienda Acme', async ({ page, run }) => {
  const { acme } = run.companies;
  const loginPage = new LoginPage(page);
  await loginPage.goto();
  await loginPage.login(run.superAdmin.username, run.superAdmin.password);
  const superAdminPage = new SuperAdminPage(page);
  await superAdminPage.find(acme.name);
  await superAdminPage.impersonateButton(acme.name).click();
  await expect(page).toHaveURL(/\/main$/);
  await expect(new AppShell(page).impersonationBanner()).toContainText(
    t('impersonation.banner', { company: acme.name, username: 'admin' }),
  );
  await page.context().storageState({ path: authFile('impersonating') });
});
