import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { loggedInState, makeCompanies, makeSettings, makeUser } from '../test/fixtures';
import { mockApi, tenantRoutes } from '../test/mockApi';
import { renderApp } from '../test/renderWithProviders';
import { ADMIN_REDIRECTS } from '../test/routeTable';

const superAdmin = makeUser('super_admin');
const admin = makeUser('admin');
const supervisor = makeUser('supervisor');
const cajero = makeUser('cajero');

const location = () => screen.getByTestId('location').textContent;

async function expectLocation(path: string) {
  await waitFor(() => expect(location()).toBe(path));
}

async function expectHeading(name: string) {
  expect(await screen.findByRole('heading', { level: 1, name })).toBeInTheDocument();
}

describe('logged out', () => {
  it.each(['/main', '/settings/users', '/reportes?x=1', '/superadmin'])('is sent from %s to /login', async (path) => {
    renderApp(path);
    await expectLocation('/login');
    expect(screen.getByRole('heading', { name: 'Iniciar sesión' })).toBeInTheDocument();
  });

  it('unknown paths go to /main, then to /login', async () => {
    renderApp('/no/such/page');
    await expectLocation('/login');
  });
});

describe('super admin', () => {
  it.each(['/main', '/accreditar', '/settings', '/settings/rules', '/clientes', '/anything'])(
    'is confined to /superadmin (from %s)',
    async (path) => {
      mockApi({ 'GET /api/super/companies': { body: makeCompanies(1) } });
      renderApp(path, { preloadedState: loggedInState(superAdmin) });
      await expectLocation('/superadmin');
      await expectHeading('Empresas');
    },
  );

  it('may still open /login', async () => {
    renderApp('/login', { preloadedState: loggedInState(superAdmin) });
    await expectHeading('Iniciar sesión');
    expect(location()).toBe('/login');
  });

  it('while impersonating sees the company pages and not /superadmin', async () => {
    mockApi(tenantRoutes(makeSettings()));
    const impersonated = makeUser('admin', { username: 'admin', impersonatedBy: 'root' });
    renderApp('/superadmin', {
      preloadedState: loggedInState(impersonated, { original: { token: 'root-token', user: superAdmin } }),
    });
    await expectLocation('/main');
    await expectHeading('Panel');
  });
});

describe('admin', () => {
  it.each([
    ['/main', 'Panel'],
    ['/accreditar', 'Acreditar puntos'],
    ['/redimir', 'Redimir puntos'],
    ['/reportes', 'Reporte de transacciones'],
    ['/settings/rules', 'Reglas del programa'],
    ['/settings/permissions', 'Permisos por rol'],
    ['/settings/users', 'Usuarios'],
    ['/settings/pos', 'Puntos de venta'],
    ['/settings/api-keys', 'Claves de API'],
    ['/settings/customers', 'Clientes'],
    ['/settings/products', 'Productos'],
    ['/settings/categories', 'Categorías'],
  ])('opens %s', async (path, heading) => {
    mockApi(tenantRoutes(makeSettings()));
    renderApp(path, { preloadedState: loggedInState(admin) });
    await expectHeading(heading);
    expect(location()).toBe(path);
  });

  it.each([...ADMIN_REDIRECTS, ['/superadmin', '/main'], ['/does-not-exist', '/main']] as const)('is redirected from %s to %s', async (from, to) => {
    mockApi(tenantRoutes(makeSettings()));
    renderApp(from, { preloadedState: loggedInState(admin) });
    await expectLocation(to);
  });
});

describe.each([
  ['supervisor', supervisor],
  ['cajero', cajero],
] as const)('%s', (role, user) => {
  /** Opens `path` as this role when the company grants it `permitted` (and the other role /main). */
  const open = (permitted: string[], path: string) => {
    const rolePermissions =
      role === 'supervisor' ? { supervisor: permitted, cajero: ['/main'] } : { supervisor: ['/main'], cajero: permitted };
    mockApi(tenantRoutes(makeSettings(rolePermissions)));
    renderApp(path, { preloadedState: loggedInState(user) });
  };

  it('opens a permitted route', async () => {
    open(['/redimir'], '/redimir');
    await expectHeading('Redimir puntos');
  });

  it('goes to the first permitted route from a route it may not open', async () => {
    open(['/reportes', '/accreditar'], '/main');
    await expectLocation('/accreditar');
    await expectHeading('Acreditar puntos');
  });

  it('is sent from admin-only pages to /main', async () => {
    open(['/main', '/settings/customers'], '/settings/users');
    await expectLocation('/main');
    await expectHeading('Panel');
  });

  it('is sent from an admin-only page to /main and on to its first permitted route', async () => {
    open(['/reportes'], '/configuracion');
    await expectLocation('/reportes');
  });

  it("sees 'Acceso Denegado' when the role has no permission", async () => {
    open([], '/main');
    await expectHeading('Acceso Denegado');
    expect(screen.getByText(/Contacta a un administrador/)).toBeInTheDocument();
    expect(location()).toBe('/main');
  });

  it('opens a permitted settings page and goes there from /settings', async () => {
    open(['/settings/products'], '/settings');
    await expectLocation('/settings/products');
    await expectHeading('Productos');
  });

  it('is sent away from a settings page it may not open', async () => {
    open(['/settings/products'], '/settings/customers');
    await expectLocation('/settings/products');
  });

  it('is sent from /superadmin to /main', async () => {
    open(['/main'], '/superadmin');
    await expectLocation('/main');
  });
});

describe('data loading', () => {
  it('shows the loading overlay until the tenant data has loaded', async () => {
    let release: () => void = () => {};
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    mockApi({
      ...tenantRoutes(makeSettings()),
      'GET /api/settings': async () => {
        await gate;
        return { body: makeSettings() };
      },
    });
    renderApp('/main', { preloadedState: loggedInState(admin) });
    expect(await screen.findByTestId('loading-overlay')).toBeInTheDocument();
    release();
    await expectHeading('Panel');
    expect(screen.queryByTestId('loading-overlay')).not.toBeInTheDocument();
  });

  it('logs the user out when a data load fails', async () => {
    mockApi({ ...tenantRoutes(makeSettings()), 'GET /api/pos': { status: 500, body: { message: 'boom' } } });
    const { store } = renderApp('/main', { preloadedState: loggedInState(admin) });
    await expectLocation('/login');
    expect(store.getState().session.user).toBeNull();
    expect(await screen.findByText('No se pudieron cargar los datos. Inicia sesión de nuevo.')).toBeInTheDocument();
  });

  it('logs the user out when the token is refused, remembering the page', async () => {
    mockApi({ ...tenantRoutes(makeSettings()), 'GET /api/settings': { status: 401, body: { message: 'expired' } } });
    const { store } = renderApp('/reportes', { preloadedState: loggedInState(admin) });
    await expectLocation('/login');
    expect(store.getState().session.user).toBeNull();
    expect(await screen.findByText('Tu sesión terminó. Inicia sesión de nuevo.')).toBeInTheDocument();
  });
});
