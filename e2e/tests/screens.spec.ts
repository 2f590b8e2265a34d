// Screenshots of each main screen in the light and the dark theme, saved as test artifacts
// (test-results/screens/<theme>/<screen>.png, never committed) so a person can look at the
// product without running it.

import path from 'node:path';
import type { Page, TestInfo } from '@playwright/test';
import { expect, test } from '../support/fixtures';
import { t } from '../support/i18n';
import { LoginPage } from '../support/pages/login';
import { AppShell } from '../support/pages/shell';
import { PAGES, type PagePath } from '../support/routes';

const COMPANY_SCREENS: [name: string, path: PagePath][] = [
  ['dashboard', '/main'],
  ['accredit', '/accreditar'],
  ['redeem', '/redimir'],
  ['reports', '/reportes'],
  ['settings-rules', '/settings/rules'],
  ['settings-permissions', '/settings/permissions'],
  ['settings-users', '/settings/users'],
  ['settings-pos', '/settings/pos'],
  ['settings-customers', '/settings/customers'],
  ['settings-products', '/settings/products'],
  ['settings-categories', '/settings/categories'],
];

async function capture(page: Page, testInfo: TestInfo, theme: string, name: string): Promise<void> {
  await expect(new AppShell(page).loadingOverlay()).toHaveCount(0);
  const file = path.join(testInfo.project.outputDir, 'screens', theme, `${name}.png`);
  await page.screenshot({ path: file, fullPage: true, animations: 'disabled' });
  await testInfo.attach(`${theme}-${name}`, { path: file, contentType: 'image/png' });
}

/** Screenshots the page in the light theme, switches to dark from the header, and again. */
async function captureBothThemes(page: Page, testInfo: TestInfo, name: string): Promise<void> {
  const shell = new AppShell(page);
  await expect(page.locator('html')).toHaveClass(/\blight\b/);
  await capture(page, testInfo, 'light', name);
  await shell.switchToDark().click();
  await expect(page.locator('html')).toHaveClass(/\bdark\b/);
  await capture(page, testInfo, 'dark', name);
}

test('login screen', async ({ page }, testInfo) => {
  const login = new LoginPage(page);
  await login.goto();
  await expect(login.heading()).toBeVisible();
  await captureBothThemes(page, testInfo, 'login');
});

test('super-admin screen', async ({ pageAs }, testInfo) => {
  const page = await pageAs('superAdmin');
  await new AppShell(page).open('/superadmin', 'superAdmin.title');
  await expect(page.getByRole('listitem').first()).toBeVisible();
  await captureBothThemes(page, testInfo, 'superadmin');
});

for (const [name, route] of COMPANY_SCREENS) {
  test(`${name} (${route})`, async ({ pageAs }, testInfo) => {
    const page = await pageAs('admin');
    await page.goto(route);
    await expect(new AppShell(page).heading(t(PAGES[route]))).toBeVisible();
    // Data that loads after the title: the dashboard's figures, the report's rows.
    if (route === '/main') await expect(page.getByRole('list', { name: t('dashboard.kpisLabel') })).toHaveAttribute('aria-busy', 'false');
    if (route === '/reportes') await expect(page.getByRole('region', { name: t('reports.listTitle') })).toBeVisible();
    await captureBothThemes(page, testInfo, name);
  });
}
