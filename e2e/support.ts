import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll } from 'vitest';
import { chromium, type Browser, type BrowserContext, type Locator, type Page } from 'playwright-core';
// The compiled server as `npm start` runs it, rebuilt first if its sources changed since `npm test` built it.
import { serverArgs } from '../packages/server/test/compiled-server.js';

const ROOT = path.resolve(import.meta.dirname, '..');
export const SCREENSHOTS = path.join(ROOT, 'screenshots');

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
 * The real product as `npm start` runs it (web app already built by `npm test`): embedded PostgreSQL in a
 * temporary DATA_DIR, or a fresh database on the DATABASE_URL server with the demo seeded.
 */
export async function startProduct(options: ProductOptions = {}): Promise<RunningServer> {
  const port = await freePort();
  const pgPort = await freePort();
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    PORT: String(port),
    HOST: '127.0.0.1',
    LOG_LEVEL: 'warn',
    APP_SECRET: randomBytes(24).toString('hex'),
    // No load balancer moves work off a test's node: SIGTERM stops it at once instead of draining 5 s.
    DRAIN_SECONDS: '0',
    ...options.env,
  };
  let dataDir: string | null = null;
  let dropDatabase: (() => Promise<void>) | null = null;
  let ownerUrl: string;
  if (process.env.DATABASE_URL) {
    const name = `bulwark_e2e_${randomBytes(5).toString('hex')}`;
    const admin = process.env.DATABASE_URL;
    const c = new pg.Client({ connectionString: admin });
    await c.connect();
    await c.query(`create database ${name}`);
    await c.end();
    const u = new URL(admin);
    u.pathname = `/${name}`;
    ownerUrl = u.toString();
    env.DATABASE_URL = ownerUrl;
    env.SEED_DEMO = '1';
    dropDatabase = async () => {
      const d = new pg.Client({ connectionString: admin });
      await d.connect();
      await d.query(`drop database if exists ${name} with (force)`);
      await d.end();
    };
  } else {
    dataDir = mkdtempSync(path.join(tmpdir(), 'bulwark-e2e-'));
    chmodSync(dataDir, 0o755);
    delete env.DATABASE_URL;
    env.DATA_DIR = dataDir;
    env.EMBEDDED_PG_PORT = String(pgPort);
    // The superuser password is generated into DATA_DIR by the server's first start (read below).
    ownerUrl = '';
  }
  const node = await launchNode(env, port);
  if (dataDir)
    ownerUrl = `postgres://postgres:${readFileSync(path.join(dataDir, 'pg-password'), 'utf8').trim()}@127.0.0.1:${pgPort}/bulwark`;
  return {
    port,
    ownerUrl,
    origin: (tenant?: string) => `http://${tenant ? `${tenant}.` : ''}localhost:${port}`,
    output: node.output,
    nodeEnv: { ...options.env, DATABASE_URL: ownerUrl, APP_SECRET: env.APP_SECRET! },
    async stop() {
      await stopNode(node);
      await dropDatabase?.();
      if (dataDir) rmSync(dataDir, { recursive: true, force: true });
    },
  };
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

export async function launchBrowser(): Promise<Browser> {
  mkdirSync(SCREENSHOTS, { recursive: true });
  return chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}

/** Reads the newest e-mail to an address from the outbox (what an SMTP server would have received). */
export async function latestMail(ownerUrl: string, to: string): Promise<string> {
  const c = new pg.Client({ connectionString: ownerUrl });
  await c.connect();
  try {
    const { rows } = await c.query<{ body: string }>(
      'select body from mail_outbox where to_address = $1 order by created_at desc limit 1',
      [to],
    );
    if (!rows[0]) throw new Error(`no mail to ${to}`);
    return rows[0].body;
  } finally {
    await c.end();
  }
}

/** A full-page PNG under screenshots/, to look at after the run. */
export function shot(page: Page, name: string) {
  return page.screenshot({ path: path.join(SCREENSHOTS, `${name}.png`), fullPage: true });
}

/** A fresh browser context signed in as `email` at `origin`, past the sign-in page. */
export async function signedInPage(
  browser: Browser,
  origin: string,
  email: string,
  password: string,
  width = 1280,
): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ viewport: { width, height: 900 }, locale: 'en-GB' });
  const page = await context.newPage();
  await page.goto(`${origin}/login`);
  await page.getByLabel('E-mail').fill(email);
  await page.getByLabel(/^Password/).fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForURL((u) => !u.pathname.startsWith('/login'));
  return { context, page };
}

/** Picks an option of a Mantine select: opens it, types when it is searchable, clicks the option. */
export async function pickOption(
  page: Page,
  label: string | RegExp,
  option: string | RegExp,
  typed?: string,
  scope: Page | Locator = page,
) {
  const input = scope.getByLabel(label).first();
  await input.click();
  if (typed && (await input.isEditable())) await input.fill(typed);
  await page.getByRole('option', { name: option }).first().click();
}

/** One product and one browser for a test file: started before its tests, stopped after them. */
export function withProduct(ready: (server: RunningServer, browser: Browser) => void) {
  let server: RunningServer | undefined;
  let browser: Browser | undefined;
  beforeAll(async () => {
    server = await startProduct();
    browser = await launchBrowser();
    ready(server, browser);
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });
}
