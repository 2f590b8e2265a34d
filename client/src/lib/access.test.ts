// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { makeUser } from '../test/fixtures';
import {
  decideAccess,
  firstPermittedRoute,
  firstSettingsLink,
  isPathPermitted,
  visibleNavItems,
  visibleSettingsGroups,
  type RouteAccess,
} from './access';
import { paths } from './paths';
import type { RolePermissions } from './types';

const superAdmin = makeUser('super_admin');
const admin = makeUser('admin');
const impersonatedAdmin = makeUser('admin', { username: 'admin', impersonatedBy: 'root' });
const supervisor = makeUser('supervisor');
const cajero = makeUser('cajero');

const perms = (supervisorPaths: string[], cajeroPaths: string[] = []): RolePermissions => ({
  supervisor: supervisorPaths,
  cajero: cajeroPaths,
});

const dashboard: RouteAccess = { kind: 'permission', path: paths.main };
const customers: RouteAccess = { kind: 'permission', path: paths.settingsCustomers };
const adminOnly: RouteAccess = { kind: 'adminOnly' };
const superAdminOnly: RouteAccess = { kind: 'superAdmin' };
const settingsIndex: RouteAccess = { kind: 'settingsIndex' };
const companyUser: RouteAccess = { kind: 'companyUser' };

describe('permission paths', () => {
  it('covers the path itself and anything below it', () => {
    expect(isPathPermitted(['/settings/customers'], '/settings/customers')).toBe(true);
    expect(isPathPermitted(['/settings'], '/settings/customers')).toBe(true);
    expect(isPathPermitted(['/settings/customers'], '/settings/products')).toBe(false);
    expect(isPathPermitted(['/main'], '/mainx')).toBe(false);
    expect(isPathPermitted([], '/main')).toBe(false);
  });

  it('picks the first permitted route in menu order', () => {
    expect(firstPermittedRoute(['/reportes', '/redimir'])).toBe('/redimir');
    expect(firstPermittedRoute(['/settings/categories'])).toBe('/settings/categories');
    expect(firstPermittedRoute([])).toBeUndefined();
  });
});

describe('route access: super admin', () => {
  it('may open /superadmin', () => {
    expect(decideAccess(superAdminOnly, superAdmin, undefined)).toEqual({ kind: 'allow' });
  });

  it.each([dashboard, customers, adminOnly, settingsIndex, companyUser])('is sent to /superadmin from %o', (rule) => {
    expect(decideAccess(rule, superAdmin, undefined)).toEqual({ kind: 'redirect', to: '/superadmin' });
  });

  it('while impersonating acts as the company admin and is kept out of /superadmin', () => {
    expect(decideAccess(dashboard, impersonatedAdmin, undefined)).toEqual({ kind: 'allow' });
    expect(decideAccess(adminOnly, impersonatedAdmin, undefined)).toEqual({ kind: 'allow' });
    expect(decideAccess(superAdminOnly, impersonatedAdmin, undefined)).toEqual({ kind: 'redirect', to: '/main' });
  });
});

describe('route access: admin', () => {
  it('opens everything in the company without waiting for permissions', () => {
    for (const rule of [dashboard, customers, adminOnly, companyUser]) {
      expect(decideAccess(rule, admin, undefined)).toEqual({ kind: 'allow' });
    }
  });

  it('goes from /settings to the rules page', () => {
    expect(decideAccess(settingsIndex, admin, undefined)).toEqual({ kind: 'redirect', to: '/settings/rules' });
  });

  it('is sent from /superadmin to /main', () => {
    expect(decideAccess(superAdminOnly, admin, undefined)).toEqual({ kind: 'redirect', to: '/main' });
  });
});

describe.each([
  ['supervisor', supervisor, (p: string[]) => perms(p, ['/main'])],
  ['cajero', cajero, (p: string[]) => perms(['/main'], p)],
] as const)('route access: %s', (_role, user, permissionsWith) => {
  it('waits while the role permissions are not loaded', () => {
    expect(decideAccess(dashboard, user, undefined)).toEqual({ kind: 'pending' });
  });

  it('opens a permitted route', () => {
    expect(decideAccess(dashboard, user, permissionsWith(['/main']))).toEqual({ kind: 'allow' });
    expect(decideAccess(customers, user, permissionsWith(['/settings/customers']))).toEqual({ kind: 'allow' });
  });

  it('goes to the first permitted route from a route it may not open', () => {
    expect(decideAccess(dashboard, user, permissionsWith(['/reportes', '/redimir']))).toEqual({
      kind: 'redirect',
      to: '/redimir',
    });
  });

  it("sees 'Acceso Denegado' when no permission is assigned", () => {
    expect(decideAccess(dashboard, user, permissionsWith([]))).toEqual({ kind: 'denied' });
    expect(decideAccess(settingsIndex, user, permissionsWith([]))).toEqual({ kind: 'denied' });
  });

  it('is sent from admin-only pages to /main', () => {
    expect(decideAccess(adminOnly, user, permissionsWith(['/main']))).toEqual({ kind: 'redirect', to: '/main' });
  });

  it('is sent from /superadmin to /main', () => {
    expect(decideAccess(superAdminOnly, user, permissionsWith(['/main']))).toEqual({ kind: 'redirect', to: '/main' });
  });

  it('goes from /settings to its first visible settings link', () => {
    expect(decideAccess(settingsIndex, user, permissionsWith(['/settings/products', '/settings/categories']))).toEqual({
      kind: 'redirect',
      to: '/settings/categories',
    });
    expect(decideAccess(settingsIndex, user, permissionsWith(['/settings/customers', '/settings/products']))).toEqual({
      kind: 'redirect',
      to: '/settings/customers',
    });
  });

  it('goes from /settings to the first permitted route when it holds no settings permission', () => {
    expect(decideAccess(settingsIndex, user, permissionsWith(['/reportes']))).toEqual({ kind: 'redirect', to: '/reportes' });
  });

  it("uses its own role's list, not the other role's", () => {
    const other = user.role === 'supervisor' ? perms([], ['/main']) : perms(['/main'], []);
    expect(decideAccess(dashboard, user, other)).toEqual({ kind: 'denied' });
  });
});

describe('header navigation', () => {
  const ids = (items: { id: string }[]) => items.map((item) => item.id);

  it('is empty without a user', () => {
    expect(visibleNavItems(null, undefined)).toEqual([]);
  });

  it('shows only the super-admin dashboard to a super admin', () => {
    expect(ids(visibleNavItems(superAdmin, undefined))).toEqual(['superAdmin']);
  });

  it('shows everything to an admin, impersonated or not', () => {
    const all = ['dashboard', 'accredit', 'redeem', 'reports', 'alerts', 'dataRequests', 'settings', 'audit'];
    expect(ids(visibleNavItems(admin, undefined))).toEqual(all);
    expect(ids(visibleNavItems(impersonatedAdmin, undefined))).toEqual(all);
  });

  it('never shows the audit trail to a supervisor or cajero, whatever they are granted', () => {
    const every = ['/main', '/accreditar', '/redimir', '/reportes', '/settings/customers', '/settings/products', '/settings/categories', '/auditoria'];
    expect(ids(visibleNavItems(supervisor, perms(every, every)))).not.toContain('audit');
    expect(ids(visibleNavItems(cajero, perms(every, every)))).not.toContain('audit');
  });

  it('shows a cajero only what the permissions allow', () => {
    expect(ids(visibleNavItems(cajero, perms([], ['/accreditar', '/redimir'])))).toEqual(['accredit', 'redeem']);
    expect(ids(visibleNavItems(cajero, perms([], [])))).toEqual([]);
  });

  it('shows settings when any /settings permission is held', () => {
    expect(ids(visibleNavItems(supervisor, perms(['/main', '/settings/products'])))).toEqual(['dashboard', 'settings']);
  });
});

describe('settings menu', () => {
  it('gives an admin all three groups', () => {
    const groups = visibleSettingsGroups(admin, undefined);
    expect(groups.map((g) => g.id)).toEqual(['general', 'commercial', 'products']);
    expect(groups[0]!.links.map((l) => l.path)).toEqual([
      '/settings/rules',
      '/settings/permissions',
      '/settings/users',
      '/settings/pos',
      '/settings/api-keys',
      '/settings/webhooks',
      '/settings/privacy',
    ]);
  });

  it('never shows admin-only links to a supervisor, even with a broad permission', () => {
    const groups = visibleSettingsGroups(supervisor, perms(['/settings']));
    expect(groups.map((g) => g.id)).toEqual(['commercial', 'products']);
    expect(firstSettingsLink(supervisor, perms(['/settings']))).toBe('/settings/customers');
  });

  it('shows nothing to a super admin', () => {
    expect(visibleSettingsGroups(superAdmin, undefined)).toEqual([]);
  });
});
