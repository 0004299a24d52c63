import { sql } from 'drizzle-orm';
import { drizzle, type NodePgDatabase } from 'drizzle-orm/node-postgres';
import pg from 'pg';
import * as schema from './schema.js';

export type Db = NodePgDatabase<typeof schema>;
export type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];

export type Database = {
  /** Connected as the app role: row-level security applies to everything it runs. */
  app: Db;
  appPool: pg.Pool;
  /** Connected as the owner: migrations, jobs that sweep every tenant, the CLI. Never used by requests. */
  owner: Db;
  ownerPool: pg.Pool;
  close: () => Promise<void>;
};

export function connect(appUrl: string, ownerUrl: string, poolSize = 10): Database {
  // A PostgreSQL that hangs (rather than refusing) must not hang requests with it: after this wait for a
  // connection the request is answered 503 "unavailable" (platform/http/error-handler.ts).
  const connectionTimeoutMillis = 10_000;
  const appPool = new pg.Pool({ connectionString: appUrl, max: poolSize, application_name: 'bulwark-app', connectionTimeoutMillis });
  const ownerPool = new pg.Pool({ connectionString: ownerUrl, max: 3, application_name: 'bulwark-owner', connectionTimeoutMillis });
  // A lost connection (e.g. PostgreSQL restarting) must not crash the process; the pool reconnects.
  // The pool hears errors of idle clients only: a client checked out between two queries of a
  // transaction emits its own 'error', which would be an uncaught exception without a listener. The
  // query in progress (or the next one) still fails, and the broken client is dropped on release.
  for (const pool of [appPool, ownerPool]) {
    pool.on('error', () => {});
    pool.on('connect', (client) => client.on('error', () => {}));
  }
  return {
    app: drizzle(appPool, { schema }),
    appPool,
    owner: drizzle(ownerPool, { schema }),
    ownerPool,
    close: async () => {
      await Promise.allSettled([appPool.end(), ownerPool.end()]);
    },
  };
}

/** One transaction acting for one organisation: the only way request code touches tenant tables. */
export function inTenant<T>(db: Db, organizationId: string, fn: (tx: Tx) => Promise<T>): Promise<T> {
  return db.transaction(async (tx) => {
    await tx.execute(sql`select set_config('app.organization_id', ${organizationId}, true)`);
    return fn(tx);
  });
}

/** The explicit platform path: a transaction that may see every organisation row (platform admins only). */
export function asPlatform<T>(db: Db, fn: (tx: Tx) => Promise<T>): Promise<T> {
  return db.transaction(async (tx) => {
    await tx.execute(sql`select set_config('app.platform', 'on', true)`);
    return fn(tx);
  });
}
