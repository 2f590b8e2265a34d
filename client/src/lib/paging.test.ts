// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { byName, clampPage, matchesSearch, pageRange, requestPage, slicePage, totalPages } from './paging';

describe('paging rules', () => {
  it('counts pages, with at least one page for an empty list', () => {
    expect(totalPages(0, 10)).toBe(1);
    expect(totalPages(10, 10)).toBe(1);
    expect(totalPages(11, 10)).toBe(2);
    expect(totalPages(42, 25)).toBe(2);
  });

  it('snaps a page beyond the total to the last page', () => {
    expect(clampPage(5, 42, 10)).toBe(5);
    expect(clampPage(6, 42, 10)).toBe(5);
    expect(clampPage(9, 3, 10)).toBe(1);
    expect(clampPage(3, 0, 10)).toBe(1);
    expect(clampPage(0, 42, 10)).toBe(1);
  });

  it('ignores page changes outside 1..total', () => {
    expect(requestPage(1, 0, 42, 10)).toBe(1);
    expect(requestPage(5, 6, 42, 10)).toBe(5);
    expect(requestPage(2, -3, 42, 10)).toBe(2);
    expect(requestPage(2, 1.5, 42, 10)).toBe(2);
    expect(requestPage(2, 3, 42, 10)).toBe(3);
    expect(requestPage(2, 1, 42, 10)).toBe(1);
  });

  it("describes 'showing start-end of total' and the ends of the list", () => {
    expect(pageRange(1, 42, 10)).toEqual({ start: 1, end: 10, total: 42, page: 1, totalPages: 5, hasPrevious: false, hasNext: true });
    expect(pageRange(5, 42, 10)).toMatchObject({ start: 41, end: 42, hasPrevious: true, hasNext: false });
    expect(pageRange(9, 42, 10)).toMatchObject({ page: 5, start: 41, end: 42 });
    expect(pageRange(1, 0, 10)).toMatchObject({ start: 0, end: 0, total: 0, hasPrevious: false, hasNext: false });
  });

  it('slices the shown page', () => {
    const items = Array.from({ length: 12 }, (_, i) => i + 1);
    expect(slicePage(items, 1, 5)).toEqual([1, 2, 3, 4, 5]);
    expect(slicePage(items, 3, 5)).toEqual([11, 12]);
    expect(slicePage(items, 7, 5)).toEqual([11, 12]);
  });
});

describe('search and order', () => {
  it('matches a case-insensitive substring of any field', () => {
    expect(matchesSearch('DEMO', 'Tienda Demo', '900')).toBe(true);
    expect(matchesSearch('900', 'Tienda', '900123')).toBe(true);
    expect(matchesSearch('xyz', 'Tienda', null, undefined)).toBe(false);
    expect(matchesSearch('  ', 'anything')).toBe(true);
  });

  it('sorts by name ignoring case and accents', () => {
    const names = ['zeta', 'Beta', 'Ñandú', 'Álamo', 'alfa'];
    expect([...names].sort(byName((n: string) => n))).toEqual(['Álamo', 'alfa', 'Beta', 'Ñandú', 'zeta']);
  });
});
