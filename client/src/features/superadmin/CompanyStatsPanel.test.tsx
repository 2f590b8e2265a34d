import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { loggedInState, makeUser } from '../../test/fixtures';
import { mockApi, type MockRequest } from '../../test/mockApi';
import { renderApp } from '../../test/renderWithProviders';
import { formatBytes } from './companyStatsApi';

const superAdmin = makeUser('super_admin');
const asSuperAdmin = { preloadedState: loggedInState(superAdmin) };
const inEnglish = { preloadedState: loggedInState(superAdmin, { locale: 'en' }) };

/** `n` companies, company `i` having `10 * i` customers. */
function statsRow(i: number) {
  return {
    companyId: i,
    name: `Empresa ${String(i).padStart(2, '0')}`,
    prefix: `empresa${i}`,
    schemaVersion: 18,
    sizeBytes: 1_572_864 * i,
    customers: 10 * i,
    transactions30d: 100 + i,
    lastActivityAt: i === 3 ? null : '2026-11-20T15:00:00Z',
    computedAt: '2026-11-26T05:00:00Z',
  };
}

/** Answers the view like the server: sorted by `customers` or by name, paged, with totals. */
function statsRoute(count: number) {
  return (request: MockRequest) => {
    const params = request.url.searchParams;
    const page = Number(params.get('page'));
    const pageSize = Number(params.get('pageSize'));
    const rows = Array.from({ length: count }, (_, i) => statsRow(i + 1));
    if (params.get('sort') === 'customers') rows.sort((a, b) => a.customers - b.customers);
    if (params.get('order') === 'desc') rows.reverse();
    return {
      body: {
        items: rows.slice((page - 1) * pageSize, page * pageSize),
        total: count,
        page,
        pageSize,
        totals: {
          companies: count,
          customers: rows.reduce((sum, r) => sum + r.customers, 0),
          transactions30d: 1234,
          sizeBytes: 3 * 1024 ** 3,
          computedAt: '2026-11-26T05:00:00Z',
        },
      },
    };
  };
}

async function openFigures(user: ReturnType<typeof renderApp>['user'], label = 'Cifras por empresa') {
  await user.click(await screen.findByRole('button', { name: label }));
  return screen.findByRole('table');
}

const firstCells = (table: HTMLElement) =>
  within(table)
    .getAllByRole('rowheader')
    .map((cell) => cell.textContent);

describe('figures per company', () => {
  it('shows sizes in binary units in the interface number format', () => {
    expect(formatBytes(512, 'en-US')).toBe('512 byte');
    expect(formatBytes(1_572_864, 'en-US')).toBe('1.5 MB');
    expect(formatBytes(3 * 1024 ** 3, 'es-CO')).toMatch(/^3 GB$/);
  });

  it('lists a page of companies by name with the totals and when they were computed', async () => {
    const { requests } = mockApi({
      'GET /api/super/companies': { body: [] },
      'GET /api/super/company-stats': statsRoute(12),
    });
    const { user } = renderApp('/superadmin', asSuperAdmin);
    const table = await openFigures(user);
    await waitFor(() => expect(firstCells(table)).toHaveLength(10));
    expect(firstCells(table)[0]).toBe('Empresa 01');
    const asked = requests.find((r) => r.path === '/api/super/company-stats');
    expect(Object.fromEntries(asked!.url.searchParams)).toEqual({
      sort: 'name',
      order: 'asc',
      page: '1',
      pageSize: '10',
    });
    expect(within(table).getByRole('columnheader', { name: 'Empresa' })).toHaveAttribute('aria-sort', 'ascending');
    expect(within(table).getByRole('columnheader', { name: 'Clientes' })).not.toHaveAttribute('aria-sort');
    const totals = screen.getByRole('group', { name: 'Totales de la plataforma' });
    expect(within(totals).getByText('780')).toBeInTheDocument();
    expect(within(totals).getByText('1.234')).toBeInTheDocument();
    expect(screen.getByTestId('stats-computed-at')).toHaveTextContent('Cifras calculadas el');
    expect(screen.getByTestId('stats-range')).toHaveTextContent('Página 1 de 2 (12 empresas)');
    expect(within(table).getByText('Ninguna')).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Siguiente' }));
    await waitFor(() => expect(firstCells(table)).toEqual(['Empresa 11', 'Empresa 12']));
  });

  it('sorts by a figure from the largest first, then flips the order', async () => {
    const { requests } = mockApi({
      'GET /api/super/companies': { body: [] },
      'GET /api/super/company-stats': statsRoute(12),
    });
    const { user } = renderApp('/superadmin', inEnglish);
    const table = await openFigures(user, 'Figures per company');
    await user.click(within(table).getByRole('button', { name: 'Customers' }));
    await waitFor(() => expect(firstCells(table)[0]).toBe('Empresa 12'));
    const header = within(table).getByRole('columnheader', { name: 'Customers' });
    expect(header).toHaveAttribute('aria-sort', 'descending');
    expect(within(table).getByRole('columnheader', { name: 'Company' })).not.toHaveAttribute('aria-sort');
    await user.click(within(table).getByRole('button', { name: 'Customers' }));
    await waitFor(() => expect(firstCells(table)[0]).toBe('Empresa 01'));
    expect(header).toHaveAttribute('aria-sort', 'ascending');
    const sorts = requests
      .filter((r) => r.path === '/api/super/company-stats')
      .map((r) => `${r.url.searchParams.get('sort')} ${r.url.searchParams.get('order')}`);
    expect(sorts).toEqual(['name asc', 'customers desc', 'customers asc']);
  });

  it('computes the figures again on the button and reloads them', async () => {
    const { requests } = mockApi({
      'GET /api/super/companies': { body: [] },
      'GET /api/super/company-stats': statsRoute(2),
      'POST /api/super/company-stats/refresh': { body: { companies: 2, refreshed: 2, failed: 0 } },
    });
    const { user } = renderApp('/superadmin', inEnglish);
    await openFigures(user, 'Figures per company');
    await user.click(screen.getByRole('button', { name: 'Compute figures now' }));
    expect(await screen.findByText('Figures computed for 2 companies.')).toBeInTheDocument();
    await waitFor(() =>
      expect(requests.filter((r) => r.method === 'GET' && r.path === '/api/super/company-stats')).toHaveLength(2),
    );
  });
});
