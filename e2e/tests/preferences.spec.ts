// Spanish and English, light and dark, and the phone layout with its slide-out menu
// (docs/screens.md).

import { as, expect, test } from '../support/fixtures';
import { t, type TKey } from '../support/i18n';
import { LoginPage } from '../support/pages/login';
import { AppShell } from '../support/pages/shell';
import { expectPath } from '../support/routes';
import { seeded } from '../support/run';

const companies = seeded;
const NAV: TKey[] = ['nav.dashboard', 'nav.accredit', 'nav.redeem', 'nav.reports', 'nav.alerts', 'nav.dataRequests', 'nav.settings', 'nav.audit'];

const documentRoot = (page: import('@playwright/test').Page) => page.locator('html');
const stored = (page: import('@playwright/test').Page, key: string) => page.evaluate((k) => localStorage.getItem(k), key);

test.describe('language', () => {
  test.use(as('admin'));

  test('Spanish by default, English from the header menu, kept across a reload', async ({ page }) => {
    const es = new AppShell(page, 'es');
    await es.open('/reportes', 'reports.title');
    await expect(documentRoot(page)).toHaveAttribute('lang', 'es-CO');
    await expect(es.nav().getByRole('link')).toHaveText(NAV.map((key) => t(key, {}, 'es')));

    await es.languageMenu().click();
    await expect(es.languageOption('Español')).toHaveAttribute('aria-checked', 'true');
    await expect(es.languageOption('English')).toHaveAttribute('aria-checked', 'false');
    await es.languageOption('English').click();

    const en = new AppShell(page, 'en');
    await expect(en.heading(t('reports.title', {}, 'en'))).toBeVisible();
    await expect(documentRoot(page)).toHaveAttribute('lang', 'en-US');
    await expect(en.nav().getByRole('link')).toHaveText(NAV.map((key) => t(key, {}, 'en')));
    await expect(en.logoutButton()).toBeVisible();
    expect(await stored(page, 'locale')).toBe('en');

    await page.reload();
    await expect(en.heading(t('reports.title', {}, 'en'))).toBeVisible();
    await en.chooseLanguage('es');
    await expect(es.heading(t('reports.title', {}, 'es'))).toBeVisible();
    expect(await stored(page, 'locale')).toBe('es');
  });
});

test('the login screen switches to English and shows its errors in English', async ({ page }) => {
  const login = new LoginPage(page);
  await login.goto();
  await new AppShell(page).chooseLanguage('en');
  const english = new LoginPage(page, 'en');
  await expect(english.heading()).toBeVisible();
  await english.submit().click();
  await expect(english.error()).toHaveText(t('login.errorRequired', {}, 'en'));
  await english.login(companies.acme.cajero.username, 'wrong-password-1');
  await expect(english.error()).toHaveText(t('login.error', {}, 'en'));
  await english.login(companies.acme.cajero.username, companies.acme.cajero.password);
  await expect(new AppShell(page, 'en').heading(t('dashboard.title', {}, 'en'))).toBeVisible();
});

test.describe('theme', () => {
  test.use(as('admin'));

  test('light by default, dark from the toggle, kept across a reload and a new login', async ({ page }) => {
    const shell = new AppShell(page);
    await shell.open('/main', 'dashboard.title');
    await expect(documentRoot(page)).toHaveClass(/\blight\b/);
    const lightBackground = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);

    await shell.switchToDark().click();
    await expect(documentRoot(page)).toHaveClass(/\bdark\b/);
    await expect(shell.switchToLight()).toBeVisible();
    expect(await page.evaluate(() => getComputedStyle(document.body).backgroundColor)).not.toBe(lightBackground);
    expect(await stored(page, 'theme')).toBe('dark');

    await page.reload();
    await expect(documentRoot(page)).toHaveClass(/\bdark\b/);
    await shell.logoutButton().click();
    await expectPath(page, '/login');
    await expect(documentRoot(page)).toHaveClass(/\bdark\b/);

    await shell.switchToLight().click();
    await expect(documentRoot(page)).toHaveClass(/\blight\b/);
    expect(await stored(page, 'theme')).toBe('light');
  });
});

test.describe('phone-sized screen', () => {
  test.use({ ...as('admin'), viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });

  test('navigates through the slide-out menu, which closes on navigation and on Escape', async ({ page }) => {
    const shell = new AppShell(page);
    await shell.open('/main', 'dashboard.title');
    await expect(shell.nav()).toBeHidden();
    await expect(shell.mobileMenu()).toBeHidden();

    await shell.openMenuButton().click();
    const menu = shell.mobileMenu();
    await expect(menu).toBeVisible();
    await expect(menu.getByRole('link')).toHaveText(NAV.map((key) => t(key)));
    await expect(menu.getByTestId('user-badge')).toContainText(companies.acme.admin.username);

    await menu.getByRole('link', { name: t('nav.reports') }).click();
    await shell.expectAt('/reportes');
    await expect(menu).toBeHidden();

    await shell.openMenuButton().click();
    await expect(menu).toBeVisible();
    await page.keyboard.press('Escape');
    await expect(menu).toBeHidden();

    await shell.openMenuButton().click();
    await shell.closeMenuButton().click();
    await expect(menu).toBeHidden();
  });

  test('logs out from the slide-out menu', async ({ page }) => {
    const shell = new AppShell(page);
    await page.goto('/main');
    await shell.openMenuButton().click();
    await shell.mobileMenu().getByRole('button', { name: t('header.logout') }).click();
    await expectPath(page, '/login');
    await expect(new LoginPage(page).heading()).toBeVisible();
  });
});
