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
 *
 * A full reading counts every table (about 0.1 s on the demo organisation), so opening a footprint
 * also gives each counted table a trigger that draws a number from a sequence on every row written and
 * every truncate. A sequence ignores rollbacks and snapshots, so when its value is the one drawn just
 * before the last full reading, nothing has been written since: any write after that draw drew again,
 * and one before it came from a transaction either committed before that reading (so counted in it) or
 * unseen by it (see `last` below; one of those committing since forces a full reading). Most attacks
 * write nothing, and so cost two small queries instead of a count of every table.
 */
export async function openFootprint(ownerUrl: string) {
  const client = new pg.Client({ connectionString: ownerUrl });
  await client.connect();
  const { rows } = await client.query<{ name: string; partition: boolean }>(`
    select format('%I.%I', table_schema, table_name) as name,
      coalesce((select c.relispartition from pg_class c where c.oid = format('%I.%I', table_schema, table_name)::regclass), false) as partition
    from information_schema.tables
    where table_type = 'BASE TABLE' and table_schema not in ('pg_catalog', 'information_schema') order by 1`);
  const tables = rows.map((r) => r.name).filter((n) => !(n.replaceAll('"', '') in NOT_COUNTED));
  const tracked = await trackWrites(
    client,
    rows.filter((r) => !r.partition && !(r.name.replaceAll('"', '') in NOT_COUNTED)).map((r) => r.name),
  );
  // Row -1 is the snapshot the statement read with (one statement, one snapshot).
  const query = [
    `select -1 as i, 0 as rows, pg_current_snapshot()::text as digest`,
    ...tables.map((t, i) => `select ${i} as i, count(*)::int as rows, coalesce(max(x.xmin::text::bigint), 0)::text as digest from ${t} x`),
  ].join(' union all ');
  const draws = async () =>
    (await client.query<{ n: string }>(`select (last_value * is_called::int)::text as n from ${WRITES_SEQUENCE}`)).rows[0]!.n;
  /**
   * `running`, `from` and `to`: the transactions the last full reading could not see that may have written before its
   * draw: those its snapshot lists as running, and those numbered from its snapshot's xmax up to a
   * transaction id taken after the reading (xmax is one past the newest *completed* one, so a running
   * transaction at or above it is not listed).
   */
  let last: { draws: string; running: string[]; from: string; to: string; footprint: Footprint } | null = null;

  return {
    tables,
    async read(): Promise<Footprint> {
      const drawn = tracked ? await draws() : '';
      if (last && tracked && drawn === last.draws) {
        const committed = (
          await client.query<{ any: boolean }>(
            `select coalesce(bool_or(pg_xact_status(x) = 'committed'), false) as any from (
               select unnest($1::text[])::xid8 as x
               union all select g::text::xid8 from generate_series($2::bigint, $3::bigint - 1) g) unseen`,
            [last.running, last.from, last.to],
          )
        ).rows[0]!.any;
        if (!committed) return new Map(last.footprint);
      }
      const result = await client.query<{ i: number; rows: number; digest: string }>(query);
      const after = (await client.query<{ id: string }>('select pg_current_xact_id()::text as id')).rows[0]!.id;
      // With many tables PostgreSQL runs the union as a Parallel Append, whose rows come back in any
      // order: the reading is kept in the tables' order, so two readings list their changes alike.
      const byIndex = new Map(result.rows.map((r) => [r.i, r]));
      const footprint: Footprint = new Map(
        tables.map((name, i) => {
          const r = byIndex.get(i)!;
          return [name, { rows: r.rows, digest: r.digest }];
        }),
      );
      const [, xmax = '0', running = ''] = byIndex.get(-1)!.digest.split(':');
      last = { draws: drawn, running: running.split(',').filter(Boolean), from: xmax, to: after, footprint };
      return new Map(footprint);
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

const WRITES_SEQUENCE = 'public.footprint_writes';

/**
 * The sequence and triggers of a footprint's fast path (test databases only). A partition takes its
 * parent's row trigger. Returns false, and the footprint counts every table at every reading, when a
 * table refuses a trigger.
 */
async function trackWrites(client: pg.Client, tables: string[]): Promise<boolean> {
  await client.query(`create sequence if not exists ${WRITES_SEQUENCE};
    create or replace function public.footprint_write() returns trigger language plpgsql security definer as $$
    begin perform nextval('${WRITES_SEQUENCE}'); return null; end $$;`);
  try {
    for (const table of tables) {
      await client.query(`drop trigger if exists footprint_rows on ${table};
        drop trigger if exists footprint_truncate on ${table};
        create trigger footprint_rows after insert or update or delete on ${table} for each row execute function public.footprint_write();
        create trigger footprint_truncate after truncate on ${table} for each statement execute function public.footprint_write();`);
    }
    return true;
  } catch {
    return false;
  }
}
