import { describe, expect, it } from 'vitest';
import { SEARCH_COUNT_CAP, searchPagination, searchTotal } from './shared.js';

describe('a search counted up to SEARCH_COUNT_CAP (issue 13)', () => {
  it('is exact under the cap', () => {
    expect(searchTotal(40, false, 0, 15, 15)).toEqual({ total: 40, totalCapped: false });
    expect(searchPagination(40, false, 1, 15)).toEqual({ page: 1, per_page: 15, total: 40, total_pages: 3, total_capped: false });
  });

  it('past the cap: a lower bound, with the next page known to exist', () => {
    expect(searchTotal(SEARCH_COUNT_CAP + 1, true, 0, 15, 15)).toEqual({ total: 1000, totalCapped: true });
    // 1,001 rows at least: page 67 holds rows 991-1,005, so it is the last page known.
    expect(searchPagination(1000, true, 1, 15).total_pages).toBe(67);
    expect(searchPagination(1000, true, 1, 50).total_pages).toBe(21);
    // Deeper than the cap, a full page says "at least this page, and one more".
    expect(searchTotal(SEARCH_COUNT_CAP + 1, true, 1500, 50, 50)).toEqual({ total: 1550, totalCapped: true });
    expect(searchPagination(1550, true, 31, 50).total_pages).toBe(32);
  });

  it('a short page ends the list; an empty one keeps the lower bound', () => {
    expect(searchTotal(SEARCH_COUNT_CAP + 1, true, 1500, 50, 7)).toEqual({ total: 1507, totalCapped: false });
    expect(searchTotal(SEARCH_COUNT_CAP + 1, true, 90_000, 50, 0)).toEqual({ total: 1000, totalCapped: true });
  });
});
