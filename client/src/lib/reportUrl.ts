// The transaction report's filters in the URL (docs/points.md, "The report's address"): read when
// /reportes loads and written as they change, so a filtered report survives a reload and can be
// linked (the alerts screen links each alert to its rows). Only set values are written, under the
// API's own parameter names; anything malformed in a typed or old address is ignored.

import { LIST_DEFAULT_PAGE_SIZE, LIST_PAGE_SIZES } from './constants';
import { paths } from './paths';
import type { TransactionType } from './types';

export const TRANSACTION_TYPES: readonly TransactionType[] = ['accreditation', 'redemption', 'expiration', 'cancellation', 'return', 'forfeit', 'opening'];

export const REPORT_FILTER_KEYS = ['text', 'type', 'posId', 'cashier', 'customerId', 'invoiceReference', 'from', 'to'] as const;
export type ReportFilterKey = (typeof REPORT_FILTER_KEYS)[number];

/** Every filter as text; empty strings do not filter. Dates are local days, YYYY-MM-DD. */
export type ReportUrlFilters = Record<ReportFilterKey, string> & { type: TransactionType | '' };

export interface ReportUrlState {
  filters: ReportUrlFilters;
  page: number;
  pageSize: number;
}

/** The longest text a filter takes (the server refuses more). */
const MAX_TEXT = 100;

export const EMPTY_REPORT_FILTERS: ReportUrlFilters = {
  text: '',
  type: '',
  posId: '',
  cashier: '',
  customerId: '',
  invoiceReference: '',
  from: '',
  to: '',
};

function isDay(value: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(value)) return false;
  const [y, m, d] = value.split('-').map(Number) as [number, number, number];
  const date = new Date(Date.UTC(y, m - 1, d));
  return date.getUTCFullYear() === y && date.getUTCMonth() === m - 1 && date.getUTCDate() === d;
}

function isId(value: string): boolean {
  return /^[1-9]\d{0,17}$/.test(value);
}

function isType(value: string): value is TransactionType {
  return (TRANSACTION_TYPES as readonly string[]).includes(value);
}

/** A filter's value as the URL gives it, or '' when it is malformed. */
function filterValue(key: ReportFilterKey, raw: string): string {
  switch (key) {
    case 'type':
      return isType(raw) ? raw : '';
    case 'posId':
    case 'customerId':
      return isId(raw.trim()) ? raw.trim() : '';
    case 'from':
    case 'to':
      return isDay(raw.trim()) ? raw.trim() : '';
    case 'text':
      return raw.slice(0, MAX_TEXT);
    default:
      return raw.trim().slice(0, MAX_TEXT);
  }
}

/** The report's filters and page as the address gives them. */
export function reportStateFromSearch(search: URLSearchParams | string): ReportUrlState {
  const params = typeof search === 'string' ? new URLSearchParams(search) : search;
  const filters = { ...EMPTY_REPORT_FILTERS };
  for (const key of REPORT_FILTER_KEYS) {
    const raw = params.get(key);
    if (raw !== null) Object.assign(filters, { [key]: filterValue(key, raw) });
  }
  // A period given backwards is not one: drop its end.
  if (filters.from && filters.to && filters.to < filters.from) filters.to = '';
  const page = Number(params.get('page'));
  const pageSize = Number(params.get('pageSize'));
  return {
    filters,
    page: Number.isInteger(page) && page >= 1 && page <= 1_000_000 ? page : 1,
    pageSize: (LIST_PAGE_SIZES as readonly number[]).includes(pageSize) ? pageSize : LIST_DEFAULT_PAGE_SIZE,
  };
}

/** The address's query for these filters: only set values; page 1 and the default page size left out. */
export function reportSearch(state: { filters: Partial<ReportUrlFilters>; page?: number; pageSize?: number }): URLSearchParams {
  const params = new URLSearchParams();
  for (const key of REPORT_FILTER_KEYS) {
    const value = state.filters[key];
    if (value !== undefined && value.trim() !== '') params.set(key, value);
  }
  if (state.page !== undefined && state.page > 1) params.set('page', String(state.page));
  if (state.pageSize !== undefined && state.pageSize !== LIST_DEFAULT_PAGE_SIZE) params.set('pageSize', String(state.pageSize));
  return params;
}

/** A link to the report filtered by `filters`. */
export function reportLink(filters: Partial<ReportUrlFilters>): string {
  const query = reportSearch({ filters }).toString();
  return query ? `${paths.reports}?${query}` : paths.reports;
}
