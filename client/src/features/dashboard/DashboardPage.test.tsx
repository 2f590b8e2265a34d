import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { loggedInState, makeSettings, makeUser } from '../../test/fixtures';
import { mockApi, tenantRoutes, type MockHandler } from '../../test/mockApi';
import { makeCustomer, makeProduct } from '../../test/pointsFixtures';
import { renderApp } from '../../test/renderWithProviders';

const cajero = makeUser('cajero');
const settings = makeSettings({ supervisor: [], cajero: ['/main', '/accreditar', '/redimir', '/reportes'] });
const asCajero = { preloadedState: loggedInState(cajero) };

const stats = {
  totalCustomers: 1234,
  pointsInCirculation: 987654,
  transactionsLast30Days: 321,
  pointsAccreditedLast30Days: 45678,
  pointsRedeemedLast30Days: 2175,
  pointsReturnedLast30Days: 1250,
  daily: Array.from({ length: 30 }, (_, i) => ({
    date: `2026-03-${String(i + 1).padStart(2, '0')}`,
    accredited: i * 10,
    redeemed: i * 5,
    returned: i,
  })),
  liability: { outstandingPoints: 987654, value: 987654 },
};

function routes(extra: Record<string, MockHandler> = {}): Record<string, MockHandler> {
  return {
    ...tenantRoutes(settings),
    'GET /api/stats/dashboard': { body: stats },
    'GET /api/products': {
      body: [
        makeProduct({ name: 'Taza de cerámica', pointsValue: 1500 }),
        makeProduct({ name: 'Termo de acero', pointsValue: 4500 }),
        makeProduct({ name: 'Termo grande', pointsValue: 9000 }),
      ],
    },
    'GET /api/customers/by-document/1020304050': { body: makeCustomer({ points: 5000 }) },
    ...extra,
  };
}

/** Opens the dashboard as a cashier and finds the customer (5000 points) in the quick redeem panel. */
async function quickRedeemWithCustomer() {
  mockApi(routes());
  const { user } = renderApp('/main', asCajero);
  const panel = await screen.findByRole('region', { name: 'Redención rápida' });
  await user.type(within(panel).getByLabelText('Documento del cliente'), '1020304050');
  await user.click(within(panel).getByRole('button', { name: 'Buscar' }));
  await within(panel).findByTestId('customer-card');
  return { user, panel };
}

describe('dashboard', () => {
  it('shows the KPIs from the server, returned points as a figure of their own', async () => {
    mockApi(routes());
    renderApp('/main', asCajero);
    await waitFor(() => expect(screen.getByTestId('kpi-totalCustomers')).toHaveTextContent('1.234'));
    expect(screen.getByTestId('kpi-pointsInCirculation')).toHaveTextContent('987.654');
    expect(screen.getByTestId('kpi-transactionsLast30Days')).toHaveTextContent('321');
    expect(screen.getByTestId('kpi-pointsAccreditedLast30Days')).toHaveTextContent('45.678');
    expect(screen.getByTestId('kpi-pointsReturnedLast30Days')).toHaveTextContent('1.250');
    expect(screen.getByText('Puntos devueltos (30 días)')).toBeInTheDocument();
    expect(screen.getByText('Clientes')).toBeInTheDocument();
    expect(screen.getByText('Puntos acreditados (30 días)')).toBeInTheDocument();
    expect(await screen.findByRole('img', { name: /acreditados \(verde\), redimidos \(rojo\) y devueltos \(ámbar\)/ })).toBeInTheDocument();
  });

  it('offers a retry when the figures cannot load', async () => {
    mockApi(routes({ 'GET /api/stats/dashboard': { status: 500, body: { message: 'boom' } } }));
    renderApp('/main', { preloadedState: loggedInState(cajero, { locale: 'en' }) });
    expect(await screen.findByRole('alert')).toHaveTextContent('The dashboard figures could not be loaded.');
    expect(screen.getByRole('button', { name: 'Try again' })).toBeInTheDocument();
  });

  it('explains that scanning is not available yet', async () => {
    mockApi(routes());
    const { user } = renderApp('/main', asCajero);
    await user.click(await screen.findByRole('button', { name: 'Escanear' }));
    const dialog = screen.getByRole('dialog', { name: 'Escanear tarjeta' });
    expect(dialog).toHaveTextContent('El escaneo todavía no está disponible.');
  });

  it('keeps quick redeem disabled until a product or valid points are chosen', async () => {
    const { user, panel } = await quickRedeemWithCustomer();
    const submit = within(panel).getByRole('button', { name: 'Redimir' });
    expect(submit).toBeDisabled();
    await user.type(within(panel).getByLabelText('Puntos a redimir'), '6000');
    expect(submit).toBeDisabled();
    await user.clear(within(panel).getByLabelText('Puntos a redimir'));
    await user.type(within(panel).getByLabelText('Puntos a redimir'), '100');
    expect(submit).toBeEnabled();
    await user.clear(within(panel).getByLabelText('Puntos a redimir'));
    expect(submit).toBeDisabled();
    await user.click(within(panel).getByRole('button', { name: /Taza de cerámica/ }));
    expect(submit).toBeEnabled();
  });

  it('searches quick redeem products by name over all matches', async () => {
    const { user, panel } = await quickRedeemWithCustomer();
    await user.type(within(panel).getByRole('searchbox'), 'termo');
    await waitFor(() =>
      expect(within(panel).getAllByRole('button', { pressed: false }).map((b) => b.textContent)).toEqual([
        expect.stringContaining('Termo de acero'),
      ]),
    );
  });

  it('has a quick accredit panel with its own lookup', async () => {
    mockApi(routes());
    renderApp('/main', asCajero);
    const panel = await screen.findByRole('region', { name: 'Acreditación rápida' });
    expect(within(panel).getByLabelText('Documento del cliente')).toBeInTheDocument();
    expect(within(panel).getByRole('button', { name: 'Acreditar puntos' })).toBeDisabled();
  });
});
