import { screen, waitFor, within } from '@testing-library/react';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Product } from '../../../lib/types';
import { loggedInState, makeSettings, makeUser } from '../../../test/fixtures';
import { openListScreen } from '../../../test/listScreen';
import { mockApi, tenantRoutes } from '../../../test/mockApi';
import { renderApp } from '../../../test/renderWithProviders';

// The pages load lazily; load them once up front so no test pays for it on a busy machine.
beforeAll(async () => {
  await import('..');
}, 60_000);

const PRODUCTS: Product[] = [
  {
    id: 1,
    code: 'TER-002',
    name: 'Termo de acero',
    description: null,
    imageUrl: 'https://example.com/termo.png',
    price: 45000,
    pointsValue: 4500,
    is_active: true,
    categoryId: 2,
    categoryName: 'Hogar',
  },
  {
    id: 2,
    code: 'AUD-003',
    name: 'Audífonos',
    description: null,
    imageUrl: null,
    price: 120000,
    pointsValue: 12000,
    is_active: false,
    categoryId: null,
    categoryName: null,
  },
];

function productsServer() {
  return mockApi({
    ...tenantRoutes(makeSettings({ supervisor: [], cajero: ['/settings/products'] })),
    'GET /api/categories': { body: [{ id: 2, name: 'Hogar', icon: 'HomeModern' }] },
    'GET /api/products/all': { body: PRODUCTS },
    'GET /api/products': { body: PRODUCTS.filter((p) => p.is_active) },
    'POST /api/products': ({ body }) => ({ status: 201, body: { id: 5, ...(body as object) } }),
    'GET /api/products/1/usage': { body: { transactions: 4 } },
  });
}

const list = () => screen.getByRole('region', { name: 'Catálogo' });
const addForm = () => screen.getByRole('region', { name: 'Nuevo producto' });

describe('products screen', () => {
  it('lists image or placeholder, name, code, category, price, points and the active badge; the inactive ones behind the filter', async () => {
    productsServer();
    const { user } = await openListScreen('/settings/products', 'Catálogo', 'Termo de acero');
    const [only] = within(list()).getAllByRole('listitem');
    expect(within(list()).getAllByRole('listitem')).toHaveLength(1);
    expect(only).toHaveTextContent('Termo de acero');
    expect(within(only!).getByRole('img', { name: 'Termo de acero' })).toHaveAttribute('src', 'https://example.com/termo.png');
    expect(only).toHaveTextContent('Código TER-002 · Hogar');
    expect(only).toHaveTextContent('$ 45.000 · 4.500 pts');
    expect(only).toHaveTextContent('Activo');
    await user.click(within(list()).getByLabelText('Mostrar inactivos'));
    const [inactive] = within(list()).getAllByRole('listitem');
    expect(within(list()).getAllByRole('listitem')).toHaveLength(1);
    expect(within(inactive!).getByRole('img', { name: 'Sin imagen' })).toBeInTheDocument();
    expect(inactive).toHaveTextContent('Sin categoría');
    expect(inactive).toHaveTextContent('Inactivo');
    expect(within(inactive!).getByRole('button', { name: /^Reactivar / })).toBeEnabled();
  });

  it('requires code and name, then sends whole numbers and the category as a number', async () => {
    const server = productsServer();
    const { user } = renderApp('/settings/products', { preloadedState: loggedInState(makeUser('admin')) });
    const add = await within(await screen.findByRole('region', { name: 'Nuevo producto' })).findByRole('button', {
      name: 'Agregar producto',
    });
    await user.click(add);
    expect(within(addForm()).getByRole('alert')).toHaveTextContent('El código y el nombre son obligatorios.');

    await user.type(within(addForm()).getByLabelText(/Código/), 'CAF-9');
    await user.type(within(addForm()).getByLabelText(/Nombre/), 'Café especial');
    await user.selectOptions(within(addForm()).getByLabelText('Categoría'), 'Hogar');
    const price = within(addForm()).getByLabelText('Precio');
    await user.clear(price);
    await user.type(price, '28.5a00');
    expect(price).toHaveValue('28.500');
    await user.type(within(addForm()).getByLabelText('Valor en puntos'), '2800');
    await user.click(within(addForm()).getByRole('checkbox', { name: 'Activo' }));
    await user.click(add);

    expect(await screen.findByText('Producto agregado.')).toBeInTheDocument();
    expect(server.requests.find((r) => r.method === 'POST')?.body).toEqual({
      code: 'CAF-9',
      name: 'Café especial',
      description: '',
      price: 28500,
      pointsValue: 2800,
      imageUrl: '',
      is_active: false,
      categoryId: 2,
    });
    expect(within(addForm()).getByLabelText('Precio')).toHaveValue('');
  });

  it('leaves categoryId out when no category is chosen', async () => {
    const server = productsServer();
    const { user } = renderApp('/settings/products', { preloadedState: loggedInState(makeUser('admin')) });
    const form = await screen.findByRole('region', { name: 'Nuevo producto' });
    await user.type(within(form).getByLabelText(/Código/), 'X1');
    await user.type(within(form).getByLabelText(/Nombre/), 'Sin cat');
    await user.click(within(form).getByRole('button', { name: 'Agregar producto' }));
    expect(within(form).getByRole('alert')).toHaveTextContent('Un producto activo necesita un valor en puntos de al menos 1.');
    await user.type(within(form).getByLabelText('Valor en puntos'), '10');
    await user.click(within(form).getByRole('button', { name: 'Agregar producto' }));
    await screen.findByText('Producto agregado.');
    expect(server.requests.find((r) => r.method === 'POST')?.body).not.toHaveProperty('categoryId');
  });

  it('warns that a product with transactions is only deactivated', async () => {
    productsServer();
    const { user } = renderApp('/settings/products', { preloadedState: loggedInState(makeUser('admin')) });
    await user.click(await screen.findByRole('button', { name: 'Eliminar Termo de acero' }));
    await waitFor(() =>
      expect(within(screen.getByRole('alertdialog')).getByTestId('delete-text')).toHaveTextContent(
        'dejará de estar disponible para redimir',
      ),
    );
  });

  it('reads only the active products for a cajero holding the permission', async () => {
    const server = productsServer();
    await openListScreen('/settings/products', 'Catálogo', 'Termo de acero', 'cajero');
    expect(within(list()).getAllByRole('listitem')).toHaveLength(1);
    expect(server.requests.some((r) => r.path === '/api/products/all')).toBe(false);
  });
});
