/**
 * The "same SQL" of the bare baselines. The bench calls the real route's own service function (the one
 * the handler calls, e.g. listObservations) in a real tenant transaction on the app role, with drizzle's
 * logger recording every statement and its parameters. The baseline server then replays exactly those
 * statements, with the tenant wall written into them instead of enforced by row-level security.
 *
 * Why capture and replay rather than calling the service from the baseline: the services never name the
 * organisation (row-level security adds it), so on the owner connection, which bypasses the wall, they
 * would read every organisation's rows: more work, different plans, not the same SQL at all.
 */
import pg from 'pg';
import * as schema from '../../packages/server/src/platform/db/schema.js';
import { inTenant, type Tx } from '../../packages/server/src/platform/db/db.js';
// The modules register their action-source hooks on import, as they do in the server.
import '../../packages/server/src/modules/index.js';
import { drizzle } from './drizzle.js';

export type Statement = { text: string; params: unknown[] };

/** Runs `fn` as the app runs it (inTenant on the app role) and returns the statements it issued. */
export async function captureStatements(appUrl: string, organizationId: string, fn: (tx: Tx) => Promise<unknown>): Promise<Statement[]> {
  const pool = new pg.Pool({ connectionString: appUrl, max: 1 });
  const seen: Statement[] = [];
  try {
    const db = drizzle(pool, {
      schema,
      logger: { logQuery: (text: string, params: unknown[]) => seen.push({ text, params: [...params] }) },
    });
    await inTenant(db, organizationId, fn);
  } finally {
    await pool.end();
  }
  // The tenant setting and the transaction are the wall's machinery, not the route's SQL.
  return seen.filter((s) => !/^\s*(begin|commit|rollback)\b/i.test(s.text) && !/set_config\('app\./.test(s.text));
}

/** How row-level security walls each table: the column its policy compares with app_current_org(). */
export async function walledTables(ownerUrl: string): Promise<Map<string, string>> {
  const client = new pg.Client({ connectionString: ownerUrl });
  await client.connect();
  try {
    const rows = await client.query<{ table: string; column: string }>(`
      select c.relname as table, case when c.relname = 'organizations' then 'id' else 'organization_id' end as column
      from pg_class c join pg_namespace n on n.oid = c.relnamespace
      where n.nspname = 'public' and c.relkind = 'r' and c.relrowsecurity`);
    return new Map(rows.rows.map((r) => [r.table, r.column]));
  } finally {
    await client.end();
  }
}

/** `from|join "table"` with its alias, quoted (drizzle's aliases) or bare (hand-written SQL), if any. */
const TABLE_REFERENCE = new RegExp(
  String.raw`\b(from|join)\s+"([a-z_]+)"(\s+(?:as\s+)?(?:"([a-z_]+)"|(?!(?:where|on|inner|left|right|full|cross|join|group|order|limit|offset|union|for|using|natural|lateral)\b)([a-z_][a-z0-9_]*)))?`,
  'gi',
);

/**
 * The statement with the wall written in: every walled table it reads becomes
 * `(select * from "t" where "organization_id" = $n) "t"`, which is what the policy does to the scan,
 * and app_current_org() becomes $n. `$n` is a new last parameter: the organisation id.
 */
export function explicitTenant(s: Statement, walled: Map<string, string>): { text: string; orgParam: number } {
  const orgParam = s.params.length + 1;
  const p = `$${orgParam}`;
  const text = s.text
    .replace(
      TABLE_REFERENCE,
      (whole, kw: string, table: string, _alias: string | undefined, quoted: string | undefined, bare: string | undefined) => {
        const column = walled.get(table);
        if (!column) return whole;
        return `${kw} (select * from "${table}" where "${column}" = ${p}::uuid) "${quoted ?? bare ?? table}"`;
      },
    )
    .replace(/app_current_org\(\)/g, `${p}::uuid`);
  // A statement reading no walled table (a catalogue estimate) takes no organisation: 0 says so.
  return { text, orgParam: text.includes(p) ? orgParam : 0 };
}
