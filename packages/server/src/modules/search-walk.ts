import { sql, type SQL } from 'drizzle-orm';
import type { Tx } from '../platform/db/db.js';

/**
 * A page of a common word's matches (issue 13), read in the list's order: the list's rows of its other
 * filters in index order, the first `window` of them, each tested against the keywords, the page taken
 * from those that match. Under row-level security the planner cannot estimate the keywords (ILIKE is not
 * leakproof) and guesses them rare, so with the test in the same WHERE it would rather read every row
 * and sort than walk the index; tested outside the window's LIMIT, the walk is what it plans.
 *
 * `rows(window)` is the windowed statement (a subquery answering `key` and `hit`, in order, at most
 * `window` rows); `seen(window)` counts the rows the same filters give, up to `window`. A short page
 * whose window was full reads again with a window eight times wider, until the filters' rows end.
 */
export async function walkPage<K>(
  tx: Tx,
  rows: (window: number) => SQL,
  seen: (window: number) => SQL,
  limit: number,
  offset: number,
): Promise<K[]> {
  for (let window = Math.max(4_096, 8 * (offset + limit)); ; window *= 8) {
    const page = await tx.execute<{ key: K }>(sql`select w.key from (${rows(window)}) w where w.hit limit ${limit} offset ${offset}`);
    if (page.rows.length === limit) return page.rows.map((r) => r.key);
    const counted = await tx.execute<{ n: number }>(sql`select count(*)::integer as n from (${seen(window)}) s`);
    if ((counted.rows[0]?.n ?? 0) < window) return page.rows.map((r) => r.key);
  }
}

/**
 * Ids or serials as one array parameter (`${arrayParam(ids)}::uuid[]`): drizzle spreads a JavaScript array
 * into one parameter per element. Only for keys read from the database (uuids, integers): no quoting.
 */
export function arrayParam(keys: readonly (string | number)[]): string {
  return `{${keys.join(',')}}`;
}
