import { act, render, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { loggedInState, makeSettings, makeUser } from '../../test/fixtures';
import { mockApi, tenantRoutes, type MockHandler, type MockRequest } from '../../test/mockApi';
import { makeTransaction } from '../../test/pointsFixtures';
import { renderApp } from '../../test/renderWithProviders';
import type { Transaction } from '../../lib/types';
import { VOID_BANNER_MS, VoidBanner } from './VoidBanner';

const permissions = { supervisor: ['/main', '/reportes'], cajero: ['/main', '/accreditar', '/redimir', '/reportes'] };
const settings = makeSettings(permissions);
const cajero = makeUser('cajero');
const supervisor = makeUser('supervisor', { username: 'super' });

const own = makeTransaction({ id: 3, type: 'redemption', points: -1500, invoiceAmount: null, redeemedValue: 15000, description: 'Taza', cashierUsername: 'caja1' });
const others = makeTransaction({ id: 2, type: 'accreditation', points: 500, cashierUsername: 'caja2', description: null });
const voided = makeTransaction({ id: 1, type: 'redemption', points: -800, is_voided: true, voided_by: 'super', invoiceAmount: null, redeemedValue: 8000 });
const expiration = makeTransaction({
  id: 4,
  type: 'expiration',
  points: -50,
  cashierUsername: 'system',
  invoiceAmount: null,
  posName: null,
  description: null,
});

function page(items: Transaction[], request: MockRequest) {
  const pageNumber = Number(request.url.searchParams.get('page') ?? 1);
  const pageSize = Number(request.url.searchParams.get('pageSize') ?? 10);
  return { body: { items: items.slice((pageNumber - 1) * pageSize, pageNumber * pageSize), total: items.length, page: pageNumber, pageSize } };
}

function routes(items: Transaction[], extra: Record<string, MockHandler> = {}): Record<string, MockHandler> {
  return {
    ...tenantRoutes(settings),
    'GET /api/transactions/search': (request) => page(items, request),
    'GET /api/transactions/totals': {
      body: { pointsAccredited: 28500, pointsRedeemed: 1500, invoiceAmount: 2850000, redeemedValue: 15000, pointsReturned: 250, returnedAmount: 25000 },
    },
    'GET /api/users': { body: [{ id: 1, username: 'caja2', role: 'cajero' }, { id: 2, username: 'caja1', role: 'cajero' }] },
    ...extra,
  };
}

const searches = (requests: MockRequest[]) => requests.filter((r) => r.path === '/api/transactions/search');
const lastSearch = (requests: MockRequest[]) => Object.fromEntries(searches(requests).at(-1)!.url.searchParams);
const row = (id: number) => screen.getByTestId(`transaction-${id}`).closest('li')!;

describe('reports screen', () => {
  it('lists the server page, newest first as sent, with type, customer and points', async () => {
    const { requests } = mockApi(routes([expiration, own, others, voided]));
    renderApp('/reportes', { preloadedState: loggedInState(supervisor) });
    await screen.findByTestId('transaction-3');
    expect(screen.getAllByTestId(/^transaction-/).map((el) => el.dataset.testid)).toEqual([
      'transaction-4',
      'transaction-3',
      'transaction-2',
      'transaction-1',
    ]);
    expect(row(3)).toHaveTextContent('Redención');
    expect(row(3)).toHaveTextContent('-1.500 pts');
    expect(row(4)).toHaveTextContent('Cajero: sistema');
    // The ledger keeps no sentence: an expiration is worded in the screen's language, an
    // accreditation by its invoice figure.
    expect(row(4)).toHaveTextContent('Puntos vencidos');
    expect(row(4)).not.toHaveTextContent('Points expired');
    expect(row(2)).not.toHaveTextContent('Purchase');
    expect(row(2)).toHaveTextContent('Factura');
    expect(lastSearch(requests)).toEqual({ page: '1', pageSize: '10' });
  });

  it('fades voided rows, marks them and names who voided them, without actions', async () => {
    mockApi(routes([own, voided]));
    renderApp('/reportes', { preloadedState: loggedInState(supervisor) });
    await screen.findByTestId('transaction-1');
    expect(screen.getByTestId('transaction-1')).toHaveClass('tx-voided');
    expect(row(1)).toHaveTextContent('Anulada');
    expect(row(1)).toHaveTextContent('Anulada por super');
    expect(within(row(1)).queryByRole('button')).not.toBeInTheDocument();
    expect(within(row(3)).getByRole('button', { name: 'Anular la transacción 3' })).toBeInTheDocument();
    expect(within(row(3)).getByRole('button', { name: 'Reimprimir el comprobante de la transacción 3' })).toBeInTheDocument();
  });

  it('sends the filters to the server and goes back to page 1', async () => {
    const many = Array.from({ length: 23 }, (_, i) => makeTransaction({ id: 100 - i }));
    const { requests } = mockApi(routes(many));
    const { user } = renderApp('/reportes', { preloadedState: loggedInState(supervisor) });
    await screen.findByTestId('transaction-100');
    await user.click(screen.getByRole('button', { name: /Siguiente/ }));
    await waitFor(() => expect(lastSearch(requests).page).toBe('2'));
    await user.selectOptions(screen.getByLabelText('Tipo'), 'Redención');
    await user.selectOptions(screen.getByLabelText('Punto de venta'), 'Caja principal');
    await user.selectOptions(screen.getByLabelText('Cajero'), 'caja2');
    await user.type(screen.getByLabelText('Desde'), '2026-03-01');
    await user.type(screen.getByLabelText('Hasta'), '2026-03-31');
    await user.type(screen.getByRole('searchbox'), 'ana');
    await waitFor(() =>
      expect(lastSearch(requests)).toEqual({
        page: '1',
        pageSize: '10',
        type: 'redemption',
        posId: '3',
        cashier: 'caja2',
        from: '2026-03-01',
        to: '2026-03-31',
        text: 'ana',
      }),
    );
    await user.selectOptions(screen.getByLabelText('Por página'), '25');
    await waitFor(() => expect(lastSearch(requests).pageSize).toBe('25'));
    expect(within(screen.getByLabelText('Por página')).getAllByRole('option').map((o) => o.textContent)).toEqual(['10', '25', '50']);
  });

  it('tells an empty history from filters that match nothing', async () => {
    mockApi(routes([]));
    const { user } = renderApp('/reportes', { preloadedState: loggedInState(supervisor, { locale: 'en' }) });
    expect(await screen.findByText('There are no transactions yet.')).toBeInTheDocument();
    await user.selectOptions(screen.getByLabelText('Type'), 'Expiration');
    expect(await screen.findByText('No transactions match the filters.')).toBeInTheDocument();
  });

  it('lets a supervisor void with a confirmation only, and shows the result banner', async () => {
    let items = [own, others];
    const { requests } = mockApi(
      routes([], {
        'GET /api/transactions/search': (request) => page(items, request),
        'POST /api/transactions/2/void': () => {
          items = [makeTransaction({ id: 5, type: 'cancellation', points: -500, originalTransactionId: 2 }), own, { ...others, is_voided: true, voided_by: 'super' }];
          return { body: { message: 'transaction voided' } };
        },
      }),
    );
    const { user } = renderApp('/reportes', { preloadedState: loggedInState(supervisor) });
    await user.click(await screen.findByRole('button', { name: 'Anular la transacción 2' }));
    const dialog = screen.getByRole('alertdialog', { name: 'Anular transacción' });
    expect(within(dialog).queryByLabelText(/Usuario del supervisor/)).not.toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'Anular' }));
    expect(await screen.findByRole('status')).toHaveTextContent('Transacción anulada correctamente.');
    const post = requests.find((r) => r.method === 'POST')!;
    expect(post.body).toEqual({});
    expect(post.headers.get('Idempotency-Key')).toBeTruthy();
    // Voiding reloads the report.
    expect(await screen.findByTestId('transaction-5')).toHaveTextContent('Anula la transacción #2');
    expect(screen.getByTestId('transaction-2')).toHaveClass('tx-voided');
  });

  it('asks a cajero for supervisor credentials, only on own rows, and keeps the session on a wrong password', async () => {
    let attempt = 0;
    const { requests } = mockApi(
      routes([own, others], {
        'POST /api/transactions/3/void': () => {
          attempt += 1;
          return attempt === 1
            ? { status: 401, body: { message: 'incorrect supervisor credentials' } }
            : { body: { message: 'transaction voided' } };
        },
      }),
    );
    const { user } = renderApp('/reportes', { preloadedState: loggedInState(cajero) });
    await screen.findByTestId('transaction-3');
    expect(within(row(2)).queryByRole('button', { name: /Anular/ })).not.toBeInTheDocument();
    await user.click(within(row(3)).getByRole('button', { name: 'Anular la transacción 3' }));
    const dialog = screen.getByRole('alertdialog', { name: 'Anular transacción' });
    await user.click(within(dialog).getByRole('button', { name: 'Anular' }));
    expect(within(dialog).getByRole('alert')).toHaveTextContent('Ingresa el usuario y la contraseña del supervisor.');
    expect(requests.filter((r) => r.method === 'POST')).toHaveLength(0);

    await user.type(within(dialog).getByLabelText(/Usuario del supervisor/), 'supervisor@demo');
    await user.type(within(dialog).getByLabelText(/Contraseña del supervisor/), 'mala');
    await user.click(within(dialog).getByRole('button', { name: 'Anular' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent('Las credenciales del supervisor son incorrectas.');
    expect(screen.getByTestId('location')).toHaveTextContent('/reportes');

    await user.clear(within(dialog).getByLabelText(/Contraseña del supervisor/));
    await user.type(within(dialog).getByLabelText(/Contraseña del supervisor/), 'super123');
    await user.click(within(dialog).getByRole('button', { name: 'Anular' }));
    expect(await screen.findByRole('status')).toHaveTextContent('Transacción anulada correctamente.');
    const posts = requests.filter((r) => r.method === 'POST');
    expect(posts.at(-1)?.body).toEqual({ supervisorUsername: 'supervisor@demo', supervisorPassword: 'super123' });
  });

  it('keeps a refused void in its dialog with the reason in the screen language', async () => {
    mockApi(
      routes([others], {
        'POST /api/transactions/2/void': {
          status: 409,
          body: { message: 'the points of this accreditation were already redeemed or expired, so it cannot be voided', code: 'void.pointsSpent' },
        },
      }),
    );
    const { user } = renderApp('/reportes', { preloadedState: loggedInState(supervisor) });
    await user.click(await screen.findByRole('button', { name: 'Anular la transacción 2' }));
    const dialog = screen.getByRole('alertdialog');
    await user.click(within(dialog).getByRole('button', { name: 'Anular' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent(
      'Los puntos de esta acreditación ya se redimieron o vencieron, por eso no se puede anular.',
    );
    expect(screen.getByRole('alertdialog')).toBeInTheDocument();
    expect(document.querySelector('.void-banner')).toBeNull();
    await user.click(within(dialog).getByRole('button', { name: 'Cancelar' }));
    expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument();
  });

  it('reprints a redemption receipt', async () => {
    mockApi(routes([own]));
    const { user } = renderApp('/reportes', { preloadedState: loggedInState(supervisor) });
    await user.click(await screen.findByRole('button', { name: 'Reimprimir el comprobante de la transacción 3' }));
    const receipt = within(screen.getByRole('dialog', { name: 'Comprobante de redención' })).getByTestId('receipt');
    expect(receipt).toHaveTextContent('#3');
    expect(receipt).toHaveTextContent('Taza');
    expect(receipt).toHaveTextContent('Saldo anteriorN/A');
  });

  it('names the supervisor who approved a row', async () => {
    const approved = makeTransaction({ id: 9, type: 'return', points: -25, invoiceAmount: 2500, approvedBy: 'super1', originalTransactionId: 2 });
    mockApi(routes([approved, others]));
    renderApp('/reportes', { preloadedState: loggedInState(supervisor) });
    await screen.findByTestId('transaction-9');
    expect(row(9)).toHaveTextContent('Aprobada por super1');
    expect(row(2)).not.toHaveTextContent('Aprobada por');
  });

  it('reads its filters from the address and writes them back as they change', async () => {
    const { requests } = mockApi(routes([own, others]));
    const { user } = renderApp('/reportes?type=redemption&customerId=42&from=2026-03-01&to=2026-03-09&page=2', {
      preloadedState: loggedInState(supervisor),
    });
    await waitFor(() =>
      expect(lastSearch(requests)).toEqual({
        type: 'redemption',
        customerId: '42',
        from: '2026-03-01',
        to: '2026-03-09',
        page: '2',
        pageSize: '10',
      }),
    );
    expect(screen.getByLabelText('Tipo')).toHaveValue('redemption');
    expect(screen.getByTestId('linked-filters')).toHaveTextContent('Cliente #42');

    await user.selectOptions(screen.getByLabelText('Tipo'), 'Devolución');
    await waitFor(() =>
      expect(screen.getByTestId('location')).toHaveTextContent('/reportes?type=return&customerId=42&from=2026-03-01&to=2026-03-09'),
    );
    expect(lastSearch(requests)).toMatchObject({ type: 'return', page: '1' });
    await user.click(screen.getByRole('button', { name: 'Quitar el filtro de cliente' }));
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent('/reportes?type=return&from=2026-03-01&to=2026-03-09'));
    await user.click(screen.getByRole('button', { name: 'Limpiar filtros' }));
    await waitFor(() => expect(screen.getByTestId('location').textContent).toBe('/reportes'));
  });

  it('shows the totals of every filtered row, asked of the server with the filters', async () => {
    const { requests } = mockApi(routes([own, others]));
    const { user } = renderApp('/reportes', { preloadedState: loggedInState(supervisor) });
    const card = await screen.findByRole('region', { name: 'Totales según los filtros' });
    expect(within(card).getByTestId('total-pointsAccredited')).toHaveTextContent('28.500');
    expect(within(card).getByTestId('total-pointsRedeemed')).toHaveTextContent('1.500');
    expect(within(card).getByTestId('total-invoiceAmount')).toHaveTextContent(/\$\s2\.850\.000/);
    expect(within(card).getByTestId('total-redeemedValue')).toHaveTextContent(/\$\s15\.000/);
    expect(within(card).getByText('Puntos devueltos')).toBeInTheDocument();
    expect(within(card).getByTestId('total-pointsReturned')).toHaveTextContent('250');
    expect(within(card).getByTestId('total-returnedAmount')).toHaveTextContent(/\$\s25\.000/);
    await user.selectOptions(screen.getByLabelText('Tipo'), 'Redención');
    await waitFor(() =>
      expect(requests.filter((r) => r.path === '/api/transactions/totals').at(-1)?.url.searchParams.get('type')).toBe('redemption'),
    );
  });

  it('exports every filtered row, not only the page, as reporte_fidelidad.csv', async () => {
    const many = Array.from({ length: 57 }, (_, i) =>
      makeTransaction({ id: 200 - i, customerName: i === 0 ? 'Gómez, Ana' : 'Ana', cashierUsername: i === 1 ? '' : 'caja1' }),
    );
    const { requests } = mockApi(routes(many));
    const blobs: Blob[] = [];
    const createObjectURL = vi.fn((blob: Blob) => {
      blobs.push(blob);
      return 'blob:report';
    });
    Object.defineProperty(URL, 'createObjectURL', { value: createObjectURL, configurable: true });
    Object.defineProperty(URL, 'revokeObjectURL', { value: vi.fn(), configurable: true });
    let downloaded = '';
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      downloaded = this.download;
    });

    const { user } = renderApp('/reportes', { preloadedState: loggedInState(supervisor) });
    await screen.findByTestId('transaction-200');
    await user.selectOptions(screen.getByLabelText('Tipo'), 'Acreditación');
    await waitFor(() => expect(lastSearch(requests).type).toBe('accreditation'));
    await user.click(screen.getByRole('button', { name: 'Exportar CSV' }));
    await waitFor(() => expect(downloaded).toBe('reporte_fidelidad.csv'));

    const exportCalls = searches(requests).filter((r) => r.url.searchParams.get('pageSize') === '50');
    expect(exportCalls.map((r) => r.url.searchParams.get('page'))).toEqual(['1', '2']);
    expect(exportCalls.every((r) => r.url.searchParams.get('type') === 'accreditation')).toBe(true);
    const text = await blobs[0]!.text();
    const lines = text.replace(/^\uFEFF/, '').split('\r\n').filter(Boolean);
    // Spanish: semicolons, as Excel with Colombian settings splits columns; then the totals.
    expect(lines).toHaveLength(58 + 7);
    expect(lines[0]).toBe(
      'ID transacción;Fecha;Cajero;Punto de venta;Documento cliente;Nombre cliente;Tipo;Descripción;Puntos;Valor factura;Valor redimido;Aprobada por',
    );
    expect(lines.slice(-7)).toEqual([
      'Totales según los filtros',
      'Puntos acreditados;28500',
      'Puntos redimidos;1500',
      'Valor de las facturas;2850000',
      'Valor redimido;15000',
      'Puntos devueltos;250',
      'Valor devuelto;25000',
    ]);
    // The description is worded in the reader's language from the row's figures.
    expect(lines[1]).toMatch(/;Gómez, Ana;Acreditación;Compra por \$\s50\.000;500;50000;N\/A;N\/A$/);
    expect(lines[2]!.split(';')[2]).toBe('system');
    expect(blobs[0]!.type).toBe('text/csv;charset=utf-8');
  });
});

describe('void banner', () => {
  it('goes away after 4 seconds', () => {
    vi.useFakeTimers();
    try {
      const onDone = vi.fn();
      render(<VoidBanner result={{ kind: 'success', message: 'ok', id: 1 }} onDone={onDone} />);
      act(() => vi.advanceTimersByTime(VOID_BANNER_MS - 1));
      expect(onDone).not.toHaveBeenCalled();
      act(() => vi.advanceTimersByTime(1));
      expect(onDone).toHaveBeenCalledTimes(1);
      expect(VOID_BANNER_MS).toBe(4000);
    } finally {
      vi.useRealTimers();
    }
  });
});
