import { api } from '../../app/api';
import type { CompanyStatsPage, StatsRefresh } from '../../lib/types';

/** The columns the operator's view sorts by, as the API names them. */
export const STATS_SORTS = [
  'name',
  'prefix',
  'schemaVersion',
  'sizeBytes',
  'customers',
  'transactions30d',
  'lastActivityAt',
  'computedAt',
] as const;

export type StatsSort = (typeof STATS_SORTS)[number];
export type SortOrder = 'asc' | 'desc';

export interface StatsRequest {
  sort: StatsSort;
  order: SortOrder;
  page: number;
  pageSize: number;
  q: string;
}

/** Every page of the view shows the figures of the last computation: a refresh, or a company
 * created or deleted, makes them stale. */
const statsTags = [
  { type: 'Company', id: 'STATS' },
  { type: 'Company', id: 'LIST' },
] as const;

export const companyStatsApi = api.injectEndpoints({
  endpoints: (build) => ({
    getCompanyStats: build.query<CompanyStatsPage, StatsRequest>({
      query: ({ sort, order, page, pageSize, q }) => ({
        url: '/super/company-stats',
        params: { sort, order, page, pageSize, ...(q.trim() ? { q: q.trim() } : {}) },
      }),
      providesTags: [...statsTags],
    }),
    refreshCompanyStats: build.mutation<StatsRefresh, void>({
      query: () => ({ url: '/super/company-stats/refresh', method: 'POST' }),
      invalidatesTags: [{ type: 'Company', id: 'STATS' }],
    }),
  }),
});

export const { useGetCompanyStatsQuery, useRefreshCompanyStatsMutation } = companyStatsApi;

/** Bytes as the operator reads them: B, kB, MB, GB or TB, in the interface's number format. */
export function formatBytes(bytes: number, locale: string): string {
  const units = ['byte', 'kilobyte', 'megabyte', 'gigabyte', 'terabyte'] as const;
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit += 1;
  }
  return new Intl.NumberFormat(locale, {
    style: 'unit',
    unit: units[unit],
    unitDisplay: 'short',
    maximumFractionDigits: unit === 0 ? 0 : 1,
  }).format(value);
}
