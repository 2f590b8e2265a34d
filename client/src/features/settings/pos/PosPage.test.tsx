import { screen, waitFor, within } from '@testing-library/react';
import { beforeAll, describe, expect, it } from 'vitest';
import type { PointOfSale } from '../../../lib/types';
import { makeSettings } from '../../../test/fixtures';
import { openListScreen } from '../../../test/listScreen';
import { mockApi, tenantRoutes } from '../../../test/mockApi';

// The pages load lazily; load them once up front so no test pays for it on a busy machine.
beforeAll(async () => {
  await import('..');
}, 60_000);

function posServer(usage: { users: number; transactions: number } = { users: 0, transactions: 0 }) {
  let pointsOfSale: PointOfSale[] = [
    { id: 3, name: 'Sur' },
    { id: 1, name: 'Norte' },
  ];
  return mockApi({
    ...tenantRoutes(makeSettings()),
    'GET /api/pos': () => ({ body: pointsOfSale }),
    'POST /api/pos': ({ body }) => {
      const { name } = body as { name: string };
      if (pointsOfSale.some((p) => p.name === name)) return { status: 409, body: { message: 'point of sale already exists' } };
      pointsOfSale = [...pointsOfSale, { id: 9, name }];
      return { status: 201, body: { id: 9, name } };
    },
    'PUT /api/pos/3': ({ body }) => {
      pointsOfSale = pointsOfSale.map((p) => (p.id === 3 ? { ...p, ...(body as object) } : p));
      return { body: pointsOfSale.find((p) => p.id === 3) };
    },
    'GET /api/pos/3/usage': { body: usage },
    'DELETE /api/pos/3': () => {
      pointsOfSale = pointsOfSale.filter((p) => p.id !== 3);
      return { body: { message: 'deleted', deleted: usage.users + usage.transactions > 0 ? 'soft' : 'hard' } };
    },
  });
}

const list = () => screen.getByRole('region', { name: 'Puntos de venta' });
const addForm = () => screen.getByRole('region', { name: 'Nuevo punto de venta' });
const rows = () => within(list()).queryAllByRole('listitem').map((li) => li.textContent);

const openPos = () => openListScreen('/settings/pos', 'Puntos de venta', 'Norte');

describe('points of sale screen', () => {
  it('lists points of sale by name with their id', async () => {
    posServer();
    await openPos();
    expect(rows()).toEqual(['NorteID 1', 'SurID 3']);
  });

  it('requires a name, adds, and reports a duplicate', async () => {
    const server = posServer();
    const { user } = await openPos();
    const add = within(addForm()).getByRole('button', { name: 'Agregar punto de venta' });
    await user.click(add);
    expect(within(addForm()).getByRole('alert')).toHaveTextContent('El nombre es obligatorio.');
    await user.type(within(addForm()).getByLabelText(/Nombre/), 'Centro');
    await user.click(add);
    expect(await screen.findByText('Punto de venta agregado.')).toBeInTheDocument();
    expect(server.requests.find((r) => r.method === 'POST')?.body).toEqual({ name: 'Centro' });
    await waitFor(() => expect(rows()).toEqual(['CentroID 9', 'NorteID 1', 'SurID 3']));
    await user.type(within(addForm()).getByLabelText(/Nombre/), 'Norte');
    await user.click(add);
    expect(await within(addForm()).findByRole('alert')).toHaveTextContent('El punto de venta ya existe.');
  });

  it('renames a point of sale', async () => {
    posServer();
    const { user } = await openPos();
    await user.click(within(list()).getByRole('button', { name: 'Editar Sur' }));
    const dialog = screen.getByRole('dialog', { name: 'Editar punto de venta' });
    await user.clear(within(dialog).getByLabelText(/Nombre/));
    await user.type(within(dialog).getByLabelText(/Nombre/), 'Sur 2');
    await user.click(within(dialog).getByRole('button', { name: 'Actualizar' }));
    expect(await screen.findByText('Punto de venta actualizado.')).toBeInTheDocument();
    await waitFor(() => expect(rows()).toContain('Sur 2ID 3'));
  });

  it('warns that a point of sale with users is only deactivated', async () => {
    posServer({ users: 2, transactions: 0 });
    const { user } = await openPos();
    await user.click(within(list()).getByRole('button', { name: 'Eliminar Sur' }));
    const dialog = screen.getByRole('alertdialog');
    await waitFor(() => expect(within(dialog).getByTestId('delete-text')).toHaveTextContent('tiene usuarios o transacciones'));
    await user.click(within(dialog).getByRole('button', { name: 'Eliminar' }));
    expect(await screen.findByText('Punto de venta eliminado.')).toBeInTheDocument();
    await waitFor(() => expect(rows()).toEqual(['NorteID 1']));
  });

  it('says the delete is permanent when nothing refers to it', async () => {
    posServer();
    const { user } = await openPos();
    await user.click(within(list()).getByRole('button', { name: 'Eliminar Sur' }));
    await waitFor(() =>
      expect(within(screen.getByRole('alertdialog')).getByTestId('delete-text')).toHaveTextContent(
        'Se eliminará el punto de venta «Sur» de forma permanente.',
      ),
    );
  });
});
