import { screen, waitFor, within } from '@testing-library/react';
import { beforeAll, describe, expect, it } from 'vitest';
import { SETTINGS_GROUPS, visibleSettingsGroups } from '../../lib/access';
import { loggedInState, makeSettings, makeUser } from '../../test/fixtures';
import { mockApi, tenantRoutes } from '../../test/mockApi';
import { renderApp, renderWithProviders } from '../../test/renderWithProviders';
import { groupOfPath, SettingsMenu } from './SettingsMenu';

// The pages load lazily; load them once up front so no test pays for it on a busy machine.
beforeAll(async () => {
  await import('.');
}, 60_000);

const admin = makeUser('admin');
const supervisor = makeUser('supervisor');
const cajero = makeUser('cajero');

const menu = () => screen.getByRole('navigation', { name: 'Menú de configuración' });
const groupButtons = () => within(menu()).getAllByRole('button').map((b) => b.textContent);
const linkNames = () => within(menu()).queryAllByRole('link').map((a) => a.textContent);
const group = (name: string) => within(menu()).getByRole('button', { name });

/** Pages the settings pages load besides the tenant data; answered empty. */
const pageRoutes = {
  'GET /api/users': { body: [] },
  'GET /api/products/all': { body: [] },
  'GET /api/products': { body: [] },
  'GET /api/customers/search': { body: { items: [], total: 0, page: 1, pageSize: 10 } },
};

describe('settings menu visibility', () => {
  it('shows an admin every group and link, in menu order', () => {
    renderWithProviders(<SettingsMenu groups={visibleSettingsGroups(admin, undefined)} />, { route: '/settings/users' });
    expect(groupButtons()).toEqual(['General', 'Comercial', 'Productos']);
    // Only the group of the current page is open.
    expect(linkNames()).toEqual(['Reglas del programa', 'Permisos', 'Usuarios', 'Puntos de venta', 'Claves de API', 'Webhooks', 'Aviso de privacidad']);
  });

  it('shows a link when its path starts with a permitted path, and hides admin-only links', () => {
    const rolePermissions = { supervisor: ['/main', '/settings/categories'], cajero: [] };
    const groups = visibleSettingsGroups(supervisor, rolePermissions);
    expect(groups.map((g) => g.id)).toEqual(['products']);
    expect(groups[0]!.links.map((l) => l.path)).toEqual(['/settings/categories']);
  });

  it("uses the user's own role's permissions", () => {
    const rolePermissions = { supervisor: ['/settings/products'], cajero: ['/settings/customers'] };
    expect(visibleSettingsGroups(cajero, rolePermissions).flatMap((g) => g.links.map((l) => l.path))).toEqual([
      '/settings/customers',
    ]);
    expect(visibleSettingsGroups(supervisor, rolePermissions).flatMap((g) => g.links.map((l) => l.path))).toEqual([
      '/settings/products',
    ]);
  });

  it('knows which group holds a page', () => {
    expect(groupOfPath(SETTINGS_GROUPS, '/settings/pos')).toBe('general');
    expect(groupOfPath(SETTINGS_GROUPS, '/settings/customers')).toBe('commercial');
    expect(groupOfPath(SETTINGS_GROUPS, '/settings/products')).toBe('products');
    expect(groupOfPath(SETTINGS_GROUPS, '/settings')).toBeUndefined();
  });
});

describe('settings menu groups', () => {
  it('opens the group of the current path and collapses or expands groups on click', async () => {
    const { user } = renderWithProviders(<SettingsMenu groups={visibleSettingsGroups(admin, undefined)} />, {
      route: '/settings/products',
    });
    expect(group('Productos')).toHaveAttribute('aria-expanded', 'true');
    expect(group('General')).toHaveAttribute('aria-expanded', 'false');
    expect(linkNames()).toEqual(['Categorías', 'Productos']);

    await user.click(group('General'));
    expect(group('General')).toHaveAttribute('aria-expanded', 'true');
    expect(linkNames()).toContain('Usuarios');

    await user.click(group('Productos'));
    expect(group('Productos')).toHaveAttribute('aria-expanded', 'false');
    expect(linkNames()).not.toContain('Categorías');
  });

  it('opens the new page’s group when the page changes', async () => {
    mockApi({ ...tenantRoutes(makeSettings()), ...pageRoutes });
    const { user } = renderApp('/settings/rules', { preloadedState: loggedInState(admin) });
    expect(await screen.findByRole('heading', { level: 1, name: 'Reglas del programa' })).toBeInTheDocument();
    await user.click(group('Comercial'));
    await user.click(within(menu()).getByRole('link', { name: 'Clientes' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'Clientes' })).toBeInTheDocument();
    expect(group('Comercial')).toHaveAttribute('aria-expanded', 'true');
    expect(within(menu()).getByRole('link', { name: 'Clientes' })).toHaveAttribute('aria-current', 'page');
  });
});

describe('settings shell', () => {
  it('sends /settings to the first link a supervisor may see, and shows only the granted links', async () => {
    mockApi({
      ...tenantRoutes(makeSettings({ supervisor: ['/main', '/settings/products', '/settings/customers'], cajero: [] })),
      ...pageRoutes,
    });
    const { user } = renderApp('/settings', { preloadedState: loggedInState(supervisor) });
    await waitFor(() => expect(screen.getByTestId('location').textContent).toBe('/settings/customers'));
    expect(groupButtons()).toEqual(['Comercial', 'Productos']);
    await user.click(group('Productos'));
    expect(linkNames()).toEqual(['Clientes', 'Productos']);
  });

  it('sends an admin from /settings to the rules page', async () => {
    mockApi({ ...tenantRoutes(makeSettings()), ...pageRoutes });
    renderApp('/settings', { preloadedState: loggedInState(admin) });
    await waitFor(() => expect(screen.getByTestId('location').textContent).toBe('/settings/rules'));
    expect(within(menu()).getByRole('link', { name: 'Reglas del programa' })).toHaveAttribute('aria-current', 'page');
  });
});
