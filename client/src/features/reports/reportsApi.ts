// The transaction report: the paged, filtered search (GET /api/transactions/search), the void
// (POST /api/transactions/{id}/void), the return (POST /api/transactions/{id}/return) and the
// users behind the cashier filter.

import { api, listTags } from '../../app/api';
import { listQuery } from '../../app/entityEndpoints';
import { normalizeTransaction, type PostingResult } from '../points';
import { EMPTY_REPORT_FILTERS, type ReportUrlFilters } from '../../lib/reportUrl';
import type { Paged, Role, Transaction } from '../../lib/types';

/**
 * The report's filters; empty strings do not filter. Dates are local days, YYYY-MM-DD. The
 * customer and the invoice reference come from links (an alert's), not from the filter bar.
 */
export type ReportFilters = ReportUrlFilters;

export const EMPTY_FILTERS: ReportFilters = EMPTY_REPORT_FILTERS;

export interface SearchArgs extends ReportFilters {
  page: number;
  pageSize: number;
}

export interface VoidArgs {
  id: number;
  /** A cajero's void carries a supervisor's (or admin's) credentials. */
  supervisorUsername?: string;
  supervisorPassword?: string;
  idempotencyKey: string;
}

export interface ReturnArgs {
  /** The accreditation's id. */
  id: number;
  returnedAmount: number;
  invoiceReference?: string;
  /** A cajero's return carries a supervisor's (or admin's) credentials. */
  supervisorUsername?: string;
  supervisorPassword?: string;
  idempotencyKey: string;
}

/** The totals of every row the filters match (voided rows left out). */
export interface ReportTotals {
  pointsAccredited: number;
  pointsRedeemed: number;
  invoiceAmount: number;
  redeemedValue: number;
  /** Points the returns took back (a figure of its own, not netted from the accredited). */
  pointsReturned: number;
  /** The pesos of the invoices given back by the returns. */
  returnedAmount: number;
}

export interface ReportUser {
  id: number;
  username: string;
  role: Role;
}

/** The query string of a search: only the filters that are set. */
export function searchParams({ page, pageSize, ...filters }: SearchArgs): Record<string, string> {
  const params: Record<string, string> = { page: String(page), pageSize: String(pageSize) };
  for (const [key, value] of Object.entries(filters)) {
    const trimmed = value.trim();
    if (trimmed !== '') params[key] = trimmed;
  }
  return params;
}

export const reportsApi = api.injectEndpoints({
  endpoints: (build) => ({
    searchTransactions: build.query<Paged<Transaction>, SearchArgs>({
      query: (args) => ({ url: '/transactions/search', params: searchParams(args) }),
      transformResponse: (page: Paged<Transaction>) => ({ ...page, items: page.items.map(normalizeTransaction) }),
      providesTags: (result) => listTags('Transaction', result?.items),
    }),
    /** The totals of every row the filters match, not only the page shown. */
    getTransactionTotals: build.query<ReportTotals, ReportFilters>({
      query: (filters) => ({ url: '/transactions/totals', params: searchParams({ ...filters, page: 1, pageSize: 10 }) }),
      providesTags: [{ type: 'Transaction', id: 'LIST' }],
    }),
    /** The name matters: a 401 here (wrong supervisor credentials) does not end the session. */
    voidTransaction: build.mutation<{ message: string }, VoidArgs>({
      query: ({ id, idempotencyKey, supervisorUsername, supervisorPassword }) => ({
        url: `/transactions/${id}/void`,
        method: 'POST',
        headers: { 'Idempotency-Key': idempotencyKey },
        body: supervisorUsername !== undefined ? { supervisorUsername, supervisorPassword } : {},
      }),
      // Voiding changes the balance, the ledger and the figures: reload them all.
      invalidatesTags: (_result, error) =>
        error ? [] : ['Transaction', 'Customer', { type: 'Stats', id: 'DASHBOARD' }],
    }),
    /** As the void: a 401 here (wrong supervisor credentials) does not end the session. */
    returnTransaction: build.mutation<PostingResult, ReturnArgs>({
      query: ({ id, idempotencyKey, ...body }) => ({
        url: `/transactions/${id}/return`,
        method: 'POST',
        headers: { 'Idempotency-Key': idempotencyKey },
        body,
      }),
      transformResponse: (posting: PostingResult) => ({ ...posting, newTransaction: normalizeTransaction(posting.newTransaction) }),
      invalidatesTags: (_result, error) =>
        error ? [] : ['Transaction', 'Customer', { type: 'Stats', id: 'DASHBOARD' }],
    }),
    /** Users for the cashier filter (admins and supervisors may list them). */
    getReportUsers: listQuery<ReportUser>(build, '/users', 'User'),
  }),
});

export const {
  useSearchTransactionsQuery,
  useGetTransactionTotalsQuery,
  useVoidTransactionMutation,
  useReturnTransactionMutation,
  useGetReportUsersQuery,
} = reportsApi;
