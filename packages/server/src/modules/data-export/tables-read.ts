import { sql } from 'drizzle-orm';
import type { Db, Tx } from '../../platform/db/db.js';

/**
 * What the export reads: every table of the database that holds an organisation's rows (an
 * `organization_id` column; row-level security keeps each read to the exporting organisation), and the
 * organisation's own row. Found in the catalogue, so a module's new table is exported the day it lands.
 */

/** Secrets never leave: password and token hashes, sealed secrets, PKCE verifiers and nonces. */
const SECRET_COLUMN = /(^|_)(password|secret|hash|verifier|nonce)(_|$)|_enc$/;

export function isSecretColumn(name: string): boolean {
  return SECRET_COLUMN.test(name);
}

export type ExportTable = { name: string; columns: string[]; redacted: string[] };

/** Every tenant table with its columns in order; the organisations table (the organisation's own row) first. */
export async function exportTables(db: Db | Tx): Promise<ExportTable[]> {
  const result = await db.execute<{ table_name: string; columns: string[] }>(sql`
    select c.table_name, array_agg(c.column_name::text order by c.ordinal_position) as columns
    from information_schema.columns c
    join information_schema.tables t on t.table_schema = c.table_schema and t.table_name = c.table_name and t.table_type = 'BASE TABLE'
    where c.table_schema = 'public'
      and (c.table_name = 'organizations' or c.table_name in (
        select table_name from information_schema.columns where table_schema = 'public' and column_name = 'organization_id'))
    group by c.table_name
    order by c.table_name <> 'organizations', c.table_name`);
  return result.rows.map((r) => ({
    name: r.table_name,
    columns: r.columns.filter((c) => !isSecretColumn(c)),
    redacted: r.columns.filter(isSecretColumn),
  }));
}

/** The rows of one table the transaction's organisation owns (the organisations table: its own row). */
export function rowsQuery(table: ExportTable) {
  const columns = sql.join(
    table.columns.map((c) => sql.identifier(c)),
    sql`, `,
  );
  const own = table.name === 'organizations' ? sql`where id = app_current_org()` : sql`where organization_id = app_current_org()`;
  return sql`select ${columns} from ${sql.identifier(table.name)} ${own}`;
}
