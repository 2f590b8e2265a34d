import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { loggedInState, makeSettings, makeUser } from '../../test/fixtures';
import { mockApi, tenantRoutes, type MockHandler, type MockRequest } from '../../test/mockApi';
import { makeTransaction } from '../../test/pointsFixtures';
import { renderApp } from '../../test/renderWithProviders';
import type { Alert } from '../../lib/types';

const settings = makeSettings({ supervisor: ['/main', '/reportes', '/alertas'], cajero: ['/main', '/reportes'] });
const supervisor = makeUser('supervisor', { username: 'super' });

function makeAlert(overrides: Partial<Alert> = {}): Alert {
  return {
    id: 1,
    kind: 'customerOperations',
    day: '2026-03-09',
    status: 'new',
    customerId: 7,
    customerName: 'Ana Pérez',
    customerDocument: '1020304',
    cashierUsername: null,
    invoiceReference: null,
    occurrences: 7,
    points: 350,
    threshold: 5,
    transactionIds: [11, 12],
    detectedAt: '2026-03-09T20:00:00Z',
    reviewedBy: null,
    reviewedAt: null,
    ...overrides,
  };
}

const busy = makeAlert();
const repeats = makeAlert({ id: 2, kind: 'cashierRepeats', cashierUsername: 'caja1', occurrences: 3, threshold: 3, points: 300 });

function routes(alerts: Alert[], extra: Record<string, MockHandler> = {}): Record<string, MockHandler> {
  return {
    ...tenantRoutes(settings),
    'GET /api/alerts': (request: MockRequest) => {
      const status = request.url.searchParams.get('status');
      const items = alerts.filter((a) => !status || a.status === status);
      return { body: { items, total: items.length, page: 1, pageSize: 10 } };
    },
    'GET /api/alerts/1/transactions': {
      body: [makeTransaction({ id: 11, customerName: 'Ana Pérez' }), makeTransaction({ id: 12, type: 'redemption', points: -200 })],
    },
    ...extra,
  };
}

const row = (id: number) => screen.getByTestId(`alert-${id}`).closest('li')!;

describe('alerts screen', () => {
  it('lists the new alerts worded in the reader’s language with their subject', async () => {
    const { requests } = mockApi(routes([busy, repeats]));
    renderApp('/alertas', { preloadedState: loggedInState(supervisor) });
    // The first test loads the screen's lazy chunk.
    await screen.findByTestId('alert-1', {}, { timeout: 10_000 });
    expect(row(1)).toHaveTextContent('Cliente con muchas operaciones');
    expect(row(1)).toHaveTextContent('7 acreditaciones y redenciones en el día (el límite es 5)');
    expect(row(1)).toHaveTextContent('Ana Pérez');
    expect(row(2)).toHaveTextContent('caja1 le acreditó 3 veces en el día');
    const list = requests.filter((r) => r.path === '/api/alerts').at(-1)!;
    expect(Object.fromEntries(list.url.searchParams)).toEqual({ page: '1', pageSize: '10', status: 'new' });
  });

  it('speaks English when the reader does', async () => {
    mockApi(routes([busy]));
    renderApp('/alertas', { preloadedState: loggedInState(supervisor, { locale: 'en' }) });
    await screen.findByTestId('alert-1');
    expect(row(1)).toHaveTextContent('Customer with many operations');
    expect(row(1)).toHaveTextContent('7 accreditations and redemptions in the day (the limit is 5)');
  });

  it('shows an alert’s transactions and marks it reviewed', async () => {
    const { requests } = mockApi(
      routes([busy], {
        'PUT /api/alerts/1': (request) => ({ body: { ...busy, status: (request.body as { status: string }).status, reviewedBy: 'super' } }),
      }),
    );
    renderApp('/alertas', { preloadedState: loggedInState(supervisor) });
    await screen.findByTestId('alert-1');
    fireEvent.click(within(row(1)).getByRole('button', { name: 'Ver las transacciones de la alerta 1' }));
    const table = await screen.findByTestId('alert-transactions-1');
    expect(within(table).getAllByRole('row')).toHaveLength(3);
    expect(table).toHaveTextContent('#12');

    fireEvent.click(within(row(1)).getByRole('button', { name: 'Marcar revisada la alerta 1' }));
    await waitFor(() => expect(requests.some((r) => r.method === 'PUT' && r.path === '/api/alerts/1')).toBe(true));
    const put = requests.find((r) => r.method === 'PUT')!;
    expect(put.body).toEqual({ id: 1, status: 'reviewed' });
    // The list is asked again after the review.
    await waitFor(() => expect(requests.filter((r) => r.path === '/api/alerts').length).toBeGreaterThan(1));
  });

  it('links each alert to the report filtered to its transactions', async () => {
    mockApi({
      ...routes([busy, repeats]),
      'GET /api/transactions/search': { body: { items: [], total: 0, page: 1, pageSize: 10 } },
      'GET /api/transactions/totals': {
        body: { pointsAccredited: 0, pointsRedeemed: 0, invoiceAmount: 0, redeemedValue: 0, pointsReturned: 0, returnedAmount: 0 },
      },
      'GET /api/users': { body: [] },
    });
    const { user } = renderApp('/alertas', { preloadedState: loggedInState(supervisor) });
    await screen.findByTestId('alert-2');
    const link = screen.getByRole('link', { name: 'Ver en el reporte las transacciones de la alerta 2' });
    expect(link).toHaveAttribute('href', '/reportes?type=accreditation&cashier=caja1&customerId=7&from=2026-03-09&to=2026-03-09');
    await user.click(link);
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent('/reportes?type=accreditation'));
    expect(await screen.findByTestId('linked-filters')).toHaveTextContent('Cliente #7');
  });

  it('filters by kind and status, going back to the first page', async () => {
    const { requests } = mockApi(routes([busy, repeats]));
    renderApp('/alertas', { preloadedState: loggedInState(supervisor) });
    await screen.findByTestId('alert-1');
    fireEvent.change(screen.getByLabelText('Tipo de alerta'), { target: { value: 'cashierRepeats' } });
    fireEvent.change(screen.getByLabelText('Estado'), { target: { value: '' } });
    await waitFor(() => {
      const last = requests.filter((r) => r.path === '/api/alerts').at(-1)!;
      expect(Object.fromEntries(last.url.searchParams)).toEqual({ page: '1', pageSize: '10', kind: 'cashierRepeats' });
    });
  });

  it('keeps a cajero out', async () => {
    const { requests } = mockApi(routes([busy]));
    renderApp('/alertas', { preloadedState: loggedInState(makeUser('cajero')) });
    await waitFor(() => expect(screen.queryByText('Alertas', { selector: 'h1' })).not.toBeInTheDocument());
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(requests.some((r) => r.path === '/api/alerts')).toBe(false);
  });
});
