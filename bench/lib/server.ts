/**
 * The real server as a production-like child process on the bench database: compiled as `npm start` runs
 * it (packages/server/build.mjs, built once per bench process into dist/bench-<pid>; BENCH_TSX=1 runs the
 * sources through tsx instead), with the bench database as DATABASE_URL, jobs off (the bench measures requests, not the sweep), logs at
 * warn (a log line per request would cost the server what the bench wants to measure), and the proxy
 * trusted, so each simulated client can bring its own address (X-Forwarded-For) past the per-address
 * sign-in throttle.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ROOT, type BenchDb } from './db.js';

/** The bench server's APP_SECRET (its tokens' key); the bare session route verifies with it too. */
export const BENCH_APP_SECRET = 'bench-secret-not-for-production-0123456789abcdef';

export type BenchServer = {
  /** http://127.0.0.1:<port> */
  url: string;
  port: number;
  pid: number | undefined;
  /** The child's output so far (for error messages). */
  output: () => string;
  stop: () => Promise<void>;
};

/** A TCP port that was free a moment ago. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const address = srv.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      srv.close(() => resolve(port));
    });
  });
}

const children = new Set<ChildProcess>();
// A bench that throws must not leave a server running.
process.once('exit', () => {
  for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
});

let compiledMain: string | null = null;

/** The compiled server's main.js (built on first use), or null to run the sources (BENCH_TSX=1, or no build script). */
function compiledServer(): string | null {
  const build = path.join(ROOT, 'packages/server/build.mjs');
  if (process.env.BENCH_TSX === '1' || !existsSync(build)) return null;
  if (!compiledMain) {
    // Inside packages/server: the bundle finds migrations and data files from there (server-root.ts).
    const outdir = path.join(ROOT, 'packages/server/dist', `bench-${process.pid}`);
    const built = spawnSync(process.execPath, [build, outdir], { cwd: ROOT, stdio: 'inherit' });
    if (built.status !== 0) throw new Error('packages/server/build.mjs failed');
    process.once('exit', () => rmSync(outdir, { recursive: true, force: true }));
    compiledMain = path.join(outdir, 'main.js');
  }
  return compiledMain;
}

/**
 * Starts the server and resolves once its API answers. `env` adds or overrides variables
 * (e.g. `{ JOBS: '1' }` or `{ REDIS_URL: ... }`); `nodeArgs` go to node itself (e.g. `['--cpu-prof']`).
 */
export async function startBenchServer(
  db: BenchDb,
  options: { env?: NodeJS.ProcessEnv; timeoutMs?: number; nodeArgs?: string[] } = {},
): Promise<BenchServer> {
  const port = await freePort();
  const dataDir = mkdtempSync(path.join(tmpdir(), 'bulwark-bench-'));
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    NODE_ENV: 'production',
    DATABASE_URL: db.ownerUrl,
    PORT: String(port),
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    APP_SECRET: BENCH_APP_SECRET,
    JOBS: '0',
    LOG_LEVEL: 'warn',
    TRUST_PROXY: '1',
    SEED_DEMO: '',
    ...options.env,
  };
  const main = compiledServer();
  const entry = main ? ['--enable-source-maps', main] : ['--import', 'tsx', path.join(ROOT, 'packages/server/src/main.ts')];
  // BENCH_NODE_ARGS (space-separated, e.g. '--cpu-prof --cpu-prof-dir=/tmp/prof') profiles any bench's server.
  const envArgs = process.env.BENCH_NODE_ARGS?.split(/\s+/).filter(Boolean) ?? [];
  const proc = spawn(process.execPath, [...envArgs, ...(options.nodeArgs ?? []), ...entry], {
    cwd: ROOT,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.add(proc);
  let out = '';
  proc.stdout.on('data', (d: Buffer) => (out += d.toString()));
  proc.stderr.on('data', (d: Buffer) => (out += d.toString()));
  const exited = new Promise<void>((resolve) =>
    proc.once('exit', () => {
      children.delete(proc);
      resolve();
    }),
  );
  const url = `http://127.0.0.1:${port}`;

  const stop = async () => {
    if (proc.exitCode === null && proc.signalCode === null) {
      proc.kill('SIGTERM');
      const timer = setTimeout(() => proc.kill('SIGKILL'), 10_000);
      await exited;
      clearTimeout(timer);
    }
    rmSync(dataDir, { recursive: true, force: true });
  };

  const deadline = Date.now() + (options.timeoutMs ?? 60_000);
  for (;;) {
    if (proc.exitCode !== null || proc.signalCode !== null) {
      await stop();
      throw new Error(`The server exited before answering:\n${out}`);
    }
    const ok = await fetch(`${url}/api/v2/api_connection_checks`).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) break;
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`The server did not answer within ${options.timeoutMs ?? 60_000} ms:\n${out}`);
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  return { url, port, pid: proc.pid, output: () => out, stop };
}

/** Signs in through the real API; returns what an authenticated request needs. */
export async function signIn(server: Pick<BenchServer, 'url'>, tenant: string, email: string, password: string, ip = '10.255.0.1') {
  const res = await fetch(`${server.url}/api/v1/authorize`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-tenant': tenant, 'x-forwarded-for': ip },
    body: JSON.stringify({ email, password }),
  });
  if (!res.ok) throw new Error(`sign-in of ${email} at ${tenant} answered ${res.status}: ${await res.text()}`);
  const body = (await res.json()) as { token: string; csrf: string; refresh: string };
  return { token: body.token, csrf: body.csrf, refresh: body.refresh, tenant };
}

export type BenchSession = Awaited<ReturnType<typeof signIn>>;

/** Headers of an authenticated request of `session` (CSRF included, so they serve writes too). */
export function authHeaders(session: BenchSession): Record<string, string> {
  return { authorization: `Bearer ${session.token}`, 'x-csrf-token': session.csrf, 'x-tenant': session.tenant };
}
