import { screen, waitFor, within } from '@testing-library/react';
import { beforeAll, describe, expect, it } from 'vitest';
import type { ApiKey } from '../../../lib/types';
import { loggedInState, makeSettings, makeUser } from '../../../test/fixtures';
import { mockApi, tenantRoutes } from '../../../test/mockApi';
import { renderApp } from '../../../test/renderWithProviders';

// The pages load lazily; load them once up front so no test pays for it on a busy machine.
beforeAll(async () => {
  await import('..');
}, 60_000);

const KEY = 'lk_demo_Q3vX8kLw2mZp9RtYb4NcJf7HsD1aGe6UiO0qWnTyVxE';

function keysServer() {
  let keys: ApiKey[] = [
    {
      id: 1,
      name: 'POS Norte',
      posId: 3,
      posName: 'Caja principal',
      posActive: true,
      hint: 'AbCd',
      createdAt: '2026-11-20T15:00:00Z',
      createdBy: 'admin',
      lastUsedAt: null,
    },
  ];
  return mockApi({
    ...tenantRoutes(makeSettings()),
    'GET /api/api-keys': () => ({ body: keys }),
    'POST /api/api-keys': ({ body }) => {
      const { name, posId } = body as { name: string; posId: number };
      if (keys.some((k) => k.name.toLowerCase() === name.toLowerCase())) {
        return { status: 409, body: { message: 'an API key with this name already exists', code: 'apiKey.exists' } };
      }
      keys = [...keys, { ...keys[0]!, id: 2, name, posId, hint: KEY.slice(-4) }];
      return { status: 201, body: { id: 2, key: KEY } };
    },
    'DELETE /api/api-keys/1': () => {
      keys = keys.filter((k) => k.id !== 1);
      return { status: 204 };
    },
  });
}

const open = async (role: 'admin' | 'supervisor' = 'admin') => {
  const rendered = renderApp('/settings/api-keys', { preloadedState: loggedInState(makeUser(role)) });
  if (role === 'admin') await screen.findByRole('heading', { name: 'Claves de API', level: 1 });
  return rendered;
};
const list = () => screen.getByRole('region', { name: 'Claves activas' });
const form = () => screen.getByRole('region', { name: 'Nueva clave' });

describe('API keys screen', () => {
  it('lists the keys with their point of sale, never-used and a revoke button each', async () => {
    keysServer();
    await open();
    const row = await within(list()).findByRole('row', { name: /POS Norte/ });
    expect(row).toHaveTextContent('Caja principal');
    expect(row).toHaveTextContent('…AbCd');
    expect(row).toHaveTextContent('Nunca');
    expect(within(row).getByRole('button', { name: 'Revocar la clave POS Norte' })).toBeInTheDocument();
  });

  it('requires a name and a point of sale, then shows the new key once with a copy button', async () => {
    const server = keysServer();
    const { user } = await open();
    await within(list()).findByRole('row', { name: /POS Norte/ });
    const create = within(form()).getByRole('button', { name: 'Crear clave' });
    await user.click(create);
    expect(within(form()).getByRole('alert')).toHaveTextContent('El nombre de la clave es obligatorio.');
    await user.type(within(form()).getByLabelText(/Nombre/), 'POS Sur');
    await user.click(create);
    expect(within(form()).getByRole('alert')).toHaveTextContent('Elija el punto de venta de la clave.');
    await user.selectOptions(within(form()).getByLabelText(/Punto de venta/), '3');
    await user.click(create);

    const dialog = await screen.findByRole('dialog', { name: 'Clave creada' });
    expect(within(dialog).getByLabelText('Clave')).toHaveValue(KEY);
    expect(dialog).toHaveTextContent('no se volverá a mostrar');
    await user.click(within(dialog).getByRole('button', { name: 'Copiar clave' }));
    // user-event stands in for the clipboard.
    expect(await navigator.clipboard.readText()).toBe(KEY);
    expect(await within(dialog).findByRole('status')).toHaveTextContent('Clave copiada al portapapeles.');
    expect(server.requests.find((r) => r.method === 'POST')?.body).toEqual({ name: 'POS Sur', posId: 3 });

    await user.click(within(dialog).getByRole('button', { name: 'Listo' }));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(await within(list()).findByRole('row', { name: /POS Sur/ })).toBeInTheDocument();
    expect(screen.queryByDisplayValue(KEY)).not.toBeInTheDocument();
  });

  it('shows a duplicate name under the form', async () => {
    keysServer();
    const { user } = await open();
    await within(list()).findByRole('row', { name: /POS Norte/ });
    await user.type(within(form()).getByLabelText(/Nombre/), 'pos norte');
    await user.selectOptions(within(form()).getByLabelText(/Punto de venta/), '3');
    await user.click(within(form()).getByRole('button', { name: 'Crear clave' }));
    expect(await within(form()).findByRole('alert')).toHaveTextContent('Ya existe una clave de API con este nombre.');
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });

  it('revokes a key only after confirming', async () => {
    const server = keysServer();
    const { user } = await open();
    const row = await within(list()).findByRole('row', { name: /POS Norte/ });
    await user.click(within(row).getByRole('button', { name: 'Revocar la clave POS Norte' }));
    const dialog = await screen.findByRole('alertdialog', { name: 'Revocar clave de API' });
    await user.click(within(dialog).getByRole('button', { name: 'Cancelar' }));
    expect(server.requests.some((r) => r.method === 'DELETE')).toBe(false);

    await user.click(within(row).getByRole('button', { name: 'Revocar la clave POS Norte' }));
    const again = await screen.findByRole('alertdialog', { name: 'Revocar clave de API' });
    expect(again).toHaveTextContent('«POS Norte»');
    await user.click(within(again).getByRole('button', { name: 'Revocar' }));
    expect(await screen.findByText('Clave «POS Norte» revocada.')).toBeInTheDocument();
    await waitFor(() => expect(screen.getByText('Aún no hay claves de API.')).toBeInTheDocument());
    expect(server.requests.some((r) => r.method === 'DELETE' && r.path === '/api/api-keys/1')).toBe(true);
  });

  it('is for admins only', async () => {
    keysServer();
    await open('supervisor');
    expect(await screen.findByRole('heading', { name: /acceso/i })).toBeInTheDocument();
    expect(screen.queryByRole('heading', { name: 'Claves de API' })).not.toBeInTheDocument();
  });
});
