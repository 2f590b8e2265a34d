// The typed route table (docs/screens.md, "Routes"). Pages load lazily so heavy screens stay out of the
// first bundle.

import { lazy, type ComponentType } from 'react';
import { withLaterTexts } from '../i18n';
import type { RouteAccess } from '../lib/access';
import { paths, type AppPath } from '../lib/paths';

const DashboardPage = lazy(() => import('../features/dashboard/DashboardPage').then((m) => ({ default: m.DashboardPage })));
const AccreditPage = lazy(() => import('../features/points/AccreditPage').then((m) => ({ default: m.AccreditPage })));
const RedeemPage = lazy(() => import('../features/points/RedeemPage').then((m) => ({ default: m.RedeemPage })));
const ReportsPage = lazy(() => import('../features/reports/ReportsPage').then((m) => ({ default: m.ReportsPage })));
const DataRequestsPage = lazy(() =>
  import('../features/dataRequests/DataRequestsPage').then((m) => ({ default: m.DataRequestsPage })),
);
// Audit, the operator's screen and settings use the later part of the texts (src/i18n/parts.ts).
const AuditPage = lazy(() => withLaterTexts(import('../features/audit/AuditPage')).then((m) => ({ default: m.AuditPage })));
const AlertsPage = lazy(() => import('../features/alerts/AlertsPage').then((m) => ({ default: m.AlertsPage })));
const SuperAdminPage = lazy(() =>
  withLaterTexts(import('../features/superadmin/SuperAdminPage')).then((m) => ({ default: m.SuperAdminPage })),
);

const settingsModule = () => withLaterTexts(import('../features/settings'));
const SettingsLayout = lazy(() => settingsModule().then((m) => ({ default: m.SettingsLayout })));
const RulesPage = lazy(() => settingsModule().then((m) => ({ default: m.RulesPage })));
const PermissionsPage = lazy(() => settingsModule().then((m) => ({ default: m.PermissionsPage })));
const UsersPage = lazy(() => settingsModule().then((m) => ({ default: m.UsersPage })));
const PosPage = lazy(() => settingsModule().then((m) => ({ default: m.PosPage })));
const ApiKeysPage = lazy(() => settingsModule().then((m) => ({ default: m.ApiKeysPage })));
const CustomersPage = lazy(() => settingsModule().then((m) => ({ default: m.CustomersPage })));
const CustomerDataPage = lazy(() => settingsModule().then((m) => ({ default: m.CustomerDataPage })));
const ProductsPage = lazy(() => settingsModule().then((m) => ({ default: m.ProductsPage })));
const CategoriesPage = lazy(() => settingsModule().then((m) => ({ default: m.CategoriesPage })));
const WebhooksPage = lazy(() => settingsModule().then((m) => ({ default: m.WebhooksPage })));
const PrivacySettingsPage = lazy(() =>
  import('../features/privacy/PrivacySettingsPage').then((m) => ({ default: m.PrivacySettingsPage })),
);
/** Public, outside the logged-in layout. */
export const PublicNoticePage = lazy(() =>
  import('../features/privacy/PublicNoticePage').then((m) => ({ default: m.PublicNoticePage })),
);

export interface PageRoute {
  path: AppPath;
  access: RouteAccess;
  Page: ComponentType;
}

export interface RedirectRoute {
  path: AppPath;
  to: AppPath;
}

/** Redirects of the route table (any other unknown path also goes to /main). */
export const redirectRoutes: readonly RedirectRoute[] = [
  { path: paths.root, to: paths.main },
  { path: paths.legacyCustomers, to: paths.settingsCustomers },
  { path: paths.legacyUsers, to: paths.settingsUsers },
  { path: paths.legacyPos, to: paths.settingsPos },
  { path: paths.legacyConfiguration, to: paths.settingsRules },
];

export const UNKNOWN_PATH_TARGET: AppPath = paths.main;

/** Top-level pages of the logged-in layout. */
export const pageRoutes: readonly PageRoute[] = [
  { path: paths.main, access: { kind: 'permission', path: paths.main }, Page: DashboardPage },
  { path: paths.accredit, access: { kind: 'permission', path: paths.accredit }, Page: AccreditPage },
  { path: paths.redeem, access: { kind: 'permission', path: paths.redeem }, Page: RedeemPage },
  { path: paths.reports, access: { kind: 'permission', path: paths.reports }, Page: ReportsPage },
  { path: paths.dataRequests, access: { kind: 'permission', path: paths.dataRequests }, Page: DataRequestsPage },
  { path: paths.audit, access: { kind: 'adminOnly' }, Page: AuditPage },
  { path: paths.alerts, access: { kind: 'permission', path: paths.alerts }, Page: AlertsPage },
  { path: paths.superAdmin, access: { kind: 'superAdmin' }, Page: SuperAdminPage },
];

/** /settings: its shell, the index redirect, and its children. */
export const settingsRoute: {
  path: AppPath;
  access: RouteAccess;
  Layout: ComponentType;
  indexAccess: RouteAccess;
  children: readonly PageRoute[];
} = {
  path: paths.settings,
  access: { kind: 'companyUser' },
  Layout: SettingsLayout,
  indexAccess: { kind: 'settingsIndex' },
  children: [
    { path: paths.settingsRules, access: { kind: 'adminOnly' }, Page: RulesPage },
    { path: paths.settingsPermissions, access: { kind: 'adminOnly' }, Page: PermissionsPage },
    { path: paths.settingsUsers, access: { kind: 'adminOnly' }, Page: UsersPage },
    { path: paths.settingsPos, access: { kind: 'adminOnly' }, Page: PosPage },
    { path: paths.settingsApiKeys, access: { kind: 'adminOnly' }, Page: ApiKeysPage },
    { path: paths.settingsWebhooks, access: { kind: 'adminOnly' }, Page: WebhooksPage },
    { path: paths.settingsCustomers, access: { kind: 'permission', path: paths.settingsCustomers }, Page: CustomersPage },
    { path: paths.settingsCustomerData, access: { kind: 'adminOnly' }, Page: CustomerDataPage },
    { path: paths.settingsProducts, access: { kind: 'permission', path: paths.settingsProducts }, Page: ProductsPage },
    { path: paths.settingsCategories, access: { kind: 'permission', path: paths.settingsCategories }, Page: CategoriesPage },
    { path: paths.settingsPrivacy, access: { kind: 'adminOnly' }, Page: PrivacySettingsPage },
  ],
};
