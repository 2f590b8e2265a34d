// Every path of the route table (docs/screens.md, "Routes"), typed. Links and redirects use these constants only.

export const paths = {
  login: '/login',
  root: '/',
  main: '/main',
  accredit: '/accreditar',
  redeem: '/redimir',
  reports: '/reportes',
  dataRequests: '/solicitudes-datos',
  audit: '/auditoria',
  alerts: '/alertas',
  settings: '/settings',
  settingsRules: '/settings/rules',
  settingsPermissions: '/settings/permissions',
  settingsUsers: '/settings/users',
  settingsPos: '/settings/pos',
  settingsCustomers: '/settings/customers',
  /** A customer's personal data, printable (admin; `:id` is the customer's). */
  settingsCustomerData: '/settings/customers/:id/datos',
  settingsProducts: '/settings/products',
  settingsCategories: '/settings/categories',
  settingsApiKeys: '/settings/api-keys',
  settingsWebhooks: '/settings/webhooks',
  superAdmin: '/superadmin',
  legacyCustomers: '/clientes',
  legacyUsers: '/usuarios',
  legacyPos: '/puntos-de-venta',
  legacyConfiguration: '/configuracion',
  settingsPrivacy: '/settings/privacy',
  /** Public, without login: a company's privacy notice in force. */
  publicPrivacy: '/privacidad/:prefix',
} as const;

export type AppPath = (typeof paths)[keyof typeof paths];

/** The page of one customer's personal data. */
export function customerDataPath(id: number): string {
  return paths.settingsCustomerData.replace(':id', String(id));
}

/**
 * The paths an admin can grant to supervisor and cajero (docs/roles.md), in the order used to
 * pick the first permitted route.
 */
export const GRANTABLE_PATHS = [
  paths.main,
  paths.accredit,
  paths.redeem,
  paths.reports,
  paths.settingsCustomers,
  paths.settingsProducts,
  paths.settingsCategories,
  paths.dataRequests,
  paths.alerts,
] as const;

/** Grantable paths that only supervisors may hold: cajeros never see alerts (docs/roles.md). */
export const SUPERVISOR_ONLY_PATHS: readonly string[] = [paths.alerts];

export type GrantablePath = (typeof GRANTABLE_PATHS)[number];

/** Settings pages only an admin may open. */
export const ADMIN_ONLY_PATHS = [
  paths.settingsRules,
  paths.settingsPermissions,
  paths.settingsUsers,
  paths.settingsPos,
  paths.settingsApiKeys,
  paths.settingsWebhooks,
  paths.settingsPrivacy,
] as const;

export type AdminOnlyPath = (typeof ADMIN_ONLY_PATHS)[number];
