// The audit trail (GET /api/audit): one page, filtered by actor, action and local days.

import { api } from '../../app/api';
import type { AuditPage } from '../../lib/types';

/** The trail's filters; empty strings do not filter. Dates are local days, YYYY-MM-DD. */
export interface AuditFilters {
  actor: string;
  action: string;
  from: string;
  to: string;
}

export const EMPTY_AUDIT_FILTERS: AuditFilters = { actor: '', action: '', from: '', to: '' };

export interface AuditArgs extends AuditFilters {
  page: number;
  pageSize: number;
}

/** The query string of a search: only the filters that are set. */
export function auditParams({ page, pageSize, ...filters }: AuditArgs): Record<string, string> {
  const params: Record<string, string> = { page: String(page), pageSize: String(pageSize) };
  for (const [key, value] of Object.entries(filters)) {
    const trimmed = value.trim();
    if (trimmed !== '') params[key] = trimmed;
  }
  return params;
}

export const auditApi = api.injectEndpoints({
  endpoints: (build) => ({
    searchAudit: build.query<AuditPage, AuditArgs>({
      query: (args) => ({ url: '/audit', params: auditParams(args) }),
      // Every change elsewhere may add an entry: always read the trail afresh.
      keepUnusedDataFor: 0,
    }),
  }),
});

export const { useSearchAuditQuery } = auditApi;
