import { createHash } from 'node:crypto';
import { drizzle, type NodePgDatabase } from 'drizzle-orm/node-postgres';
import { NodePgSession, NodePgTransaction } from 'drizzle-orm/node-postgres/session';
import pg from 'pg';
import { AppError } from '../errors.js';
import * as schema from './schema.js';

export type Db = NodePgDatabase<typeof schema>;
export type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];

export type Database = {
  /** Connected as the app role: row-level security applies to everything it runs. */
  app: Db;
  appPool: pg.Pool;
  /**
   * Connected as the app role too, read-only (PostgreSQL refuses any write), for inTenantRead: the
   * organisation is held by each connection's session. Nothing else uses these connections, so nothing
   * outside inTenantRead ever runs with an organisation it did not set.
   */
  readPool: pg.Pool;
  read: Db;
  /** Connected as the owner: migrations, jobs that sweep every tenant, the CLI. Never used by requests. */
  owner: Db;
  ownerPool: pg.Pool;
  close: () => Promise<void>;
};

export function connect(appUrl: string, ownerUrl: string, poolSize = 10): Database {
  // A PostgreSQL that hangs (rather than refusing) must not hang requests with it: after this wait for a
  // connection the request is answered 503 "unavailable" (platform/http/error-handler.ts).
  const connectionTimeoutMillis = 10_000;
  const appPool = new pg.Pool({
    connectionString: appUrl,
    max: poolSize,
    application_name: 'bulwark-app',
    connectionTimeoutMillis,
    Client: PreparingClient,
  });
  const readPool = new pg.Pool({
    connectionString: appUrl,
    max: poolSize,
    application_name: 'bulwark-read',
    connectionTimeoutMillis,
    Client: PreparingClient,
    // Read-only from the connection's first statement: a write sent here fails instead of committing
    // outside the one transaction of a command.
    options: '-c default_transaction_read_only=on',
  });
  const ownerPool = new pg.Pool({ connectionString: ownerUrl, max: 3, application_name: 'bulwark-owner', connectionTimeoutMillis });
  // A lost connection (e.g. PostgreSQL restarting) must not crash the process; the pool reconnects.
  // The pool hears errors of idle clients only: a client checked out between two queries of a
  // transaction emits its own 'error', which would be an uncaught exception without a listener. The
  // query in progress (or the next one) still fails, and the broken client is dropped on release.
  for (const pool of [appPool, readPool, ownerPool]) {
    pool.on('error', () => {});
    pool.on('connect', (client) => client.on('error', () => {}));
  }
  return {
    app: drizzle(appPool, { schema }),
    appPool,
    readPool,
    read: drizzle(readPool, { schema }),
    owner: drizzle(ownerPool, { schema }),
    ownerPool,
    close: async () => {
      await Promise.allSettled([appPool.end(), readPool.end(), ownerPool.end()]);
    },
  };
}

/** Clients released after a transaction that wrote nothing: see changedNothing. */
const unchanged = new WeakSet<pg.PoolClient>();

/**
 * True (once) when `client` is being released after a transaction that changed nothing, for listeners
 * of the pool's 'release' event; any other release (a write, a statement outside transactionWith, a
 * failure) answers false.
 */
export function changedNothing(client: pg.PoolClient): boolean {
  return unchanged.delete(client);
}

/** Statements seen so far (text → times sent, or its prepared name once it has one). */
const seen = new Map<string, number | string>();
/** How many statement texts may be prepared, on every connection of the app pool: a bound on each
 * backend's plan cache (a few tens of KB per statement), far above the app's hot statements (a page's
 * size and offset are part of its text, so each page of a list counts once). */
const MAX_PREPARED = 400;
/** Texts counted, before the counts start over (a long tail of one-off texts must not grow the map). */
const MAX_SEEN = 5_000;
let prepared = 0;
const PAGE_PARAMETER = /\b(limit|offset) \$(\d+)\b/gi;

/**
 * A page's LIMIT and OFFSET written into the text as numbers, when they are the statement's last
 * parameters (as drizzle puts them: no other parameter needs renumbering) and whole numbers: a plan,
 * generic or not, then knows how many rows are wanted. Otherwise null, and the statement goes as it is,
 * unprepared (planned for its values each time).
 */
export function pageInlined(text: string, params: unknown[]): { text: string; params: unknown[] } | null {
  const found = [...text.matchAll(PAGE_PARAMETER)];
  if (found.length === 0) return { text, params };
  const numbers = [...new Set(found.map((m) => Number(m[2])))].sort((a, b) => a - b);
  if (numbers[numbers.length - 1] !== params.length || numbers[0] !== params.length - numbers.length + 1) return null;
  const values = new Map<number, number>();
  for (const n of numbers) {
    const v = params[n - 1];
    const value = typeof v === 'number' ? v : typeof v === 'string' && /^\d{1,9}$/.test(v) ? Number(v) : NaN;
    if (!Number.isSafeInteger(value) || value < 0) return null;
    values.set(n, value);
  }
  return {
    text: text.replace(PAGE_PARAMETER, (_m, word: string, n: string) => `${word} ${values.get(Number(n))}`),
    params: params.slice(0, params.length - numbers.length),
  };
}

/**
 * The prepared name of a statement sent often, else undefined. The name is the hash of
 * the text, the same on every connection, so pg prepares it once per connection and only binds it
 * after that: PostgreSQL then skips parsing, rewriting (row-level security's policies) and, once it
 * settles on a generic plan, planning, which took most of a short list statement's time (bind 0.8 ms
 * against 0.2 ms of execution, seen with log_min_duration_statement).
 */
export function preparedName(text: string): string | undefined {
  const known = seen.get(text);
  if (typeof known === 'string') return known;
  const times = (known ?? 0) + 1;
  if (times < 3 || prepared >= MAX_PREPARED) {
    if (known === undefined && seen.size >= MAX_SEEN) for (const [k, v] of seen) if (typeof v === 'number') seen.delete(k);
    seen.set(text, times);
    return undefined;
  }
  const name = `b${createHash('sha1').update(text).digest('base64url')}`;
  seen.set(text, name);
  prepared += 1;
  return name;
}

/**
 * The app pool's client: drizzle's statements (a text with its array of values, maybe empty) go out as
 * named (prepared) statements once they have been seen a few times (preparedName). Plain strings (our
 * own `begin; …` and `commit`), texts of several statements and anything already named are left as
 * they are.
 */
class PreparingClient extends pg.Client {
  override query(...args: unknown[]): never {
    const [config, values] = args;
    if (config && typeof config === 'object' && !('name' in config && (config as pg.QueryConfig).name) && 'text' in config) {
      const c = config as pg.QueryConfig;
      const params = Array.isArray(values) ? values : c.values;
      // A named statement is one statement: a text holding several is left to the simple protocol. A page
      // is named with its LIMIT and OFFSET written in (pageInlined): given as parameters, a generic plan
      // cannot see them, and planned for a guessed tenth of the rows it sorted where an index walk was
      // right (action tab totals with per_page=1 at 2.8 times their unprepared p99 on the bench).
      const page = params && !c.text.includes(';') ? pageInlined(c.text, params) : null;
      if (page) {
        const name = preparedName(page.text);
        if (name) args = [{ ...c, text: page.text, name, values: page.params }, ...args.slice(2)];
      }
    }
    return (super.query as (...a: unknown[]) => never)(...args);
  }
}

/** One transaction acting for one organisation: the only way request code touches tenant tables. */
export function inTenant<T>(db: Db, organizationId: string, fn: (tx: Tx) => Promise<T>): Promise<T> {
  return transactionWith(db, `select set_config('app.organization_id', ${uuidLiteral(organizationId)}, true)`, fn);
}

/** The organisation each read connection's session holds (set_config(…, false)), once set. */
const sessionOrganization = new WeakMap<pg.PoolClient, string>();

/**
 * A read for one organisation without a transaction: on a connection of the read pool (read-only), whose
 * session is set to the organisation unless it already holds it, each statement on its own. It saves a
 * short read the two round trips of `begin` and `commit` (on this machine each costs the server about what
 * a short statement does), at the price of one snapshot per statement: a page and its total may straddle
 * a commit. Only for reads (the route option `database: 'read'`); a write fails here, and a failure of any
 * kind other than a refusal of ours drops the connection, so a session whose state is unknown is never
 * pooled again.
 */
export async function inTenantRead<T>(
  database: Pick<Database, 'read' | 'readPool'>,
  organizationId: string,
  fn: (tx: Tx) => Promise<T>,
): Promise<T> {
  const literal = uuidLiteral(organizationId);
  const { dialect, session } = database.read as unknown as DrizzleInternals;
  const client = await database.readPool.connect();
  let failed: Error | undefined;
  try {
    if (sessionOrganization.get(client) !== organizationId) {
      sessionOrganization.delete(client);
      await client.query(`select set_config('app.organization_id', ${literal}, false)`);
      sessionOrganization.set(client, organizationId);
    }
    const tx = new NodePgTransaction(
      dialect,
      new NodePgSession(client, dialect, session.schema, session.options),
      session.schema,
    ) as unknown as Tx;
    return await fn(tx);
  } catch (error) {
    // A refusal of ours (AppError: a right, a field, a missing record) leaves the session as it was; a
    // failure of the database or the connection may not.
    if (!(error instanceof AppError)) failed = error instanceof Error ? error : new Error(String(error));
    throw error;
  } finally {
    client.release(failed);
  }
}

/** The explicit platform path: a transaction that may see every organisation row (platform admins only). */
export function asPlatform<T>(db: Db, fn: (tx: Tx) => Promise<T>): Promise<T> {
  return transactionWith(db, `select set_config('app.platform', 'on', true)`, fn);
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** An organisation id as an SQL literal: only a well-formed UUID gets here, so it needs no escaping. */
function uuidLiteral(id: string): string {
  if (!UUID.test(id)) throw new Error('not an organisation id');
  return `'${id}'`;
}

/** What drizzle keeps of a database made with `drizzle(pool, { schema })` (driver.js, pg-core/db.js). */
type DrizzleInternals = {
  $client: pg.Pool;
  dialect: ConstructorParameters<typeof NodePgSession>[1];
  session: { schema: ConstructorParameters<typeof NodePgSession>[2]; options: ConstructorParameters<typeof NodePgSession>[3] };
};

/**
 * drizzle's `db.transaction` with its `begin` and our `set_config` sent as one simple query: one round
 * trip fewer per transaction, and on this machine a loopback round trip costs the server about as much
 * CPU as a short statement (profiled under load: socket writes were a quarter of the server's time).
 * Otherwise as drizzle does it (drizzle-orm/node-postgres/session.js): commit, or roll back and rethrow.
 */
async function transactionWith<T>(db: Db, setup: string, fn: (tx: Tx) => Promise<T>): Promise<T> {
  const { $client, dialect, session } = db as unknown as DrizzleInternals;
  const client = await $client.connect();
  unchanged.delete(client);
  let broken: Error | undefined;
  try {
    const tx = new NodePgTransaction(
      dialect,
      new NodePgSession(client, dialect, session.schema, session.options),
      session.schema,
    ) as unknown as Tx;
    await client.query(`begin; ${setup}`).catch((e: Error) => {
      broken = e;
      throw e;
    });
    try {
      const result = await fn(tx);
      // Whether the transaction wrote anything rides on the commit's round trip: a release after one that
      // did not needs no fence of the principal cache (principal-cache.ts), which read-heavy load
      // otherwise pays for nearly every request.
      const [written] = (await client.query(`select txid_current_if_assigned() is null as unchanged; commit`)) as unknown as [
        pg.QueryResult<{ unchanged: boolean }>,
      ];
      if (written.rows[0]?.unchanged) unchanged.add(client);
      return result;
    } catch (error) {
      // A rollback that fails leaves the connection in an unknown state: it is dropped, not pooled.
      await client.query('rollback').catch((e: Error) => (broken = e));
      throw error;
    }
  } finally {
    client.release(broken);
  }
}
