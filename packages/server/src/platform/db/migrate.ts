import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import { serverPath } from '../server-root.js';

export const APP_ROLE = 'bulwark_app';
const MIGRATIONS_DIR = serverPath('migrations');
// Any constant works; it only has to be the same on every node that migrates this database.
const MIGRATION_LOCK = 7_351_002;

/**
 * Applies the committed SQL migrations in order, once each, under an advisory lock so several app nodes
 * may start together. Then makes sure the app's own role exists: it can read and write the tables but
 * cannot bypass row-level security, so every request is walled by the organisation it sets.
 * Returns the connection string the app's requests use.
 */
export async function migrate(ownerUrl: string, log: (m: string) => void = () => {}): Promise<string> {
  const client = new pg.Client({ connectionString: ownerUrl });
  await client.connect();
  try {
    await client.query('select pg_advisory_lock($1)', [MIGRATION_LOCK]);
    await client.query(`create table if not exists schema_migrations (
      name text primary key, checksum text not null, applied_at timestamptz not null default now())`);
    const applied = new Map(
      (await client.query<{ name: string; checksum: string }>('select name, checksum from schema_migrations')).rows.map((r) => [
        r.name,
        r.checksum,
      ]),
    );
    for (const file of readdirSync(MIGRATIONS_DIR)
      .filter((f) => f.endsWith('.sql'))
      .sort()) {
      const sqlText = readFileSync(path.join(MIGRATIONS_DIR, file), 'utf8');
      const checksum = createHash('sha256').update(sqlText).digest('hex');
      const seen = applied.get(file);
      if (seen === checksum) continue;
      if (seen) throw new Error(`Migration ${file} was changed after it was applied; add a new migration instead.`);
      await client.query('begin');
      try {
        await client.query(sqlText);
        await client.query('insert into schema_migrations (name, checksum) values ($1, $2)', [file, checksum]);
        await client.query('commit');
        log(`migration applied: ${file}`);
      } catch (err) {
        await client.query('rollback');
        throw err;
      }
    }
    const password = appRolePassword(ownerUrl);
    await ensureAppRole(client, password);
    await client.query(`grant usage on schema public to ${APP_ROLE};
      grant select, insert, update, delete on all tables in schema public to ${APP_ROLE};
      revoke insert, update, delete on schema_migrations from ${APP_ROLE};
      grant execute on all functions in schema public to ${APP_ROLE};`);
    return appUrl(ownerUrl, password);
  } finally {
    await client.query('select pg_advisory_unlock($1)', [MIGRATION_LOCK]).catch(() => {});
    await client.end();
  }
}

async function ensureAppRole(client: pg.Client, password: string): Promise<void> {
  // Roles are shared by every database of the server, and other databases may be migrating at once:
  // the advisory lock (one database's) does not cover them, so a concurrent change of the same role
  // ("tuple concurrently updated", a deadlock) is tried again; the statement is the same every time.
  const literal = password.replace(/'/g, "''");
  for (let attempt = 1; ; attempt += 1) {
    try {
      await client.query(`do $$ begin
          create role ${APP_ROLE} login password '${literal}' nosuperuser nobypassrls nocreatedb nocreaterole;
        exception when duplicate_object or unique_violation then
          alter role ${APP_ROLE} login password '${literal}' nosuperuser nobypassrls;
        end $$`);
      return;
    } catch (err) {
      const code = (err as { code?: string }).code ?? '';
      if (attempt >= 5 || !['XX000', '40001', '40P01', '23505', '42710'].includes(code)) throw err;
      await new Promise((r) => setTimeout(r, 50 * attempt));
    }
  }
}

/** The same on every node that shares the server address and owner credentials, whatever the database. */
function appRolePassword(ownerUrl: string): string {
  const u = new URL(ownerUrl);
  return createHash('sha256').update(`${u.username}:${u.password}@${u.host}/${APP_ROLE}`).digest('base64url').slice(0, 32);
}

function appUrl(ownerUrl: string, password: string): string {
  const u = new URL(ownerUrl);
  u.username = APP_ROLE;
  u.password = password;
  return u.toString();
}
