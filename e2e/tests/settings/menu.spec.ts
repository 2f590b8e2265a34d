// The settings shell: the left menu's groups and links by role, and the group of the current page
// opening by itself (docs/screens.md).

import { as, expect, test } from '../../support/fixtures';
import { t } from '../../support/i18n';
import { SettingsMenu } from '../../support/pages/settings';
import { AppShell } from '../../support/pages/shell';
import { expectPath, PAGES } from '../../support/routes';

test.describe('admin', () => {
  test.use(as('admin'));

  test('sees every group; the group of the current page opens by itself', async ({ page }) => {
    const menu = new SettingsMenu(page);
    const shell = new AppShell(page);
    await page.goto('/settings');
    await expectPath(page, '/settings/rules');
    await expect(menu.group('general')).toHaveAttribute('aria-expanded', 'true');
    await expect(menu.group('commercial')).toHaveAttribute('aria-expanded', 'false');
    await expect(menu.group('products')).toHaveAttribute('aria-expanded', 'false');
    await expect(menu.links()).toHaveText([t('settings.nav.rules'), t('settings.nav.permissions'), t('settings.nav.users'), t('settings.nav.pos'), t('settings.nav.apiKeys'), t('settings.nav.webhooks'), t('settings.nav.privacy')]);

    await menu.group('products').click();
    await expect(menu.group('products')).toHaveAttribute('aria-expanded', 'true');
    await menu.link(t('settings.nav.categories')).click();
    await shell.expectAt('/settings/categories');

    await menu.group('commercial').click();
    await menu.link(t('settings.nav.customers')).click();
    await expectPath(page, '/settings/customers');
    await expect(menu.group('commercial')).toHaveAttribute('aria-expanded', 'true');

    await menu.group('general').click();
    await expect(menu.group('general')).toHaveAttribute('aria-expanded', 'true');
    await menu.link(t('settings.nav.pos')).click();
    await expect(shell.heading(t(PAGES['/settings/pos']))).toBeVisible();
    // The current page's group closes by hand too.
    await menu.group('general').click();
    await expect(menu.group('general')).toHaveAttribute('aria-expanded', 'false');
    await expect(menu.link(t('settings.nav.pos'))).toBeHidden();
  });
});

test.describe('supervisor with the default permissions', () => {
  test.use(as('supervisor'));

  test('sees the commercial and product groups, not the general one', async ({ page }) => {
    const menu = new SettingsMenu(page);
    await page.goto('/settings/products');
    await expect(menu.group('general')).toHaveCount(0);
    await expect(menu.group('commercial')).toBeVisible();
    await expect(menu.group('products')).toHaveAttribute('aria-expanded', 'true');
    await expect(menu.links()).toHaveText([t('settings.nav.categories'), t('settings.nav.products')]);
  });
});

test.describe('cajero allowed only customers', () => {
  test.use(as('limitedCajero'));

  test('sees only the customers link', async ({ page }) => {
    const menu = new SettingsMenu(page);
    await page.goto('/settings');
    await expectPath(page, '/settings/customers');
    await expect(menu.group('general')).toHaveCount(0);
    await expect(menu.group('products')).toHaveCount(0);
    await expect(menu.links()).toHaveText([t('settings.nav.customers')]);
  });
});
