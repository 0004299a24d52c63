/**
 * The bench database, shared by every benchmark (seed, http, push):
 * - `BENCH_DATABASE_URL` when set (used as given; it must be a database the bench may fill);
 * - else a database `bulwark_bench` on the server of `DATABASE_URL`, created on first use;
 * - else an embedded PostgreSQL kept in `./data/bench-pg`, alive while this process holds it.
 * It is never the demo's or the tests' database: seeding it writes a million rows.
 */
import path from 'node:path';
import pg from 'pg';
import { startEmbeddedPostgres, type EmbeddedServer } from '../../packages/server/src/platform/db/embedded.js';
import { migrate } from '../../packages/server/src/platform/db/migrate.js';

export const ROOT = path.resolve(import.meta.dirname, '../..');
export const BENCH_DB_NAME = 'bulwark_bench';
/** Every seeded user signs in with this password (the bench's only credential; never a real one). */
export const BENCH_PASSWORD = 'Bench-pass-1!';

export type BenchDb = {
  /** Owner (migrations, seeding, baselines): row-level security does not apply to it. */
  ownerUrl: string;
  /** The app role the real server's requests use: row-level security applies. */
  appUrl: string;
  /** Where the database lives, for the output. */
  where: string;
  /** Stops the embedded server when this process started it; otherwise does nothing. */
  close: () => Promise<void>;
};

function withDatabase(url: string, database: string): string {
  const u = new URL(url);
  u.pathname = `/${database}`;
  return u.toString();
}

async function ensureDatabase(serverUrl: string, database: string): Promise<void> {
  const client = new pg.Client({ connectionString: serverUrl });
  await client.connect();
  try {
    const found = await client.query('select 1 from pg_database where datname = $1', [database]);
    if (found.rowCount === 0) {
      await client.query(`create database ${database}`).catch((err: unknown) => {
        // Another bench process created it a moment ago.
        if (!(err instanceof Error && /already exists/.test(err.message))) throw err;
      });
    }
  } finally {
    await client.end();
  }
}

/**
 * Opens (and migrates) the bench database. Call `close` when done, or the embedded server keeps running.
 * `fresh` empties it first (the seed's --fresh), so a database that took an earlier version of a
 * migration can be seeded again.
 */
export async function openBenchDb(log: (m: string) => void = () => {}, options: { fresh?: boolean } = {}): Promise<BenchDb> {
  let ownerUrl: string;
  let where: string;
  let embedded: EmbeddedServer | null = null;
  if (process.env.BENCH_DATABASE_URL) {
    ownerUrl = process.env.BENCH_DATABASE_URL;
    where = 'BENCH_DATABASE_URL';
  } else if (process.env.DATABASE_URL) {
    await ensureDatabase(process.env.DATABASE_URL, BENCH_DB_NAME);
    ownerUrl = withDatabase(process.env.DATABASE_URL, BENCH_DB_NAME);
    where = `database ${BENCH_DB_NAME} on DATABASE_URL's server`;
  } else {
    const dir = path.join(ROOT, 'data', 'bench-pg');
    embedded = await startEmbeddedPostgres(dir, Number(process.env.BENCH_PG_PORT ?? 54339), log);
    ownerUrl = embedded.url;
    where = `embedded PostgreSQL in ${path.relative(ROOT, dir)}`;
  }
  try {
    if (options.fresh) {
      const client = new pg.Client({ connectionString: ownerUrl });
      await client.connect();
      // The whole schema goes: a million rows leave faster this way than by cascading deletes.
      await client.query('drop schema public cascade; create schema public').finally(() => client.end());
      log('emptied');
    }
    const appUrl = await migrate(ownerUrl, log);
    return {
      ownerUrl,
      appUrl,
      where,
      close: async () => {
        await embedded?.stop();
      },
    };
  } catch (err) {
    await embedded?.stop();
    // A migration edited after this database took it (while it was being written): the bench data is
    // generated, so the way out is a fresh seed, not a new migration.
    if (err instanceof Error && /changed after it was applied/.test(err.message))
      throw new Error(
        `${err.message}\nThe bench database took an earlier version of it: run \`npm run bench:seed -- --fresh\` (with your --orgs and --observations).`,
        { cause: err },
      );
    throw err;
  }
}

/** What the bench seed wrote: sizes and the organisations a benchmark signs in to. */
export type BenchOrg = {
  id: string;
  subDomain: string;
  observations: number;
  /** Users of this organisation who sign in with BENCH_PASSWORD; the first is its admin. */
  emails: string[];
};
export type BenchSeed = {
  orgs: number;
  observations: number;
  actions: number;
  /** 0 for a seed older than the safety interactions' (seed.ts --if-needed seeds it again). */
  safetyInteractions: number;
  seededAt: Date;
  largest: BenchOrg;
  smallest: BenchOrg;
};

/** The seed's record (table bench_seed, written last by seed.ts), or null when the database holds none. */
export async function readSeed(ownerUrl: string): Promise<BenchSeed | null> {
  const client = new pg.Client({ connectionString: ownerUrl });
  await client.connect();
  try {
    const exists = await client.query(`select to_regclass('public.bench_seed') is not null as ok`);
    if (!exists.rows[0]?.ok) return null;
    const seed = await client.query<{ orgs: number; observations: number; actions: number; si: number; seeded_at: Date }>(
      `select orgs, observations, actions, coalesce((to_jsonb(s) ->> 'safety_interactions')::int, 0) as si, seeded_at from bench_seed s`,
    );
    const row = seed.rows[0];
    if (!row) return null;
    const orgs = await client.query<{ id: string; sub_domain: string; observations: number; emails: string[] }>(
      `select id, sub_domain, observations, emails from bench_seed_orgs order by observations desc, sub_domain`,
    );
    const largest = orgs.rows[0];
    const smallest = orgs.rows.at(-1);
    if (!largest || !smallest) return null;
    const toOrg = (r: typeof largest): BenchOrg => ({ id: r.id, subDomain: r.sub_domain, observations: r.observations, emails: r.emails });
    return {
      orgs: row.orgs,
      observations: row.observations,
      actions: row.actions,
      safetyInteractions: row.si,
      seededAt: row.seeded_at,
      largest: toOrg(largest),
      smallest: toOrg(smallest),
    };
  } finally {
    await client.end();
  }
}

/** The seed's record, or a clear error telling how to make one. */
export async function requireSeed(ownerUrl: string): Promise<BenchSeed> {
  const seed = await readSeed(ownerUrl);
  if (!seed) throw new Error('The bench database holds no seed yet: run `npm run bench:seed -- --orgs 50 --observations 50000` first.');
  return seed;
}
