import { screen, waitFor, within } from '@testing-library/react';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Category } from '../../../lib/types';
import { makeSettings } from '../../../test/fixtures';
import { openListScreen } from '../../../test/listScreen';
import { mockApi, tenantRoutes } from '../../../test/mockApi';

// The pages load lazily; load them once up front so no test pays for it on a busy machine.
beforeAll(async () => {
  await import('..');
}, 60_000);

function categoriesServer() {
  let categories: Category[] = [
    { id: 2, name: 'Regalos', icon: 'Gift' },
    { id: 1, name: 'Antiguos', icon: 'NotAnIcon' },
  ];
  return mockApi({
    ...tenantRoutes(makeSettings()),
    'GET /api/categories': () => ({ body: categories }),
    'POST /api/categories': ({ body }) => {
      const created = { id: 7, ...(body as { name: string; icon: string }) };
      categories = [...categories, created];
      return { status: 201, body: created };
    },
    'PUT /api/categories/2': ({ body }) => {
      categories = categories.map((c) => (c.id === 2 ? { ...c, ...(body as object) } : c));
      return { body: categories.find((c) => c.id === 2) };
    },
    'GET /api/categories/2/usage': { body: { products: 3 } },
  });
}

const list = () => screen.getByRole('region', { name: 'Categorías' });
const addForm = () => screen.getByRole('region', { name: 'Nueva categoría' });
const icons = () => within(list()).getAllByRole('listitem').map((li) => li.querySelector('[data-icon]')?.getAttribute('data-icon'));

const openCategories = () => openListScreen('/settings/categories', 'Categorías', 'Regalos');

describe('categories screen', () => {
  it('lists icon, name and id, with Star for an unknown icon', async () => {
    categoriesServer();
    await openCategories();
    expect(within(list()).getAllByRole('listitem').map((li) => li.textContent)).toEqual(['AntiguosID 1', 'RegalosID 2']);
    expect(icons()).toEqual(['Star', 'Gift']);
  });

  it('requires name and icon, picks the icon in the picker and adds the category', async () => {
    const server = categoriesServer();
    const { user } = await openCategories();
    await user.type(within(addForm()).getByLabelText(/Nombre/), 'Mascotas');
    await user.click(within(addForm()).getByRole('button', { name: 'Agregar categoría' }));
    expect(within(addForm()).getByRole('alert')).toHaveTextContent('El nombre y el icono son obligatorios.');

    await user.click(within(addForm()).getByRole('button', { name: 'Elegir icono' }));
    const picker = screen.getByRole('dialog', { name: 'Elegir icono' });
    await user.type(within(picker).getByRole('searchbox'), 'heart');
    await user.click(within(picker).getByRole('button', { name: 'Corazón' }));
    await user.click(within(addForm()).getByRole('button', { name: 'Agregar categoría' }));

    expect(await screen.findByText('Categoría agregada.')).toBeInTheDocument();
    expect(server.requests.find((r) => r.method === 'POST')?.body).toEqual({ name: 'Mascotas', icon: 'Heart' });
    await waitFor(() => expect(icons()).toEqual(['Star', 'Heart', 'Gift']));
  });

  it('changes the icon from the edit dialog; Escape in the picker leaves the edit dialog open', async () => {
    const server = categoriesServer();
    const { user } = await openCategories();
    await user.click(within(list()).getByRole('button', { name: 'Editar Regalos' }));
    const edit = screen.getByRole('dialog', { name: 'Editar categoría' });
    await user.click(within(edit).getByRole('button', { name: 'Cambiar icono' }));
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('dialog', { name: 'Elegir icono' })).not.toBeInTheDocument();
    expect(screen.getByRole('dialog', { name: 'Editar categoría' })).toBeInTheDocument();

    await user.click(within(edit).getByRole('button', { name: 'Cambiar icono' }));
    await user.click(within(screen.getByRole('dialog', { name: 'Elegir icono' })).getByRole('button', { name: 'Pastel' }));
    await user.click(within(edit).getByRole('button', { name: 'Actualizar' }));
    expect(await screen.findByText('Categoría actualizada.')).toBeInTheDocument();
    expect(server.requests.find((r) => r.method === 'PUT')?.body).toEqual({ name: 'Regalos', icon: 'Cake' });
  });

  it('warns that a category in use is only deactivated', async () => {
    categoriesServer();
    const { user } = await openCategories();
    await user.click(within(list()).getByRole('button', { name: 'Eliminar Regalos' }));
    await waitFor(() =>
      expect(within(screen.getByRole('alertdialog')).getByTestId('delete-text')).toHaveTextContent('está en uso'),
    );
  });
});
