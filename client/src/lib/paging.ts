// Paging and search rules shared by every list screen (docs/screens.md, "Lists"):
// a page beyond the total snaps to the last page, changing the page size resets to page 1,
// page changes outside 1..total are ignored.

export function totalPages(total: number, pageSize: number): number {
  if (pageSize <= 0) return 1;
  return Math.max(1, Math.ceil(Math.max(0, total) / pageSize));
}

/** The page actually shown: within 1..totalPages (a page beyond the total snaps to the last). */
export function clampPage(page: number, total: number, pageSize: number): number {
  const last = totalPages(total, pageSize);
  if (!Number.isFinite(page) || page < 1) return 1;
  return Math.min(Math.floor(page), last);
}

/** The page after a requested change; a request outside 1..totalPages keeps the current page. */
export function requestPage(current: number, requested: number, total: number, pageSize: number): number {
  const last = totalPages(total, pageSize);
  if (!Number.isInteger(requested) || requested < 1 || requested > last) return current;
  return requested;
}

export interface PageRange {
  /** 1-based index of the first item shown, 0 when there is nothing. */
  start: number;
  /** 1-based index of the last item shown, 0 when there is nothing. */
  end: number;
  total: number;
  page: number;
  totalPages: number;
  hasPrevious: boolean;
  hasNext: boolean;
}

export function pageRange(page: number, total: number, pageSize: number): PageRange {
  const pages = totalPages(total, pageSize);
  const current = clampPage(page, total, pageSize);
  const start = total === 0 ? 0 : (current - 1) * pageSize + 1;
  const end = total === 0 ? 0 : Math.min(current * pageSize, total);
  return { start, end, total, page: current, totalPages: pages, hasPrevious: current > 1, hasNext: current < pages };
}

export function slicePage<T>(items: readonly T[], page: number, pageSize: number): T[] {
  const current = clampPage(page, items.length, pageSize);
  return items.slice((current - 1) * pageSize, current * pageSize);
}

/** Case-insensitive substring search over some fields; an empty query matches everything. */
export function matchesSearch(query: string, ...fields: (string | number | null | undefined)[]): boolean {
  const needle = query.trim().toLocaleLowerCase();
  if (needle === '') return true;
  return fields.some((field) => field != null && String(field).toLocaleLowerCase().includes(needle));
}

/** Alphabetical order by a display name, ignoring case and accents. */
export function byName<T>(name: (item: T) => string): (a: T, b: T) => number {
  const collator = new Intl.Collator('es', { sensitivity: 'base', numeric: true });
  return (a, b) => collator.compare(name(a), name(b));
}
