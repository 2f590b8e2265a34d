// The redirects of the route table (docs/screens.md, "Routes") as an admin meets them. The guards'
// unit tests and the browser tests (e2e/support/routes.ts) walk the same rows.
export const ADMIN_REDIRECTS = [
  ['/', '/main'],
  ['/settings', '/settings/rules'],
  ['/clientes', '/settings/customers'],
  ['/usuarios', '/settings/users'],
  ['/puntos-de-venta', '/settings/pos'],
  ['/configuracion', '/settings/rules'],
] as const;
