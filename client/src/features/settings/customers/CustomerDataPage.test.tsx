import { screen, waitFor, within } from '@testing-library/react';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import type { CustomerData } from '../../../lib/types';
import { loggedInState, makeSettings, makeUser } from '../../../test/fixtures';
import { mockApi, tenantRoutes } from '../../../test/mockApi';
import { makeCustomer, makeTransaction } from '../../../test/pointsFixtures';
import { renderApp } from '../../../test/renderWithProviders';

// The pages load lazily; load them once up front so no test pays for it on a busy machine.
beforeAll(async () => {
  await import('..');
  await import('../../../routes/routeTable');
}, 60_000);

const LOAD = { timeout: 15_000 };

function makeData(overrides: Partial<CustomerData> = {}): CustomerData {
  return {
    customer: makeCustomer({ id: 7, name: 'Valentina Quintero', document: '52987654', phone: '3157778899', points: 0 }),
    enrolledAt: '2025-01-10T15:00:00Z',
    lastActivityAt: '2026-03-09T19:05:00Z',
    suppressedAt: null,
    consents: [],
    transactions: [
      makeTransaction({ id: 11, customerId: 7, points: 300, invoiceAmount: 30000 }),
      makeTransaction({ id: 12, customerId: 7, type: 'forfeit', points: -300, invoiceAmount: null, posId: null, posName: null }),
    ],
    dataRequests: [
      {
        id: 3,
        customerId: 7,
        customerName: 'Valentina Quintero',
        document: '52987654',
        kind: 'reclamo',
        subject: 'Suprimir mis datos',
        details: 'Borren todo.',
        status: 'open',
        filedAt: '2026-03-10T15:00:00Z',
        filedOn: '2026-03-10',
        dueOn: '2026-03-31',
        daysLeft: 10,
        filedBy: 'admin',
        extended: false,
        extensionReason: null,
        incompleteReason: null,
        answer: null,
        answeredAt: null,
        answeredBy: null,
        closedAt: null,
      },
    ],
    exportedAt: '2026-03-11T15:00:00Z',
    ...overrides,
  };
}

const customersSearch = {
  'GET /api/customers/search': {
    body: { items: [makeCustomer({ id: 7, name: 'Valentina Quintero' })], total: 1, page: 1, pageSize: 10 },
  },
};

describe("a customer's personal data page", () => {
  it('shows everything held, the ledger in the reader\'s words and the requests, and prints', async () => {
    const { requests } = mockApi({ ...tenantRoutes(makeSettings()), 'GET /api/customers/7/data': { body: makeData() } });
    const print = vi.spyOn(window, 'print').mockImplementation(() => undefined);
    renderApp('/settings/customers/7/datos', { preloadedState: loggedInState(makeUser('admin')) });
    expect(await screen.findByRole('heading', { level: 1, name: 'Datos personales que se conservan' }, LOAD)).toBeInTheDocument();
    const personal = await screen.findByRole('region', { name: 'Datos personales' }, LOAD);
    expect(personal).toHaveTextContent('Valentina Quintero');
    expect(personal).toHaveTextContent('3157778899');
    expect(personal).toHaveTextContent('Dirección');
    expect(personal).toHaveTextContent('Ninguno');
    const forfeit = screen.getByTestId('data-transaction-12');
    expect(forfeit).toHaveTextContent('Pérdida por supresión');
    expect(forfeit).toHaveTextContent('-300');
    expect(screen.getByRole('region', { name: 'Solicitudes según la Ley 1581' })).toHaveTextContent('Suprimir mis datos');

    screen.getByRole('button', { name: 'Imprimir' }).click();
    expect(print).toHaveBeenCalledTimes(1);
    expect(requests.filter((r) => r.path === '/api/customers/7/data')).toHaveLength(1);
    print.mockRestore();
  }, 60_000);

  it('is in English when the interface is, and says when the data was anonymised', async () => {
    const data = makeData({ suppressedAt: '2026-03-12T15:00:00Z', transactions: [], dataRequests: [] });
    mockApi({ ...tenantRoutes(makeSettings()), 'GET /api/customers/7/data': { body: data } });
    renderApp('/settings/customers/7/datos', { preloadedState: loggedInState(makeUser('admin'), { locale: 'en' }) });
    expect(await screen.findByRole('heading', { level: 1, name: 'Personal data held' }, LOAD)).toBeInTheDocument();
    const personal = await screen.findByRole('region', { name: 'Personal data' }, LOAD);
    expect(personal).toHaveTextContent('Anonymised on');
    expect(screen.getByText('No transactions.')).toBeInTheDocument();
    expect(screen.getByText('No requests.')).toBeInTheDocument();
  }, 60_000);

  it('says so when the customer is not found', async () => {
    mockApi({ ...tenantRoutes(makeSettings()), 'GET /api/customers/8/data': { status: 404, body: { message: 'Cliente no encontrado.' } } });
    renderApp('/settings/customers/8/datos', { preloadedState: loggedInState(makeUser('admin')) });
    expect(await screen.findByText('No se pudieron cargar los datos del cliente.', {}, LOAD)).toBeInTheDocument();
  }, 60_000);
});

describe("the customers screen's privacy actions", () => {
  it('lets an admin open the export and suppress a customer, showing the server\'s answer', async () => {
    const { requests } = mockApi({
      ...tenantRoutes(makeSettings()),
      ...customersSearch,
      'GET /api/customers/7/data': { body: makeData() },
      'POST /api/customers/7/suppress': {
        body: { message: 'Los datos personales del cliente se anonimizaron.', outcome: 'anonymised', forfeitedPoints: 300 },
      },
    });
    const { user } = renderApp('/settings/customers', { preloadedState: loggedInState(makeUser('admin')) });
    const menu = await screen.findByRole('button', { name: 'Acciones de Valentina Quintero' }, LOAD);
    await user.click(menu);
    await user.click(screen.getByRole('menuitem', { name: 'Suprimir datos personales' }));
    const dialog = screen.getByRole('alertdialog', { name: 'Suprimir datos personales' });
    expect(within(dialog).getByTestId('suppress-text')).toHaveTextContent('No se puede deshacer.');
    await user.click(within(dialog).getByRole('button', { name: 'Suprimir' }));
    expect(await screen.findByText('Los datos personales del cliente se anonimizaron.')).toBeInTheDocument();
    expect(requests.some((r) => r.method === 'POST' && r.path === '/api/customers/7/suppress')).toBe(true);
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());

    await user.click(screen.getByRole('button', { name: 'Acciones de Valentina Quintero' }));
    await user.click(screen.getByRole('menuitem', { name: 'Exportar datos personales' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'Datos personales que se conservan' }, LOAD)).toBeInTheDocument();
  }, 60_000);

  it('offers neither to a supervisor with the customers screen', async () => {
    mockApi({ ...tenantRoutes(makeSettings({ supervisor: ['/settings/customers'], cajero: [] })), ...customersSearch });
    const { user } = renderApp('/settings/customers', { preloadedState: loggedInState(makeUser('supervisor')) });
    await user.click(await screen.findByRole('button', { name: 'Acciones de Valentina Quintero' }, LOAD));
    expect(screen.getByRole('menuitem', { name: 'Editar' })).toBeInTheDocument();
    expect(screen.queryByRole('menuitem', { name: 'Suprimir datos personales' })).toBeNull();
    expect(screen.queryByRole('menuitem', { name: 'Exportar datos personales' })).toBeNull();
  }, 60_000);
});
