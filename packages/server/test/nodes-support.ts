import { existsSync, mkdirSync, readdirSync } from 'node:fs';
import path from 'node:path';
import S3rver from 's3rver';
import pg from 'pg';
import { APP_SECRET, tempDir, type Node } from './faults-support.js';
import { freePort, startChild, waitUntil } from './process-helpers.js';
import { serverArgs } from './compiled-server.js';

export const BUCKET = 'bulwark-files';

/**
 * A real S3 protocol server in the test process (s3rver, the npm registry's), on a free loopback port,
 * with the app's bucket. `env` is what a node needs to use it.
 */
export async function startS3(): Promise<{ env: Record<string, string>; dir: string; stop: () => Promise<void> }> {
  const { dir, remove } = tempDir('bulwark-s3-');
  const server = new S3rver({
    port: await freePort(),
    address: '127.0.0.1',
    silent: true,
    directory: dir,
    configureBuckets: [{ name: BUCKET, configs: [] }],
  });
  const { port } = await server.run();
  return {
    dir,
    env: {
      S3_ENDPOINT: `http://127.0.0.1:${port}`,
      S3_BUCKET: BUCKET,
      S3_REGION: 'us-east-1',
      // s3rver's own fixed credentials.
      S3_ACCESS_KEY_ID: 'S3RVER',
      S3_SECRET_ACCESS_KEY: 'S3RVER',
      S3_FORCE_PATH_STYLE: '1',
    },
    stop: async () => {
      await server.close();
      remove();
    },
  };
}

/** Whether s3rver holds an object under `key` (it keeps `<bucket>/<org>/<id>._S3rver_object` on its disk). */
export function s3Holds(dir: string, key: string): boolean {
  return existsSync(path.join(dir, BUCKET, `${key}._S3rver_object`));
}

/** The objects s3rver holds under `<prefix>/`. */
export function s3Objects(dir: string, prefix: string): string[] {
  const folder = path.join(dir, BUCKET, prefix);
  if (!existsSync(folder)) return [];
  return readdirSync(folder)
    .filter((f) => f.endsWith('._S3rver_object'))
    .map((f) => `${prefix}/${f.slice(0, -'._S3rver_object'.length)}`);
}

/**
 * One app node as `npm start` runs it (src/main.ts), on its own port and its own FILES_DIR (two
 * machines share no disk), with the given database, Redis and storage settings.
 */
export async function startNode(env: Record<string, string>, port?: number): Promise<Node & { filesDir: string }> {
  const p = port ?? (await freePort());
  const dataDir = tempDir('bulwark-node-').dir;
  const files = path.join(dataDir, 'files');
  mkdirSync(files, { recursive: true });
  const child = startChild(serverArgs(), {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    APP_SECRET,
    PORT: String(p),
    HOST: '127.0.0.1',
    LOG_LEVEL: 'warn',
    DATA_DIR: dataDir,
    FILES_DIR: files,
    // The AWS SDK's note that its 2027 releases will want Node 22 is not this test's business.
    NODE_NO_WARNINGS: '1',
    // SIGTERM stops at once rather than draining 5 s, unless a test gives the node a balancer to leave.
    DRAIN_SECONDS: '0',
    ...env,
  });
  return { child, url: `http://127.0.0.1:${p}`, port: p, filesDir: files };
}

function alive(node: Node): boolean {
  return node.child.proc.exitCode === null && node.child.proc.signalCode === null;
}

/** Resolves once the node says it is ready (/readyz 200); fails at once, with its output, if it exits. */
export async function nodeReady(node: Node, timeoutMs = 180_000): Promise<void> {
  await waitUntil(
    `${node.url}/readyz`,
    async () => {
      if (!alive(node)) throw new Error(`the node exited with ${node.child.proc.exitCode ?? node.child.proc.signalCode}`);
      const res = await fetch(`${node.url}/readyz`, { signal: AbortSignal.timeout(5_000) }).catch(() => null);
      return res?.status === 200;
    },
    timeoutMs,
    200,
  ).catch((err: Error) => {
    throw new Error(`${err.message}\n--- node output ---\n${node.child.output()}`);
  });
}

/** Rows of every table of the app's schema and pg-boss's queue and schedule tables, by name. */
export async function rowCounts(ownerUrl: string): Promise<Record<string, number>> {
  const c = new pg.Client({ connectionString: ownerUrl });
  await c.connect();
  try {
    const tables = (
      await c.query<{ name: string }>(
        `select format('%I.%I', table_schema, table_name) as name from information_schema.tables
         where table_type = 'BASE TABLE' and (table_schema = 'public' or (table_schema = 'pgboss' and table_name in ('queue', 'schedule')))
         order by 1`,
      )
    ).rows.map((r) => r.name);
    const counts: Record<string, number> = {};
    for (const t of tables) counts[t] = Number((await c.query<{ n: string }>(`select count(*)::text as n from ${t}`)).rows[0]!.n);
    return counts;
  } finally {
    await c.end();
  }
}

/** The pg-boss schedules of a database: name → cron. */
export async function schedulesOf(ownerUrl: string): Promise<Record<string, string>> {
  const c = new pg.Client({ connectionString: ownerUrl });
  await c.connect();
  try {
    const { rows } = await c.query<{ name: string; cron: string }>('select name, cron from pgboss.schedule order by name');
    return Object.fromEntries(rows.map((r) => [r.name, r.cron]));
  } finally {
    await c.end();
  }
}
