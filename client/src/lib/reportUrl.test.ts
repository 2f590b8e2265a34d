// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { EMPTY_REPORT_FILTERS, reportLink, reportSearch, reportStateFromSearch } from './reportUrl';

describe('the report’s filters in the URL', () => {
  it('reads every filter and the page from the address', () => {
    const state = reportStateFromSearch(
      '?text=ana&type=return&posId=3&cashier=caja1&customerId=42&invoiceReference=FAC-9&from=2026-03-01&to=2026-03-09&page=2&pageSize=25',
    );
    expect(state).toEqual({
      filters: {
        text: 'ana',
        type: 'return',
        posId: '3',
        cashier: 'caja1',
        customerId: '42',
        invoiceReference: 'FAC-9',
        from: '2026-03-01',
        to: '2026-03-09',
      },
      page: 2,
      pageSize: 25,
    });
  });

  it('starts unfiltered on page 1 of 10 without parameters', () => {
    expect(reportStateFromSearch('')).toEqual({ filters: EMPTY_REPORT_FILTERS, page: 1, pageSize: 10 });
  });

  it('ignores what is malformed instead of sending it to the server', () => {
    const state = reportStateFromSearch(
      '?type=gift&posId=abc&customerId=-4&from=2026-02-30&to=yesterday&page=0&pageSize=20&unknown=1',
    );
    expect(state).toEqual({ filters: EMPTY_REPORT_FILTERS, page: 1, pageSize: 10 });
    expect(reportStateFromSearch('?from=2026-03-09&to=2026-03-01').filters).toMatchObject({ from: '2026-03-09', to: '' });
    expect(reportStateFromSearch(`?text=${'x'.repeat(150)}`).filters.text).toHaveLength(100);
  });

  it('writes only the set filters, and neither page 1 nor the default page size', () => {
    const written = reportSearch({ filters: { ...EMPTY_REPORT_FILTERS, type: 'redemption', from: '2026-03-01' }, page: 1, pageSize: 10 });
    expect(written.toString()).toBe('type=redemption&from=2026-03-01');
    expect(reportSearch({ filters: EMPTY_REPORT_FILTERS, page: 3, pageSize: 50 }).toString()).toBe('page=3&pageSize=50');
  });

  it('reads back what it wrote', () => {
    const state = {
      filters: { ...EMPTY_REPORT_FILTERS, text: 'Gómez & hijos', cashier: 'caja1', invoiceReference: 'FAC 9/10', to: '2026-03-09' },
      page: 4,
      pageSize: 25,
    };
    expect(reportStateFromSearch(reportSearch(state))).toEqual(state);
  });

  it('links to /reportes with the filters', () => {
    expect(reportLink({ customerId: '7', from: '2026-03-09', to: '2026-03-09' })).toBe('/reportes?customerId=7&from=2026-03-09&to=2026-03-09');
    expect(reportLink({})).toBe('/reportes');
  });
});
