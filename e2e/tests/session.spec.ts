// Logging in and out, and the session kept in localStorage across reloads (docs/screens.md).

import { as, expect, test, uniqueTag } from '../support/fixtures';
import { t } from '../support/i18n';
import { LoginPage } from '../support/pages/login';
import { AppShell } from '../support/pages/shell';
import { expectPath } from '../support/routes';
import { seeded } from '../support/run';

const companies = seeded;

const storedSession = (page: import('@playwright/test').Page) =>
  page.evaluate(() => ({
    authToken: localStorage.getItem('authToken'),
    loggedInUser: localStorage.getItem('loggedInUser'),
    originalAuthToken: localStorage.getItem('originalAuthToken'),
    originalUser: localStorage.getItem('originalUser'),
  }));

test.describe('login', () => {
  test('a wrong password shows the login error under the form and keeps the visitor out', async ({ page }) => {
    const login = new LoginPage(page);
    await login.goto();
    await login.login(companies.acme.supervisor.username, 'not-the-password');
    await expect(login.error()).toHaveText(t('login.error'));
    await expectPath(page, '/login');
    expect((await storedSession(page)).authToken).toBeNull();
  });

  test('an unknown user or company gets the same message', async ({ page }) => {
    const login = new LoginPage(page);
    await login.goto();
    await login.login(`nadie-${uniqueTag()}@acme`, 'whatever-123');
    await expect(login.error()).toHaveText(t('login.error'));
    await login.login(`admin@no${uniqueTag()}`, 'whatever-123');
    await expect(login.error()).toHaveText(t('login.error'));
  });

  test('both fields are required', async ({ page }) => {
    const login = new LoginPage(page);
    await login.goto();
    await login.submit().click();
    await expect(login.error()).toHaveText(t('login.errorRequired'));
    await login.username().fill(companies.acme.admin.username);
    await login.submit().click();
    await expect(login.error()).toHaveText(t('login.errorRequired'));
  });

  test('a successful login stores the token and the user', async ({ page }) => {
    const login = new LoginPage(page);
    await login.goto();
    await login.login(companies.acme.supervisor.username, companies.acme.supervisor.password);
    await expectPath(page, '/main');
    const stored = await storedSession(page);
    expect(stored.authToken).toBeTruthy();
    expect(JSON.parse(stored.loggedInUser ?? '{}')).toMatchObject({
      username: 'sofia',
      role: 'supervisor',
      company: { name: companies.acme.name, prefix: companies.acme.prefix },
    });
  });
});

test.describe('session restore', () => {
  test.use(as('admin'));

  test('a reload keeps the user on the same page, logged in', async ({ page }) => {
    const shell = new AppShell(page);
    await shell.open('/reportes', 'reports.title');
    await page.reload();
    await shell.expectAt('/reportes');
    await expect(shell.userBadge()).toContainText(companies.acme.admin.username);
  });

  test('a damaged stored user counts as logged out', async ({ page }) => {
    await new AppShell(page).open('/main', 'dashboard.title');
    await page.evaluate(() => localStorage.setItem('loggedInUser', '{not json'));
    await page.reload();
    await expectPath(page, '/login');
  });

  test('a token the server refuses ends the session with a message', async ({ page }) => {
    await new AppShell(page).open('/main', 'dashboard.title');
    await page.evaluate(() => localStorage.setItem('authToken', 'forged.token.value'));
    await page.reload();
    await expectPath(page, '/login');
    await expect(new AppShell(page).toast(t('common.sessionExpired'))).toBeVisible();
  });
});

test.describe('logout', () => {
  test.use(as('admin'));

  test('logs out to /login, forgets the session, and guards the pages again', async ({ page }) => {
    const shell = new AppShell(page);
    await shell.open('/reportes', 'reports.title');
    await shell.logoutButton().click();
    await expectPath(page, '/login');
    expect(await storedSession(page)).toEqual({ authToken: null, loggedInUser: null, originalAuthToken: null, originalUser: null });
    await page.goto('/main');
    await expectPath(page, '/login');
    await page.reload();
    await expectPath(page, '/login');
  });
});

test.describe('impersonation', () => {
  test.use(as('impersonating'));

  test('survives a reload and exits back to the super admin', async ({ page, run }) => {
    const shell = new AppShell(page);
    await page.goto('/reportes');
    await expect(shell.impersonationBanner()).toContainText(
      t('impersonation.banner', { company: companies.acme.name, username: 'admin' }),
    );
    await expect(shell.impersonationBanner()).toContainText(t('impersonation.startedBy', { superAdmin: run.superAdmin.username }));
    await page.reload();
    await expect(shell.impersonationBanner()).toBeVisible();
    await expect(shell.heading(t('reports.title'))).toBeVisible();
    const during = await storedSession(page);
    expect(during.originalAuthToken).toBeTruthy();
    expect(JSON.parse(during.originalUser ?? '{}')).toMatchObject({ role: 'super_admin' });

    await shell.exitImpersonation().click();
    await expectPath(page, '/superadmin');
    await expect(shell.impersonationBanner()).toHaveCount(0);
    await expect(shell.heading(t('superAdmin.title'))).toBeVisible();
    await expect(shell.nav().getByRole('link')).toHaveText([t('nav.superAdmin')]);
    const after = await storedSession(page);
    expect(after.originalAuthToken).toBeNull();
    expect(JSON.parse(after.loggedInUser ?? '{}')).toMatchObject({ role: 'super_admin' });
    await page.reload();
    await expectPath(page, '/superadmin');
  });
});

test('deleting a company ends the sessions of its users', async ({ newCompany, pageWithSession, superApi }) => {
  const company = await newCompany();
  const page = await pageWithSession(company.api.session!);
  const shell = new AppShell(page);
  await shell.open('/main', 'dashboard.title');
  await expect(shell.userBadge()).toContainText(company.name);
  await superApi.deleteCompany(company.id);
  await page.reload();
  await expectPath(page, '/login');
  await expect(shell.toast(t('common.sessionExpired'))).toBeVisible();
});
