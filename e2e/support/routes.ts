// The route table of docs/screens.md, as the specs walk it.

import { expect, test, type Page } from '@playwright/test';
import { ADMIN_REDIRECTS } from '../../client/src/test/routeTable';
import type { TKey } from './i18n';

/** The pages of the route table and the title (h1) each shows. */
export const PAGES = {
  '/main': 'dashboard.title',
  '/accreditar': 'accredit.title',
  '/redimir': 'redeem.title',
  '/reportes': 'reports.title',
  '/solicitudes-datos': 'dataRequests.title',
  '/auditoria': 'audit.title',
  '/alertas': 'alerts.title',
  '/settings/rules': 'settings.rules.title',
  '/settings/permissions': 'settings.permissions.title',
  '/settings/users': 'users.title',
  '/settings/pos': 'pos.title',
  '/settings/customers': 'customers.title',
  '/settings/products': 'products.title',
  '/settings/categories': 'categories.title',
  '/settings/webhooks': 'settings.webhooks.title',
  '/settings/api-keys': 'apiKeys.title',
  '/settings/privacy': 'privacy.settings.title',
  '/superadmin': 'superAdmin.title',
} as const satisfies Record<string, TKey>;

export type PagePath = keyof typeof PAGES;

/** Company pages (everything but /superadmin). */
export const COMPANY_PAGES = Object.keys(PAGES).filter((path) => path !== '/superadmin') as PagePath[];

export const ADMIN_ONLY_PAGES: PagePath[] = ['/settings/rules', '/settings/permissions', '/settings/users', '/settings/pos', '/auditoria', '/settings/webhooks', '/settings/api-keys', '/settings/privacy'];

/** Redirect rows of the route table, as an admin sees them. */
export const REDIRECTS: (readonly [from: string, to: PagePath])[] = [
  ...ADMIN_REDIRECTS,
  ['/no-such-page', '/main'],
  ['/accreditar/extra/segment', '/main'],
];

/** Every path a visitor can type, pages and redirects alike. */
export const ALL_PATHS: string[] = [...new Set([...Object.keys(PAGES), ...REDIRECTS.map(([from]) => from)])];

/** Waits until the browser shows `pathname` (search and hash ignored). */
export async function expectPath(page: Page, pathname: string): Promise<void> {
  await expect(page).toHaveURL((url) => url.pathname === pathname);
}

/**
 * What one full load of the app may take on a loaded 2-core machine. A test that walks a list
 * of pages is given this much more time for each page it loads, so its budget grows with the
 * route table instead of being a fixed 30 s for twenty pages.
 */
const FULL_LOAD_BUDGET_MS = 4_000;

/**
 * Opens `path` the way a visitor does: typed in the address bar (a full load, `deepLink`) or
 * followed from a link inside the running app (the History API, as the app's own links do; no
 * reload). The first visit of a page is always a full load.
 */
export async function visit(page: Page, path: string, { deepLink = false } = {}): Promise<void> {
  if (deepLink || page.url() === 'about:blank') {
    test.info().setTimeout(test.info().timeout + FULL_LOAD_BUDGET_MS);
    await page.goto(path);
    return;
  }
  await page.evaluate((to) => {
    window.history.pushState(null, '', to);
    window.dispatchEvent(new PopStateEvent('popstate', { state: null }));
  }, path);
}
