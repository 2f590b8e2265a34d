// Every row of the route table (docs/screens.md) and every guard, for each kind of visitor.

import { as, expect, test } from '../support/fixtures';
import { t, type TKey } from '../support/i18n';
import { LoginPage } from '../support/pages/login';
import { AppShell } from '../support/pages/shell';
import { ADMIN_ONLY_PAGES, ALL_PATHS, COMPANY_PAGES, expectPath, REDIRECTS, visit, type PagePath } from '../support/routes';
import { seeded } from '../support/run';

const companies = seeded;

/**
 * Opens `from` (a full load the first time, then as a link inside the app; `deepLink` forces a
 * full load) and checks where the guards leave the visitor and which title shows there.
 */
async function expectLanding(shell: AppShell, from: string, to: PagePath, options: { deepLink?: boolean } = {}): Promise<void> {
  await test.step(`${from} -> ${to}${options.deepLink ? ' (typed address)' : ''}`, async () => {
    await visit(shell.page, from, options);
    await shell.expectAt(to);
  });
}

async function expectNav(shell: AppShell, keys: TKey[]): Promise<void> {
  await expect(shell.nav().getByRole('link')).toHaveText(keys.map((key) => t(key)));
}

test.describe('nobody logged in', () => {
  test('every path of the route table leads to /login', async ({ page }) => {
    const login = new LoginPage(page);
    for (const path of ALL_PATHS) {
      await test.step(path, async () => {
        await visit(page, path, { deepLink: true });
        await expectPath(page, '/login');
        await expect(login.heading()).toBeVisible();
      });
    }
  });

  test('the login screen is public and shows no app navigation', async ({ page }) => {
    const login = new LoginPage(page);
    await login.goto();
    await expect(login.heading()).toBeVisible();
    await expect(login.username()).toBeVisible();
    await expect(login.password()).toBeVisible();
    await expect(new AppShell(page).nav()).toHaveCount(0);
  });

  test('after logging in, a company user lands on the page first requested', async ({ page }) => {
    await page.goto('/reportes?desde=hoy');
    await expectPath(page, '/login');
    await new LoginPage(page).login(companies.acme.admin.username, companies.acme.admin.password);
    await expect(page).toHaveURL((url) => url.pathname === '/reportes' && url.search === '?desde=hoy');
    await expect(new AppShell(page).heading(t('reports.title'))).toBeVisible();
  });

  test('after logging in without a requested page, a company user lands on /main', async ({ page }) => {
    const login = new LoginPage(page);
    await login.goto();
    await login.login(companies.acme.cajero.username, companies.acme.cajero.password);
    await new AppShell(page).expectAt('/main');
  });

  test('after logging in, a super admin lands on /superadmin whatever was requested', async ({ page, run }) => {
    await page.goto('/settings/products');
    await expectPath(page, '/login');
    await new LoginPage(page).login(run.superAdmin.username, run.superAdmin.password);
    await new AppShell(page).expectAt('/superadmin');
  });
});

test.describe('super admin (not impersonating)', () => {
  test.use(as('superAdmin'));

  test('sees only /superadmin: every company path redirects there', async ({ page }) => {
    const shell = new AppShell(page);
    for (const path of [...COMPANY_PAGES, ...REDIRECTS.map(([from]) => from)]) {
      await expectLanding(shell, path, '/superadmin');
    }
    await expectNav(shell, ['nav.superAdmin']);
    await expect(shell.userBadge()).toContainText(t('roles.super_admin'));
  });

  test('may still open /login', async ({ page }) => {
    await page.goto('/login');
    await expectPath(page, '/login');
    await expect(new LoginPage(page).heading()).toBeVisible();
  });
});

test.describe('super admin impersonating a company', () => {
  test.use(as('impersonating'));

  test("opens every company page as the company's admin, with the banner on each", async ({ page }) => {
    const shell = new AppShell(page);
    for (const path of COMPANY_PAGES) {
      await expectLanding(shell, path, path);
      await expect(shell.impersonationBanner()).toBeVisible();
    }
  });

  test('is sent from /superadmin and unknown paths to /main', async ({ page }) => {
    const shell = new AppShell(page);
    await expectLanding(shell, '/superadmin', '/main');
    await expectLanding(shell, '/no-such-page', '/main');
    await expectNav(shell, ['nav.dashboard', 'nav.accredit', 'nav.redeem', 'nav.reports', 'nav.alerts', 'nav.dataRequests', 'nav.settings', 'nav.audit']);
    await expect(shell.userBadge()).toContainText(`admin@${companies.acme.prefix}`);
  });
});

test.describe('admin', () => {
  test.use(as('admin'));

  test('opens every company page from its typed address', async ({ page }) => {
    const shell = new AppShell(page);
    for (const path of COMPANY_PAGES) await expectLanding(shell, path, path, { deepLink: true });
  });


  test('follows every redirect row of the route table from its typed address', async ({ page }) => {
    const shell = new AppShell(page);
    for (const [from, to] of REDIRECTS) await expectLanding(shell, from, to, { deepLink: true });
  });

  test('is sent from /superadmin to /main', async ({ page }) => {
    await expectLanding(new AppShell(page), '/superadmin', '/main');
  });

  test('sees every section in the header, with username@prefix and the company', async ({ page }) => {
    const shell = new AppShell(page);
    await page.goto('/main');
    await expectNav(shell, ['nav.dashboard', 'nav.accredit', 'nav.redeem', 'nav.reports', 'nav.alerts', 'nav.dataRequests', 'nav.settings', 'nav.audit']);
    await expect(shell.userBadge()).toContainText(companies.acme.admin.username);
    await expect(shell.userBadge()).toContainText(companies.acme.name);
    await expect(shell.impersonationBanner()).toHaveCount(0);
  });

  test('header links lead to their pages', async ({ page }) => {
    const shell = new AppShell(page);
    await page.goto('/main');
    const links: [TKey, PagePath][] = [
      ['nav.accredit', '/accreditar'],
      ['nav.redeem', '/redimir'],
      ['nav.reports', '/reportes'],
      ['nav.dataRequests', '/solicitudes-datos'],
      ['nav.settings', '/settings/rules'],
      ['nav.dashboard', '/main'],
    ];
    for (const [key, path] of links) {
      await shell.navLink(t(key)).click();
      await shell.expectAt(path);
    }
  });
});

test.describe('supervisor with every permission (the default)', () => {
  test.use(as('supervisor'));

  test('opens every permitted page', async ({ page }) => {
    const shell = new AppShell(page);
    for (const path of companies.acme.permissions.supervisor) await expectLanding(shell, path, path);
  });

  test('is sent from admin-only pages to /main', async ({ page }) => {
    const shell = new AppShell(page);
    for (const path of ADMIN_ONLY_PAGES) await expectLanding(shell, path, '/main');
    await expectLanding(shell, '/usuarios', '/main');
    await expectLanding(shell, '/puntos-de-venta', '/main');
    await expectLanding(shell, '/configuracion', '/main');
  });

  test('goes from /settings to its first settings page, and from /superadmin to /main', async ({ page }) => {
    const shell = new AppShell(page);
    await expectLanding(shell, '/settings', '/settings/customers');
    await expectLanding(shell, '/clientes', '/settings/customers');
    await expectLanding(shell, '/superadmin', '/main');
    await expectNav(shell, ['nav.dashboard', 'nav.accredit', 'nav.redeem', 'nav.reports', 'nav.alerts', 'nav.dataRequests', 'nav.settings']);
  });
});

test.describe('cajero with the default permissions', () => {
  test.use(as('cajero'));

  test('opens the four operation pages', async ({ page }) => {
    const shell = new AppShell(page);
    for (const path of companies.acme.permissions.cajero) await expectLanding(shell, path, path);
    await expectNav(shell, ['nav.dashboard', 'nav.accredit', 'nav.redeem', 'nav.reports']);
    await expect(shell.userBadge()).toContainText(companies.acme.cajero.username);
  });

  test('goes to its first permitted page from settings it may not open', async ({ page }) => {
    const shell = new AppShell(page);
    for (const path of ['/settings', '/settings/customers', '/settings/products', '/settings/categories', '/clientes']) {
      await expectLanding(shell, path, '/main');
    }
  });

  test('is sent from admin-only pages and /superadmin to /main', async ({ page }) => {
    const shell = new AppShell(page);
    for (const path of [...ADMIN_ONLY_PAGES, '/superadmin']) await expectLanding(shell, path, '/main');
  });
});

test.describe('supervisor with narrow permissions (reports, products)', () => {
  test.use(as('limitedSupervisor'));

  test('goes to its first permitted page from pages it may not open', async ({ page }) => {
    const shell = new AppShell(page);
    for (const path of ['/', '/main', '/accreditar', '/redimir', '/settings/customers', '/settings/categories', '/no-such-page']) {
      await expectLanding(shell, path, '/reportes');
    }
  });

  test('opens its permitted pages and reaches settings through /settings', async ({ page }) => {
    const shell = new AppShell(page);
    await expectLanding(shell, '/reportes', '/reportes');
    await expectLanding(shell, '/settings/products', '/settings/products');
    await expectLanding(shell, '/settings', '/settings/products');
    await expectNav(shell, ['nav.reports', 'nav.settings']);
  });

  test('is sent from admin-only pages to /main and on to its first permitted page', async ({ page }) => {
    const shell = new AppShell(page);
    for (const path of [...ADMIN_ONLY_PAGES, '/configuracion', '/superadmin']) await expectLanding(shell, path, '/reportes');
  });
});

test.describe('cajero with narrow permissions (accredit, redeem, customers)', () => {
  test.use(as('limitedCajero'));

  test('goes to its first permitted page from pages it may not open', async ({ page }) => {
    const shell = new AppShell(page);
    for (const path of ['/main', '/reportes', '/settings/products', '/settings/categories', '/settings/users']) {
      await expectLanding(shell, path, '/accreditar');
    }
  });

  test('opens its permitted pages', async ({ page }) => {
    const shell = new AppShell(page);
    await expectLanding(shell, '/accreditar', '/accreditar');
    await expectLanding(shell, '/redimir', '/redimir');
    await expectLanding(shell, '/settings', '/settings/customers');
    await expectLanding(shell, '/clientes', '/settings/customers');
    await expectNav(shell, ['nav.accredit', 'nav.redeem', 'nav.settings']);
  });
});

for (const role of ['noPermSupervisor', 'noPermCajero'] as const) {
  test.describe(`${role === 'noPermSupervisor' ? 'supervisor' : 'cajero'} whose role has no permission`, () => {
    test.use(as(role));

    test("sees 'Acceso Denegado' with the contact-an-administrator message on every page", async ({ page }) => {
      const shell = new AppShell(page);
      for (const path of ['/main', '/accreditar', '/redimir', '/reportes', '/settings', '/settings/customers', '/settings/products', '/settings/categories']) {
        await test.step(path, async () => {
          // A typed address each time: in the app, the previous page would look the same.
          await visit(page, path, { deepLink: true });
          await expect(shell.accessDenied()).toBeVisible();
          await expect(page.getByText(t('accessDenied.noPermissions'))).toBeVisible();
          await expectPath(page, path);
        });
      }
    });

    test('has no navigation links but can still log out', async ({ page }) => {
      const shell = new AppShell(page);
      await page.goto('/main');
      await expect(shell.accessDenied()).toBeVisible();
      await expect(shell.nav().getByRole('link')).toHaveCount(0);
      await shell.logoutButton().click();
      await expectPath(page, '/login');
    });

    test('is sent from admin-only pages to /main, which it may not open either', async ({ page }) => {
      const shell = new AppShell(page);
      await page.goto('/settings/rules');
      await expectPath(page, '/main');
      await expect(shell.accessDenied()).toBeVisible();
    });
  });
}
