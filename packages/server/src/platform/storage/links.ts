import type { FileLink } from '@bulwark/domain';
import { and, getTableName, sql, type SQL } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';
import type { Db, Tx } from '../db/db.js';
import { files } from '../db/schema.js';

/**
 * Which records link stored files. Each module whose records hold file ids registers the column that
 * holds them (at import time of its module.ts, like the read gates of gates.ts) and says what links a
 * file, for the admin's storage screen. Whether a file is linked at all is read from the database
 * itself: any column that references `files` keeps it, registered or not, so a module that forgets to
 * register costs the screen a description, never a file.
 */
export type FileLinkSource = {
  /** The column holding a linked file's id, in one of the organisation's (walled) tables. */
  column: PgColumn;
  /** What links each of these files (one entry per link), for the storage screen. */
  describe: (tx: Tx, fileIds: readonly string[]) => Promise<Array<FileLink & { fileId: string }>>;
};

const sources = new Map<string, FileLinkSource>();

export function registerFileLinks(name: string, source: FileLinkSource): void {
  sources.set(name, source);
}

/** `table.column` of each registered link, e.g. `observation_attachments.file_id`. */
export function registeredLinkColumns(): string[] {
  return [...sources.values()].map((s) => `${getTableName(s.column.table)}.${s.column.name}`).sort();
}

type LinkColumn = { schema: string; table: string; column: string };

/** The columns of the database that reference `files` (through their foreign keys), but the organisation's. */
async function linkColumnsInDatabase(db: Db | Tx): Promise<LinkColumn[]> {
  const result = await db.execute<LinkColumn>(sql`
    select n.nspname as schema, t.relname as table, a.attname as column
    from pg_constraint c
    join pg_class t on t.oid = c.conrelid
    join pg_namespace n on n.oid = t.relnamespace
    cross join lateral unnest(c.conkey) as k(attnum)
    join pg_attribute a on a.attrelid = c.conrelid and a.attnum = k.attnum
    where c.contype = 'f' and c.confrelid = 'files'::regclass and a.attname <> 'organization_id'
    order by 2, 3`);
  return result.rows;
}

/**
 * A condition on `files`: no registered record links the file. What a module checks before it links
 * an upload (is it still free?). Whatever deletes files uses `unlinkedCondition`, which also heeds
 * columns nobody registered.
 */
export function isUnlinked(): SQL {
  const none = [...sources.values()].map((s) => sql`not exists (select 1 from ${s.column.table} where ${s.column} = ${files.id})`);
  return and(...none) ?? sql`true`;
}

/**
 * A condition on `files`: nothing links the file, neither a registered column nor any other column
 * of the database that references files.
 */
export async function unlinkedCondition(db: Db | Tx): Promise<SQL> {
  const known = new Set(registeredLinkColumns());
  const others = (await linkColumnsInDatabase(db))
    .filter((c) => !known.has(`${c.table}.${c.column}`))
    .map(
      (c) =>
        sql`not exists (select 1 from ${sql.identifier(c.schema)}.${sql.identifier(c.table)} l where l.${sql.identifier(c.column)} = ${files.id})`,
    );
  return and(isUnlinked(), ...others) ?? sql`true`;
}

/** Every registered record that links these files, by file id. */
export async function linksOf(tx: Tx, fileIds: readonly string[]): Promise<Map<string, FileLink[]>> {
  const out = new Map<string, FileLink[]>();
  if (fileIds.length === 0) return out;
  for (const source of sources.values()) {
    for (const { fileId, ...link } of await source.describe(tx, fileIds)) out.set(fileId, [...(out.get(fileId) ?? []), link]);
  }
  return out;
}

/**
 * The columns referencing `files` that no module registered: their files are kept (see above) but the
 * storage screen cannot say what links them. A test holds this empty.
 */
export async function unregisteredLinkColumns(db: Db | Tx): Promise<string[]> {
  const known = new Set(registeredLinkColumns());
  return (await linkColumnsInDatabase(db)).map((c) => `${c.table}.${c.column}`).filter((l) => !known.has(l));
}
