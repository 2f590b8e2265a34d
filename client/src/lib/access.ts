// Who may open which route and see which link (docs/screens.md, "Routes"; docs/roles.md). Pure functions: the
// route guards, the header and the settings menu all decide through these.

import type { TKey } from '../i18n/keys';
import { GRANTABLE_PATHS, paths, type AppPath } from './paths';
import type { RolePermissions, User } from './types';

/** What a route requires beyond a logged-in session. */
export type RouteAccess =
  /** Only a super admin who is not impersonating (/superadmin). */
  | { kind: 'superAdmin' }
  /** Any company user (a super admin not impersonating is sent to /superadmin). */
  | { kind: 'companyUser' }
  /** Admin only (rules, permissions, users, pos settings). */
  | { kind: 'adminOnly' }
  /** Admin, or supervisor/cajero holding a permission covering `path`. */
  | { kind: 'permission'; path: AppPath }
  /** /settings itself: goes to the first settings link the user may see. */
  | { kind: 'settingsIndex' };

export type AccessDecision =
  | { kind: 'allow' }
  | { kind: 'redirect'; to: AppPath }
  | { kind: 'denied' }
  /** The role permissions are not loaded yet. */
  | { kind: 'pending' };

/** True when `path` is covered by one of the permission paths (same path or below it). */
export function isPathPermitted(permissions: readonly string[], path: string): boolean {
  return permissions.some((permitted) => {
    if (!permitted.startsWith('/')) return false;
    const base = permitted.length > 1 && permitted.endsWith('/') ? permitted.slice(0, -1) : permitted;
    return path === base || path.startsWith(`${base}/`);
  });
}

/** The permission list of a supervisor or cajero; undefined for other roles. */
export function permissionsFor(user: User, rolePermissions: RolePermissions | undefined): string[] | undefined {
  if (user.role !== 'supervisor' && user.role !== 'cajero') return undefined;
  return rolePermissions?.[user.role] ?? undefined;
}

/** Whether the route guards need GET /api/settings for this user. */
export function needsRolePermissions(user: User): boolean {
  return user.role === 'supervisor' || user.role === 'cajero';
}

export function firstPermittedRoute(permissions: readonly string[]): AppPath | undefined {
  return GRANTABLE_PATHS.find((path) => isPathPermitted(permissions, path));
}

export interface SettingsLink {
  path: AppPath;
  labelKey: TKey;
  adminOnly: boolean;
}

export interface SettingsGroup {
  id: 'general' | 'commercial' | 'products';
  labelKey: TKey;
  links: SettingsLink[];
}

/** The settings menu (docs/screens.md, "Routes"), in display order. */
export const SETTINGS_GROUPS: readonly SettingsGroup[] = [
  {
    id: 'general',
    labelKey: 'settings.groups.general',
    links: [
      { path: paths.settingsRules, labelKey: 'settings.nav.rules', adminOnly: true },
      { path: paths.settingsPermissions, labelKey: 'settings.nav.permissions', adminOnly: true },
      { path: paths.settingsUsers, labelKey: 'settings.nav.users', adminOnly: true },
      { path: paths.settingsPos, labelKey: 'settings.nav.pos', adminOnly: true },
      { path: paths.settingsApiKeys, labelKey: 'settings.nav.apiKeys', adminOnly: true },
      { path: paths.settingsWebhooks, labelKey: 'settings.nav.webhooks', adminOnly: true },
      { path: paths.settingsPrivacy, labelKey: 'settings.nav.privacy', adminOnly: true },
    ],
  },
  {
    id: 'commercial',
    labelKey: 'settings.groups.commercial',
    links: [{ path: paths.settingsCustomers, labelKey: 'settings.nav.customers', adminOnly: false }],
  },
  {
    id: 'products',
    labelKey: 'settings.groups.products',
    links: [
      { path: paths.settingsCategories, labelKey: 'settings.nav.categories', adminOnly: false },
      { path: paths.settingsProducts, labelKey: 'settings.nav.products', adminOnly: false },
    ],
  },
];

/** Settings groups with only the links the user may see; empty groups are left out. */
export function visibleSettingsGroups(user: User, rolePermissions: RolePermissions | undefined): SettingsGroup[] {
  if (user.role === 'super_admin') return [];
  const isAdmin = user.role === 'admin';
  const permissions = permissionsFor(user, rolePermissions) ?? [];
  return SETTINGS_GROUPS.map((group) => ({
    ...group,
    links: group.links.filter((link) =>
      isAdmin ? true : !link.adminOnly && isPathPermitted(permissions, link.path),
    ),
  })).filter((group) => group.links.length > 0);
}

export function firstSettingsLink(user: User, rolePermissions: RolePermissions | undefined): AppPath | undefined {
  return visibleSettingsGroups(user, rolePermissions)[0]?.links[0]?.path;
}

export interface NavItem {
  id: 'dashboard' | 'accredit' | 'redeem' | 'reports' | 'alerts' | 'dataRequests' | 'settings' | 'audit' | 'superAdmin';
  path: AppPath;
  labelKey: TKey;
}

const TENANT_NAV: readonly NavItem[] = [
  { id: 'dashboard', path: paths.main, labelKey: 'nav.dashboard' },
  { id: 'accredit', path: paths.accredit, labelKey: 'nav.accredit' },
  { id: 'redeem', path: paths.redeem, labelKey: 'nav.redeem' },
  { id: 'reports', path: paths.reports, labelKey: 'nav.reports' },
  { id: 'alerts', path: paths.alerts, labelKey: 'nav.alerts' },
  { id: 'dataRequests', path: paths.dataRequests, labelKey: 'nav.dataRequests' },
  { id: 'settings', path: paths.settings, labelKey: 'nav.settings' },
  // Admins only, never grantable (docs/roles.md).
  { id: 'audit', path: paths.audit, labelKey: 'nav.audit' },
];

const SUPER_ADMIN_NAV: readonly NavItem[] = [
  { id: 'superAdmin', path: paths.superAdmin, labelKey: 'nav.superAdmin' },
];

/** Whether the user may open the alerts screen: admins, and supervisors granted it (never cajeros). */
export function maySeeAlerts(user: User | null, rolePermissions: RolePermissions | undefined): boolean {
  if (!user) return false;
  if (user.role === 'admin') return true;
  return user.role === 'supervisor' && isPathPermitted(permissionsFor(user, rolePermissions) ?? [], paths.alerts);
}

/** Header navigation filtered by role and permissions. */
export function visibleNavItems(user: User | null, rolePermissions: RolePermissions | undefined): NavItem[] {
  if (!user) return [];
  if (user.role === 'super_admin') return [...SUPER_ADMIN_NAV];
  if (user.role === 'admin') return [...TENANT_NAV];
  const permissions = permissionsFor(user, rolePermissions) ?? [];
  return TENANT_NAV.filter((item) =>
    item.id === 'audit'
      ? false
      : item.id === 'alerts'
      ? maySeeAlerts(user, rolePermissions)
      : item.id === 'settings'
      ? permissions.some((p) => p.startsWith(paths.settings))
      : isPathPermitted(permissions, item.path),
  );
}

/**
 * Decides what happens when `user` opens a route with the given access rule.
 * A super admin who is not impersonating has role super_admin; while impersonating the session
 * user is the company's admin, so the rules below need no separate impersonation case.
 */
export function decideAccess(
  rule: RouteAccess,
  user: User,
  rolePermissions: RolePermissions | undefined,
): AccessDecision {
  if (user.role === 'super_admin') {
    return rule.kind === 'superAdmin' ? { kind: 'allow' } : { kind: 'redirect', to: paths.superAdmin };
  }
  if (rule.kind === 'superAdmin') return { kind: 'redirect', to: paths.main };

  if (user.role === 'admin') {
    if (rule.kind === 'settingsIndex') {
      const first = firstSettingsLink(user, rolePermissions);
      return first ? { kind: 'redirect', to: first } : { kind: 'redirect', to: paths.main };
    }
    return { kind: 'allow' };
  }

  if (rule.kind === 'companyUser') return { kind: 'allow' };
  if (rule.kind === 'adminOnly') return { kind: 'redirect', to: paths.main };

  if (!needsRolePermissions(user)) return { kind: 'denied' };
  if (!rolePermissions) return { kind: 'pending' };
  const permissions = permissionsFor(user, rolePermissions) ?? [];

  if (rule.kind === 'settingsIndex') {
    const first = firstSettingsLink(user, rolePermissions);
    if (first) return { kind: 'redirect', to: first };
  } else if (isPathPermitted(permissions, rule.path)) {
    return { kind: 'allow' };
  }

  const fallback = firstPermittedRoute(permissions);
  return fallback ? { kind: 'redirect', to: fallback } : { kind: 'denied' };
}
