// Starting and stopping the real product for the browser tests, as `npm start` runs it. No vitest here:
// the run's globalSetup (global-setup.ts) uses it too.
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chmodSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
// The compiled server as `npm start` runs it, rebuilt first if its sources changed since `npm test` built it.
import { serverArgs } from '../packages/server/test/compiled-server.js';

const ROOT = path.resolve(import.meta.dirname, '..');

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.listen(0, '127.0.0.1', () => {
      const address = srv.address();
      srv.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}

export type RunningServer = {
  port: number;
  origin: (tenant?: string) => string;
  ownerUrl: string;
  stop: () => Promise<void>;
  output: () => string;
  /** What another node of the same product starts with: its database, APP_SECRET and the options' `env`. */
  nodeEnv: Readonly<Record<string, string>>;
};

/** Options of `startProduct`; without them it starts the product exactly as before. */
export type ProductOptions = {
  /** Added to the environment of the product's node, and of every node `startSecondNode` adds (e.g. S3_* settings). */
  env?: Record<string, string>;
};

type Launched = { child: ChildProcess; output: () => string; exited: Promise<void> };

/** Starts the compiled server with `env`; resolves once it answers on `port` and says it is running. */
async function launchNode(env: NodeJS.ProcessEnv, port: number): Promise<Launched> {
  let output = '';
  const child: ChildProcess = spawn(process.execPath, serverArgs(), {
    cwd: ROOT,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout?.on('data', (d: Buffer) => (output += d.toString()));
  child.stderr?.on('data', (d: Buffer) => (output += d.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));

  const deadline = Date.now() + 90_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server exited early:\n${output}`);
    try {
      const res = await fetch(`http://127.0.0.1:${port}/api/v2/api_connection_checks`);
      if (res.ok && output.includes('is running')) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`server did not start:\n${output}`);
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  return { child, output: () => output, exited };
}

/** SIGTERM is Ctrl-C's twin: the server stops PostgreSQL cleanly before it exits (SIGKILL after 20 s). */
async function stopNode({ child, exited }: Launched) {
  child.kill('SIGTERM');
  await Promise.race([exited, new Promise((r) => setTimeout(r, 20_000))]);
  if (child.exitCode === null) child.kill('SIGKILL');
}

/**
 * A prepared product, copied by every `startProduct` of a test run: a database migrated and seeded
 * with the demo by one start of the product (globalSetup), then stopped. A copy starts in a fraction of
 * the time initdb, the migrations and the seed take (about 5 s of each of some 25 product starts).
 */
export type ProductTemplate =
  { kind: 'embedded'; dataDir: string; appSecret: string } | { kind: 'server'; database: string; appSecret: string };

type Product = { server: RunningServer; node: Launched; keep: () => ProductTemplate };

/**
 * Starts the product on a copy of `template`, or, without one, on a new database: embedded PostgreSQL
 * in a temporary DATA_DIR, or a new database on the DATABASE_URL server, the demo seeded at start.
 */
async function launchProduct(options: ProductOptions, template: ProductTemplate | undefined): Promise<Product> {
  const port = await freePort();
  const pgPort = await freePort();
  const appSecret = template?.appSecret ?? randomBytes(24).toString('hex');
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    PORT: String(port),
    HOST: '127.0.0.1',
    LOG_LEVEL: 'warn',
    // A copy's secrets (webhook and SSO secrets, registration codes) were sealed with the template's.
    APP_SECRET: appSecret,
    // No load balancer moves work off a test's node: SIGTERM stops it at once instead of draining 5 s.
    DRAIN_SECONDS: '0',
    ...options.env,
  };
  let dataDir: string | null = null;
  let database: string | null = null;
  let dropDatabase: (() => Promise<void>) | null = null;
  let ownerUrl: string;
  if (process.env.DATABASE_URL) {
    if (template && template.kind !== 'server') throw new Error('an embedded template for a DATABASE_URL run');
    const name = `bulwark_e2e_${randomBytes(5).toString('hex')}`;
    database = name;
    const admin = process.env.DATABASE_URL;
    await adminQuery(admin, template ? `create database ${name} template ${template.database}` : `create database ${name}`);
    const u = new URL(admin);
    u.pathname = `/${name}`;
    ownerUrl = u.toString();
    env.DATABASE_URL = ownerUrl;
    env.SEED_DEMO = '1';
    dropDatabase = () => adminQuery(admin, `drop database if exists ${name} with (force)`);
  } else {
    if (template && template.kind !== 'embedded') throw new Error('a server template for an embedded run');
    dataDir = mkdtempSync(path.join(tmpdir(), 'bulwark-e2e-'));
    chmodSync(dataDir, 0o755);
    // cp -a keeps the owner: as root, the cluster's files belong to the account PostgreSQL runs as.
    if (template) execFileSync('cp', ['-a', `${template.dataDir}/.`, dataDir]);
    delete env.DATABASE_URL;
    env.DATA_DIR = dataDir;
    env.EMBEDDED_PG_PORT = String(pgPort);
    // The superuser password is generated into DATA_DIR by the server's first start (read below).
    ownerUrl = '';
  }
  let node: Launched;
  try {
    node = await launchNode(env, port);
  } catch (err) {
    await dropDatabase?.();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
    throw err;
  }
  if (dataDir)
    ownerUrl = `postgres://postgres:${readFileSync(path.join(dataDir, 'pg-password'), 'utf8').trim()}@127.0.0.1:${pgPort}/bulwark`;
  const server: RunningServer = {
    port,
    ownerUrl,
    origin: (tenant?: string) => `http://${tenant ? `${tenant}.` : ''}localhost:${port}`,
    output: node.output,
    nodeEnv: { ...options.env, DATABASE_URL: ownerUrl, APP_SECRET: appSecret },
    async stop() {
      await stopNode(node);
      await dropDatabase?.();
      if (dataDir) rmSync(dataDir, { recursive: true, force: true });
    },
  };
  const keep = (): ProductTemplate =>
    dataDir ? { kind: 'embedded', dataDir, appSecret } : { kind: 'server', database: database!, appSecret };
  return { server, node, keep };
}

async function adminQuery(url: string, text: string): Promise<void> {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    await c.query(text);
  } finally {
    await c.end();
  }
}

/**
 * The real product as `npm start` runs it (web app already built by `npm test`), on a copy of the run's
 * template when there is one: embedded PostgreSQL in a temporary DATA_DIR, or a database of its own on
 * the DATABASE_URL server, with the demo seeded.
 */
export async function startProduct(options: ProductOptions = {}, template?: ProductTemplate): Promise<RunningServer> {
  return (await launchProduct(options, template)).server;
}

/** Starts the product on a new database once, stops it, and keeps its database as the run's template. */
export async function makeProductTemplate(): Promise<ProductTemplate> {
  const { node, keep } = await launchProduct({}, undefined);
  // SIGTERM: the server stops its PostgreSQL cleanly, so a copy of the folder starts without recovery.
  await stopNode(node);
  return keep();
}

/** Removes a template's folder or database. */
export async function dropProductTemplate(template: ProductTemplate): Promise<void> {
  if (template.kind === 'embedded') rmSync(template.dataDir, { recursive: true, force: true });
  else if (process.env.DATABASE_URL)
    await adminQuery(process.env.DATABASE_URL, `drop database if exists ${template.database} with (force)`);
}

/**
 * A second app node of a running product, as a second machine would run it: its own port and DATA_DIR,
 * the first's database (its embedded PostgreSQL too), APP_SECRET and `startProduct` options' `env`
 * (give both a shared file store and REDIS_URL for one product). `stop` ends only this node: stop it
 * before the first.
 */
export async function startSecondNode(first: RunningServer): Promise<RunningServer> {
  const port = await freePort();
  const dataDir = mkdtempSync(path.join(tmpdir(), 'bulwark-e2e-node-'));
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    PORT: String(port),
    HOST: '127.0.0.1',
    LOG_LEVEL: 'warn',
    DATA_DIR: dataDir,
    DRAIN_SECONDS: '0',
  };
  // The demo is the first node's to seed.
  delete env.SEED_DEMO;
  Object.assign(env, first.nodeEnv);
  let node: Launched;
  try {
    node = await launchNode(env, port);
  } catch (err) {
    rmSync(dataDir, { recursive: true, force: true });
    throw err;
  }
  return {
    port,
    ownerUrl: first.ownerUrl,
    origin: (tenant?: string) => `http://${tenant ? `${tenant}.` : ''}localhost:${port}`,
    output: node.output,
    nodeEnv: first.nodeEnv,
    async stop() {
      await stopNode(node);
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
