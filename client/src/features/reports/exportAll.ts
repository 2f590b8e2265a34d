// Every transaction matching the report's filters, not only the page shown: pages through the
// server's search 50 at a time (its largest page size).

import type { AppDispatch } from '../../app/store';
import type { Transaction } from '../../lib/types';
import { reportsApi, type ReportFilters } from './reportsApi';

export const EXPORT_PAGE_SIZE = 50;

export interface ExportProgress {
  loaded: number;
  total: number;
}

/**
 * Fetches all rows newest first. Rows posted while it runs push older rows to later pages, so a
 * row can come twice but none is missed; duplicates are dropped by id.
 */
export async function fetchAllTransactions(
  dispatch: AppDispatch,
  filters: ReportFilters,
  onProgress?: (progress: ExportProgress) => void,
  signal?: AbortSignal,
): Promise<Transaction[]> {
  const seen = new Set<number>();
  const rows: Transaction[] = [];
  let total = Number.POSITIVE_INFINITY;
  for (let page = 1; (page - 1) * EXPORT_PAGE_SIZE < total; page += 1) {
    if (signal?.aborted) throw new DOMException('Export cancelled', 'AbortError');
    const request = dispatch(
      reportsApi.endpoints.searchTransactions.initiate(
        { ...filters, page, pageSize: EXPORT_PAGE_SIZE },
        { subscribe: false, forceRefetch: true },
      ),
    );
    const result = await request.unwrap();
    total = result.total;
    for (const row of result.items) {
      if (!seen.has(row.id)) {
        seen.add(row.id);
        rows.push(row);
      }
    }
    onProgress?.({ loaded: rows.length, total });
    if (result.items.length === 0) break;
  }
  return rows;
}
