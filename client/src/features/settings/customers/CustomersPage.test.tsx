import { screen, waitFor, within } from '@testing-library/react';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Customer } from '../../../lib/types';
import { loggedInState, makeSettings, makeUser } from '../../../test/fixtures';
import { mockApi, tenantRoutes, type MockRequest } from '../../../test/mockApi';
import { renderApp } from '../../../test/renderWithProviders';

// The pages load lazily; load them once up front so no test pays for it on a busy machine.
beforeAll(async () => {
  await import('..');
}, 60_000);

const admin = makeUser('admin');

/** The privacy notice in force: version 3, the loyalty program required, marketing optional. */
const notice = {
  version: 3,
  body: 'AVISO DE PRIVACIDAD de Tienda Demo.',
  purposes: [
    { key: 'loyalty', description: 'Programa de fidelización: acumular y redimir puntos.', required: true },
    { key: 'marketing', description: 'Mercadeo: ofertas y novedades.', required: false },
  ],
  publishedAt: '2026-01-02T15:00:00Z',
  publishedBy: 'admin',
  impersonatedBy: null,
};
const loyaltyBox = () => within(addForm()).getByRole('checkbox', { name: /^Programa de fidelización/ });
const marketingBox = () => within(addForm()).getByRole('checkbox', { name: /^Mercadeo/ });

function makeCustomers(count: number): Customer[] {
  return Array.from({ length: count }, (_, i) => ({
    id: i + 1,
    document: String(1000 + i),
    name: `Cliente ${String(i + 1).padStart(2, '0')}`,
    email: i === 0 ? 'uno@example.com' : null,
    phone: null,
    address: null,
    birthdate: null,
    points: (i + 1) * 1000,
    is_active: true,
    claimInProgress: false,
  }));
}

/** A small customers server: paged name search, create, update, delete and usage. */
function customersServer(initial: Customer[], usage: Record<number, number> = {}) {
  let customers = [...initial];
  const api = mockApi({
    ...tenantRoutes(makeSettings()),
    'GET /api/privacy-notices/current': { body: notice },
    'GET /api/customers/search': ({ url }) => {
      const text = (url.searchParams.get('text') ?? '').toLowerCase();
      const page = Number(url.searchParams.get('page'));
      const pageSize = Number(url.searchParams.get('pageSize'));
      const matching = customers.filter((c) => c.name.toLowerCase().includes(text));
      return { body: { items: matching.slice((page - 1) * pageSize, page * pageSize), total: matching.length, page, pageSize } };
    },
    'POST /api/customers': ({ body }) => {
      const input = body as Customer;
      if (customers.some((c) => c.document === input.document)) return { status: 409, body: { message: 'customer document exists' } };
      const created = { ...input, id: 100 + customers.length, points: 0, is_active: true };
      customers = [...customers, created].sort((a, b) => a.name.localeCompare(b.name));
      return { status: 201, body: created };
    },
    'PUT /api/customers/1': ({ body }) => {
      customers = customers.map((c) => (c.id === 1 ? { ...c, ...(body as object) } : c));
      return { body: customers.find((c) => c.id === 1) };
    },
    'DELETE /api/customers/2': () => {
      const soft = (usage[2] ?? 0) > 0;
      customers = customers.filter((c) => c.id !== 2);
      return { body: { message: 'customer deleted', deleted: soft ? 'soft' : 'hard' } };
    },
    'GET /api/customers/2/usage': { body: { transactions: usage[2] ?? 0 } },
  });
  const searches = () =>
    api.requests
      .filter((r) => r.path === '/api/customers/search')
      .map((r) => Object.fromEntries(r.url.searchParams.entries()));
  return { ...api, searches };
}

const list = () => screen.getByRole('region', { name: 'Clientes registrados' });
const rowTitles = () => within(list()).queryAllByRole('listitem').map((li) => li.querySelector('.row-title')?.textContent);
const range = () => within(list()).getByTestId('list-range').textContent;
const addForm = () => screen.getByRole('region', { name: 'Nuevo cliente' });

async function openCustomers() {
  const rendered = renderApp('/settings/customers', { preloadedState: loggedInState(admin) });
  expect(await screen.findByRole('heading', { level: 1, name: 'Clientes' })).toBeInTheDocument();
  return rendered;
}

describe('customers screen', () => {
  it("lists the server's first page with avatar, document, email link and points", async () => {
    const server = customersServer(makeCustomers(23));
    await openCustomers();
    await waitFor(() => expect(range()).toBe('Mostrando 1-10 de 23'));
    expect(server.searches()[0]).toEqual({ text: '', page: '1', pageSize: '10' });
    const first = within(list()).getAllByRole('listitem')[0]!;
    expect(first).toHaveTextContent('C');
    expect(first).toHaveTextContent('Cliente 01');
    expect(first).toHaveTextContent('Doc. 1.000');
    expect(within(first).getByRole('link', { name: 'uno@example.com' })).toHaveAttribute('href', 'mailto:uno@example.com');
    expect(within(first).getByTestId('customer-points')).toHaveTextContent('1.000 pts');
  });

  it('pages and changes the page size through the server', async () => {
    const server = customersServer(makeCustomers(23));
    const { user } = await openCustomers();
    await waitFor(() => expect(range()).toBe('Mostrando 1-10 de 23'));
    await user.click(within(list()).getByRole('button', { name: /Siguiente/ }));
    await waitFor(() => expect(range()).toBe('Mostrando 11-20 de 23'));
    expect(server.searches().at(-1)).toMatchObject({ page: '2', pageSize: '10' });
    expect(rowTitles()[0]).toBe('Cliente 11');
    await user.selectOptions(within(list()).getByRole('combobox', { name: 'Por página' }), '25');
    await waitFor(() => expect(range()).toBe('Mostrando 1-23 de 23'));
    expect(server.searches().at(-1)).toMatchObject({ page: '1', pageSize: '25' });
  });

  it('searches by name on the server, once typing pauses, and says when nothing matches', async () => {
    const server = customersServer(makeCustomers(23));
    const { user } = await openCustomers();
    await waitFor(() => expect(range()).toBe('Mostrando 1-10 de 23'));
    await user.type(within(list()).getByRole('searchbox'), 'cliente 2');
    await waitFor(() => expect(range()).toBe('Mostrando 1-4 de 4'));
    expect(rowTitles()).toEqual(['Cliente 20', 'Cliente 21', 'Cliente 22', 'Cliente 23']);
    // Typing does not send one search per key.
    const typed = server.searches().filter((s) => (s.text ?? '').startsWith('c'));
    expect(typed.at(-1)?.text).toBe('cliente 2');
    expect(typed.length).toBeLessThan('cliente 2'.length);
    await user.clear(within(list()).getByRole('searchbox'));
    await user.type(within(list()).getByRole('searchbox'), 'nadie');
    expect(await within(list()).findByText('Ningún cliente coincide con la búsqueda.')).toBeInTheDocument();
  });

  it('shows the empty text when there are no customers', async () => {
    customersServer([]);
    await openCustomers();
    expect(await within(list()).findByText('Todavía no hay clientes registrados.')).toBeInTheDocument();
  });

  it('requires name and document, then adds the customer with empty optional fields as null', async () => {
    const server = customersServer(makeCustomers(2));
    const { user } = await openCustomers();
    await user.click(within(addForm()).getByRole('button', { name: 'Agregar cliente' }));
    expect(within(addForm()).getByRole('alert')).toHaveTextContent('El nombre y el documento son obligatorios.');

    await user.type(within(addForm()).getByLabelText(/Nombre/), '  Ana Nueva ');
    await user.type(within(addForm()).getByLabelText(/Documento/), '555');
    await user.type(within(addForm()).getByLabelText('Fecha de nacimiento'), '1990-04-12');
    await user.click(await within(addForm()).findByRole('checkbox', { name: /^Programa de fidelización/ }));
    await user.click(within(addForm()).getByRole('button', { name: 'Agregar cliente' }));

    expect(await screen.findByText('Cliente agregado.')).toBeInTheDocument();
    const post = server.requests.find((r: MockRequest) => r.method === 'POST');
    expect(post?.body).toEqual({
      name: 'Ana Nueva',
      document: '555',
      email: null,
      phone: null,
      address: null,
      birthdate: '1990-04-12',
      consent: { noticeVersion: 3, purposes: ['loyalty'], channel: 'store' },
    });
    expect(within(addForm()).getByLabelText(/Nombre/)).toHaveValue('');
    // The next customer is asked again.
    expect(loyaltyBox()).not.toBeChecked();
    await waitFor(() => expect(rowTitles()).toContain('Ana Nueva'));
  });

  it('shows a duplicate document as such', async () => {
    customersServer(makeCustomers(2));
    const { user } = await openCustomers();
    await user.type(within(addForm()).getByLabelText(/Nombre/), 'Otro');
    await user.type(within(addForm()).getByLabelText(/Documento/), '1000');
    await user.click(await within(addForm()).findByRole('checkbox', { name: /^Programa de fidelización/ }));
    await user.click(within(addForm()).getByRole('button', { name: 'Agregar cliente' }));
    expect(await within(addForm()).findByRole('alert')).toHaveTextContent('Ya existe un cliente con ese documento.');
  });

  it('shows the privacy notice in force and adds nobody without the loyalty purpose', async () => {
    const server = customersServer(makeCustomers(2));
    const { user } = await openCustomers();
    expect(await within(addForm()).findByRole('group', { name: 'Aviso de privacidad (versión 3)' })).toBeInTheDocument();
    expect(within(addForm()).getByText('AVISO DE PRIVACIDAD de Tienda Demo.')).toBeInTheDocument();
    expect(within(addForm()).getByRole('link', { name: 'Abrir la página pública del aviso' })).toHaveAttribute(
      'href',
      `/privacidad/${admin.company?.prefix}`,
    );
    expect(loyaltyBox()).toHaveAccessibleName('Programa de fidelización: acumular y redimir puntos. (obligatoria)');
    await user.type(within(addForm()).getByLabelText(/Nombre/), 'Ana');
    await user.type(within(addForm()).getByLabelText(/Documento/), '555');
    await user.click(marketingBox());
    await user.click(within(addForm()).getByRole('button', { name: 'Agregar cliente' }));
    expect(within(addForm()).getByRole('alert')).toHaveTextContent(
      'El cliente debe autorizar el programa de fidelización para inscribirse.',
    );
    expect(server.requests.some((r) => r.method === 'POST')).toBe(false);

    await user.click(loyaltyBox());
    await user.click(within(addForm()).getByRole('button', { name: 'Agregar cliente' }));
    expect(await screen.findByText('Cliente agregado.')).toBeInTheDocument();
    expect(server.requests.find((r) => r.method === 'POST')?.body).toMatchObject({
      consent: { noticeVersion: 3, purposes: ['loyalty', 'marketing'], channel: 'store' },
    });
  });

  it('edits a customer from the row menu; the name is required', async () => {
    const server = customersServer(makeCustomers(2));
    const { user } = await openCustomers();
    await user.click(await within(list()).findByRole('button', { name: 'Acciones de Cliente 01' }));
    await user.click(screen.getByRole('menuitem', { name: 'Editar' }));
    const dialog = screen.getByRole('dialog', { name: 'Editar cliente' });
    expect(within(dialog).getByLabelText(/Correo/)).toHaveValue('uno@example.com');
    await user.clear(within(dialog).getByLabelText(/Nombre/));
    await user.click(within(dialog).getByRole('button', { name: 'Actualizar' }));
    expect(within(dialog).getByRole('alert')).toHaveTextContent('El nombre es obligatorio.');
    await user.type(within(dialog).getByLabelText(/Nombre/), 'Cliente Uno');
    await user.click(within(dialog).getByRole('button', { name: 'Actualizar' }));
    expect(await screen.findByText('Cliente actualizado.')).toBeInTheDocument();
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(server.requests.find((r) => r.method === 'PUT')?.body).toMatchObject({ name: 'Cliente Uno', document: '1000' });
    await waitFor(() => expect(rowTitles()).toContain('Cliente Uno'));
  });

  it.each([
    [0, 'Se eliminará el cliente «Cliente 02» de forma permanente.'],
    [3, 'se desactivará en lugar de eliminarse'],
  ])('with %i transactions confirms the delete with the matching text', async (transactions, text) => {
    const server = customersServer(makeCustomers(2), { 2: transactions });
    const { user } = await openCustomers();
    await user.click(await within(list()).findByRole('button', { name: 'Acciones de Cliente 02' }));
    await user.click(screen.getByRole('menuitem', { name: 'Eliminar' }));
    const dialog = screen.getByRole('alertdialog', { name: 'Confirmar eliminación' });
    await waitFor(() => expect(within(dialog).getByTestId('delete-text')).toHaveTextContent(text));
    await user.click(within(dialog).getByRole('button', { name: 'Eliminar' }));
    expect(await screen.findByText('Cliente eliminado.')).toBeInTheDocument();
    expect(server.requests.some((r) => r.method === 'DELETE' && r.path === '/api/customers/2')).toBe(true);
    await waitFor(() => expect(rowTitles()).toEqual(['Cliente 01']));
  });

  it('cancels a delete without calling the server', async () => {
    const server = customersServer(makeCustomers(2));
    const { user } = await openCustomers();
    await user.click(await within(list()).findByRole('button', { name: 'Acciones de Cliente 02' }));
    await user.click(screen.getByRole('menuitem', { name: 'Eliminar' }));
    await user.click(within(screen.getByRole('alertdialog')).getByRole('button', { name: 'Cancelar' }));
    expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument();
    expect(server.requests.some((r) => r.method === 'DELETE')).toBe(false);
  });
});
