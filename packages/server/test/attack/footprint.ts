import pg from 'pg';

/**
 * Tables a request may legitimately write even when it is refused; each is left out of the footprint
 * for the reason given. Everything else, in every schema of the database, is counted.
 */
export const NOT_COUNTED: Record<string, string> = {
  'public.rate_limits': 'public routes count each attempt per address or account before reading the input, so a refused request counts too',
};

/**
 * Rows and the newest row version of one table: a refused request must leave both as they were. Every
 * insert or update makes a row version stamped with its transaction (`xmin`), later than any before,
 * and a delete lowers the count, so the pair changes whenever the table is written.
 */
export type TableState = { rows: number; digest: string };
export type Footprint = Map<string, TableState>;

/**
 * Reads every table through the owner connection (which row-level security does not hide), so a row
 * written in any organisation, by any module, shows.
 */
export async function openFootprint(ownerUrl: string) {
  const client = new pg.Client({ connectionString: ownerUrl });
  await client.connect();
  const { rows } = await client.query<{ name: string }>(`
    select format('%I.%I', table_schema, table_name) as name from information_schema.tables
    where table_type = 'BASE TABLE' and table_schema not in ('pg_catalog', 'information_schema') order by 1`);
  const tables = rows.map((r) => r.name).filter((n) => !(n.replaceAll('"', '') in NOT_COUNTED));
  const query = tables
    .map((t, i) => `select ${i} as i, count(*)::int as rows, coalesce(max(x.xmin::text::bigint), 0)::text as digest from ${t} x`)
    .join(' union all ');

  return {
    tables,
    async read(): Promise<Footprint> {
      const result = await client.query<{ i: number; rows: number; digest: string }>(query);
      // With many tables PostgreSQL runs the union as a Parallel Append, whose rows come back in any
      // order: the reading is kept in the tables' order, so two readings list their changes alike.
      const byIndex = new Map(result.rows.map((r) => [r.i, r]));
      return new Map(
        tables.map((name, i) => {
          const r = byIndex.get(i)!;
          return [name, { rows: r.rows, digest: r.digest }];
        }),
      );
    },
    /**
     * Counts rows of the given tables in which some value, at any depth (jsonb included), is exactly
     * `text`: how a test proves a text was stored byte for byte.
     */
    async rowsHolding(names: string[], text: string): Promise<number> {
      let found = 0;
      for (const name of names) {
        const r = await client.query<{ n: number }>(
          `select count(*)::int as n from ${name} x where jsonb_path_exists(to_jsonb(x), 'strict $.** ? (@ == $v)', jsonb_build_object('v', $1::text))`,
          [text],
        );
        found += r.rows[0]?.n ?? 0;
      }
      return found;
    },
    close: () => client.end(),
  };
}

export type FootprintReader = Awaited<ReturnType<typeof openFootprint>>;

/** Tables whose rows or content differ between two readings, with the change in row count. */
export function changes(before: Footprint, after: Footprint): Map<string, number> {
  const out = new Map<string, number>();
  for (const [name, a] of after) {
    const b = before.get(name);
    if (!b || b.rows !== a.rows || b.digest !== a.digest) out.set(name, a.rows - (b?.rows ?? 0));
  }
  return out;
}

export function describeChanges(c: Map<string, number>): string {
  return [...c].map(([t, d]) => `${t} (${d >= 0 ? '+' : ''}${d} rows)`).join(', ') || 'nothing';
}
