import { screen, within } from '@testing-library/react';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Settings } from '../../../lib/types';
import { loggedInState, makeSettings, makeUser } from '../../../test/fixtures';
import { mockApi, tenantRoutes } from '../../../test/mockApi';
import { renderApp } from '../../../test/renderWithProviders';
import { normalizePermissions, togglePermission } from './permissionGrid';

// The pages load lazily; load them once up front so no test pays for it on a busy machine.
beforeAll(async () => {
  await import('..');
}, 60_000);

describe('permission grid rules', () => {
  it('keeps only grantable paths, in menu order, once each', () => {
    expect(
      normalizePermissions({ supervisor: ['/reportes', '/settings', '/main', '/main'], cajero: ['/redimir'] }),
    ).toEqual({ supervisor: ['/main', '/reportes'], cajero: ['/redimir'] });
  });

  it('toggles one path for one role', () => {
    const start = { supervisor: ['/main'], cajero: [] };
    expect(togglePermission(start, 'cajero', '/settings/products')).toEqual({ supervisor: ['/main'], cajero: ['/settings/products'] });
    expect(togglePermission(start, 'supervisor', '/main')).toEqual({ supervisor: [], cajero: [] });
  });
});

describe('permissions screen', () => {
  it('shows the 9 grantable paths (alerts for supervisors only) and saves them with the settings', async () => {
    let saved: Partial<Settings> | undefined;
    const settings = makeSettings({ supervisor: ['/main', '/settings/customers'], cajero: ['/accreditar'] });
    const { requests } = mockApi({
      ...tenantRoutes(settings),
      'POST /api/settings': ({ body }) => {
        saved = body as Partial<Settings>;
        return { body: { ...settings, ...saved } };
      },
    });
    const { user } = renderApp('/settings/permissions', { preloadedState: loggedInState(makeUser('admin')) });
    expect(await screen.findByRole('heading', { level: 1, name: 'Permisos por rol' })).toBeInTheDocument();
    const table = await screen.findByRole('table', { name: 'Pantallas permitidas por rol' });
    expect(within(table).getAllByRole('checkbox')).toHaveLength(17);
    expect(within(table).getAllByRole('rowheader').map((h) => h.querySelector('.permissions-path')?.textContent)).toEqual([
      '/main',
      '/accreditar',
      '/redimir',
      '/reportes',
      '/settings/customers',
      '/settings/products',
      '/settings/categories',
      '/solicitudes-datos',
      '/alertas',
    ]);
    expect(within(table).queryByRole('checkbox', { name: 'Cajero: Alertas' })).not.toBeInTheDocument();
    expect(within(table).getByRole('checkbox', { name: 'Supervisor: Alertas' })).not.toBeChecked();
    const box = (role: string, screenName: string) => within(table).getByRole('checkbox', { name: `${role}: ${screenName}` });
    expect(box('Supervisor', 'Clientes')).toBeChecked();
    expect(box('Supervisor', 'Productos')).not.toBeChecked();
    expect(box('Cajero', 'Acreditar puntos')).toBeChecked();

    await user.click(box('Supervisor', 'Productos'));
    await user.click(box('Supervisor', 'Clientes'));
    await user.click(box('Cajero', 'Redimir puntos'));
    await user.click(screen.getByRole('button', { name: 'Guardar permisos' }));

    expect(await screen.findByTestId('settings-saved')).toHaveTextContent('Configuración guardada.');
    expect(saved).toEqual({
      rolePermissions: { supervisor: ['/main', '/settings/products'], cajero: ['/accreditar', '/redimir'] },
    });
    expect(requests.filter((r) => r.method === 'POST')).toHaveLength(1);
  }, 30_000);

  it('shows the server message when saving fails', async () => {
    mockApi({
      ...tenantRoutes(makeSettings()),
      'POST /api/settings': { status: 400, body: { message: 'rolePermissions.cajero may hold only: /main' } },
    });
    const { user } = renderApp('/settings/permissions', { preloadedState: loggedInState(makeUser('admin')) });
    await user.click(await screen.findByRole('button', { name: 'Guardar permisos' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('rolePermissions.cajero may hold only: /main');
  });
});
