import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeAll, describe, expect, it } from 'vitest';
import { loggedInState, makeSettings, makeUser } from '../../test/fixtures';
import { mockApi, tenantRoutes, type MockRequest } from '../../test/mockApi';
import { renderApp } from '../../test/renderWithProviders';
import type { DataRequest } from '../../lib/types';
import { allowedActions, daysLeftText, formatDay, urgency } from './dataRequests';

function makeRequest(overrides: Partial<DataRequest> = {}): DataRequest {
  return {
    id: 1,
    customerId: 7,
    customerName: 'Ana Ruiz',
    document: '1020',
    kind: 'reclamo',
    subject: 'Corregir correo',
    details: 'El correo está mal.',
    status: 'open',
    filedAt: '2026-11-27T15:00:00Z',
    filedOn: '2026-11-27',
    dueOn: '2026-12-21',
    daysLeft: 15,
    filedBy: 'admin',
    extended: false,
    extensionReason: null,
    incompleteReason: null,
    answer: null,
    answeredAt: null,
    answeredBy: null,
    closedAt: null,
    ...overrides,
  };
}

// The screen and the dashboard load lazily: load them once before the tests' timers start.
beforeAll(async () => {
  await import('./DataRequestsPage');
  await import('../../routes/routeTable');
}, 60_000);

const LOAD = { timeout: 15_000 };

const page = (items: DataRequest[]) => ({ body: { items, total: items.length, page: 1, pageSize: 10 } });

describe('data requests helpers', () => {
  it('offers only the actions the server accepts in each state', () => {
    expect(allowedActions({ status: 'open', kind: 'reclamo', extended: false })).toEqual(['answer', 'extend', 'incomplete', 'close']);
    expect(allowedActions({ status: 'open', kind: 'consulta', extended: true })).toEqual(['answer', 'close']);
    expect(allowedActions({ status: 'incomplete', kind: 'reclamo', extended: false })).toEqual(['complete', 'answer', 'close']);
    expect(allowedActions({ status: 'answered', kind: 'consulta', extended: false })).toEqual(['close']);
    expect(allowedActions({ status: 'closed', kind: 'consulta', extended: false })).toEqual([]);
  });

  it('reads the clock: days left, due today, overdue, stopped', () => {
    expect(daysLeftText(3)).toEqual({ key: 'dataRequests.daysLeft', count: 3 });
    expect(daysLeftText(0)).toEqual({ key: 'dataRequests.dueToday', count: 0 });
    expect(daysLeftText(-2)).toEqual({ key: 'dataRequests.overdue', count: 2 });
    expect(daysLeftText(null)).toBeNull();
    expect([urgency(-1), urgency(2), urgency(3), urgency(null)]).toEqual(['danger', 'warning', 'neutral', 'neutral']);
  });

  it('shows a due day as the calendar day it is, in either language', () => {
    expect(formatDay('2026-12-21', 'en')).toBe('Dec 21, 2026');
    expect(formatDay('2026-12-21', 'es')).toContain('2026');
    expect(formatDay('2026-12-21', 'es')).toContain('21');
  });
});

describe('data requests screen', () => {
  it('lists the requests with their due date and days left, and files a new one', async () => {
    const filed: MockRequest[] = [];
    const { requests } = mockApi({
      ...tenantRoutes(makeSettings()),
      'GET /api/data-requests': page([makeRequest(), makeRequest({ id: 2, kind: 'consulta', subject: 'Qué datos tienen', daysLeft: -1, dueOn: '2026-11-20' })]),
      'POST /api/data-requests': (request) => {
        filed.push(request);
        return { status: 201, body: makeRequest({ id: 3 }) };
      },
    });
    renderApp('/solicitudes-datos', { preloadedState: loggedInState(makeUser('admin')) });
    const first = await screen.findByTestId('data-request-1', {}, LOAD);
    expect(first).toHaveTextContent('Corregir correo');
    expect(first).toHaveTextContent('Ana Ruiz');
    expect(within(first).getByTestId('request-clock')).toHaveTextContent('Días hábiles restantes: 15');
    const overdue = within(screen.getByTestId('data-request-2')).getByTestId('request-clock');
    expect(overdue).toHaveTextContent('Vencida hace 1 días hábiles');
    expect(overdue).toHaveClass('tone-danger');

    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Radicar solicitud' }));
    const dialog = await screen.findByRole('dialog');
    await user.click(within(dialog).getByRole('button', { name: 'Radicar' }));
    expect(within(dialog).getByRole('alert')).toHaveTextContent('El documento, el asunto y el detalle son obligatorios.');
    await user.type(within(dialog).getByLabelText(/Documento/), '1020');
    await user.selectOptions(within(dialog).getByLabelText(/Tipo/), 'reclamo');
    await user.type(within(dialog).getByLabelText(/Asunto/), 'Suprimir mis datos');
    await user.type(within(dialog).getByLabelText(/Detalle/), 'Ya no quiero el programa.');
    await user.click(within(dialog).getByRole('button', { name: 'Radicar' }));
    await waitFor(() => expect(filed).toHaveLength(1));
    expect(filed[0]!.body).toEqual({ document: '1020', kind: 'reclamo', subject: 'Suprimir mis datos', details: 'Ya no quiero el programa.' });
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(requests.filter((r) => r.path === '/api/data-requests' && r.method === 'GET').length).toBeGreaterThan(1);
  }, 60_000);

  it('extends a request with its reason and filters by status and kind', async () => {
    const updates: MockRequest[] = [];
    const { requests } = mockApi({
      ...tenantRoutes(makeSettings()),
      'GET /api/data-requests': page([makeRequest()]),
      'PUT /api/data-requests/1': (request) => {
        updates.push(request);
        return { body: makeRequest({ extended: true, extensionReason: 'Volumen' }) };
      },
    });
    renderApp('/solicitudes-datos', { preloadedState: loggedInState(makeUser('admin')) });
    const row = await screen.findByTestId('data-request-1', {}, LOAD);
    const user = userEvent.setup();
    await user.click(within(row).getByRole('button', { name: 'Prorrogar' }));
    const dialog = await screen.findByRole('dialog');
    await user.type(within(dialog).getByLabelText(/Motivo/), 'Volumen');
    await user.click(within(dialog).getByRole('button', { name: 'Prorrogar' }));
    await waitFor(() => expect(updates).toHaveLength(1));
    expect(updates[0]!.body).toEqual({ action: 'extend', reason: 'Volumen' });

    await user.selectOptions(screen.getByLabelText('Estado'), 'open');
    await user.selectOptions(screen.getByLabelText('Tipo'), 'reclamo');
    await waitFor(() => {
      const last = requests.filter((r) => r.path === '/api/data-requests').at(-1)!;
      expect(Object.fromEntries(last.url.searchParams)).toEqual({ page: '1', pageSize: '10', status: 'open', kind: 'reclamo' });
    });
  }, 60_000);

  it('is in English when the interface is', async () => {
    mockApi({ ...tenantRoutes(makeSettings()), 'GET /api/data-requests': page([makeRequest({ daysLeft: 0 })]) });
    renderApp('/solicitudes-datos', { preloadedState: loggedInState(makeUser('admin'), { locale: 'en' }) });
    const row = await screen.findByTestId('data-request-1', {}, LOAD);
    expect(within(row).getByTestId('request-clock')).toHaveTextContent('Due today');
    expect(screen.getByRole('heading', { level: 1 })).toHaveTextContent('Personal data requests');
  });

  it('sends a cajero without the permission to the dashboard, which does not ask for due requests', async () => {
    const { requests } = mockApi({ ...tenantRoutes(makeSettings({ supervisor: [], cajero: ['/main'] })) });
    renderApp('/solicitudes-datos', { preloadedState: loggedInState(makeUser('cajero')) });
    await screen.findByRole('heading', { level: 1, name: 'Panel' }, LOAD);
    expect(requests.some((r) => r.path.startsWith('/api/data-requests'))).toBe(false);
  });

  it('shows a supervisor granted the screen the requests due soon on the dashboard', async () => {
    mockApi({
      ...tenantRoutes(makeSettings({ supervisor: ['/main', '/solicitudes-datos'], cajero: [] })),
      'GET /api/data-requests/due': { body: [makeRequest({ daysLeft: -2 }), makeRequest({ id: 2, daysLeft: 1 })] },
    });
    renderApp('/main', { preloadedState: loggedInState(makeUser('supervisor')) });
    const panel = await screen.findByRole('region', { name: 'Solicitudes de datos por vencer' }, LOAD);
    expect(panel).toHaveTextContent('Por vencer en 2 días hábiles: 1 · vencidas: 1');
    expect(within(panel).getByTestId('due-request-1')).toHaveTextContent('Vencida hace 2 días hábiles');
  });
});
