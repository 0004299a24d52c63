/**
 * `npx tsx bench/start.ts [--runs 2] [--tsx]`
 *
 * How long `npm run start -w @bulwark/server` (the server half of `npm start`) takes from spawn to the
 * first 200 of GET /healthz, with the embedded PostgreSQL (no DATABASE_URL) as on a freshly installed
 * clone: the first start on an empty data folder (initdb and every migration included), then starts on
 * that same folder (the everyday case). It runs in this checkout, whose dependencies are installed; the web
 * build is not part of it (`npm start` builds it first, and the web bench weighs it).
 *
 * Goal (issue 13): serving in under 15 s, first start included. The script the package runs is printed,
 * so the figures say whether they are the TypeScript loader's or compiled JavaScript's; `--tsx` also times
 * the sources through the loader (`tsx src/main.ts`, the start before issue 13) on the same warm folder.
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { ROOT } from './lib/db.js';
import { recorder } from './lib/report.js';
import { freePort } from './lib/server.js';

const { values } = parseArgs({
  options: {
    runs: { type: 'string', default: '2' },
    timeout: { type: 'string', default: '120' },
    tsx: { type: 'boolean', default: false },
  },
});
const START = ['npm', 'run', 'start', '-w', '@bulwark/server'];
const TSX = ['npx', 'tsx', 'packages/server/src/main.ts'];
const RUNS = Math.max(1, Number(values.runs));
const TIMEOUT_MS = Number(values.timeout) * 1000;
const GOAL_S = 15;

const rec = recorder('start');
const scripts = (JSON.parse(readFileSync(path.join(ROOT, 'packages/server/package.json'), 'utf8')) as { scripts: Record<string, string> })
  .scripts;
rec.note(
  `\`npm run start -w @bulwark/server\` runs \`${scripts.start}\`; embedded PostgreSQL in a new data folder, no DATABASE_URL or REDIS_URL.`,
);
// A start script that runs compiled JavaScript needs the build an installed clone makes once (`npm start`
// makes it first): made here when missing, and timed apart from the start.
if (scripts.build && /\bdist\//.test(scripts.start ?? '') && !existsSync(path.join(ROOT, 'packages/server/dist/main.js'))) {
  const t = performance.now();
  const built = spawnSync('npm', ['run', 'build', '-w', '@bulwark/server'], { cwd: ROOT, stdio: 'inherit' });
  if (built.status !== 0) throw new Error('npm run build -w @bulwark/server failed');
  rec.figure('server build (`npm run build -w @bulwark/server`, once, before the first start)', (performance.now() - t) / 1000, 's');
}

const dataDir = mkdtempSync(path.join(tmpdir(), 'bulwark-start-'));
try {
  for (let run = 1; run <= RUNS; run++) {
    const label = run === 1 ? 'first start (empty data folder: initdb, migrations)' : `start ${run} (same data folder)`;
    const seconds = await timeStart(START, dataDir);
    rec.goal(`npm start serving (first /healthz 200), ${label}`, seconds, GOAL_S, 's');
  }
  if (values.tsx) rec.figure('through the TypeScript loader (tsx src/main.ts), same data folder', await timeStart(TSX, dataDir), 's');
} finally {
  rmSync(dataDir, { recursive: true, force: true });
}
rec.save();

/** Spawns the start script in its own process group, waits for /healthz, then stops the whole group. */
async function timeStart(command: string[], dir: string): Promise<number> {
  const port = await freePort();
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    PORT: String(port),
    HOST: '127.0.0.1',
    DATA_DIR: dir,
    EMBEDDED_PG_PORT: String(await freePort()),
  };
  for (const k of ['DATABASE_URL', 'BENCH_DATABASE_URL', 'REDIS_URL', 'SEED_DEMO']) delete env[k];
  const t0 = performance.now();
  const proc = spawn(command[0]!, command.slice(1), { cwd: ROOT, env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  proc.stdout.on('data', (d: Buffer) => (out += d.toString()));
  proc.stderr.on('data', (d: Buffer) => (out += d.toString()));
  const exited = new Promise<void>((resolve) => proc.once('exit', () => resolve()));
  // The npm process, the server and the embedded PostgreSQL share the group: all of them go.
  const group = (signal: NodeJS.Signals) => {
    try {
      if (proc.pid) process.kill(-proc.pid, signal);
    } catch {
      // Already gone.
    }
  };
  process.once('exit', () => group('SIGKILL'));
  try {
    for (;;) {
      if (proc.exitCode !== null) throw new Error(`the server exited before answering:\n${out.slice(-2000)}`);
      if (performance.now() - t0 > TIMEOUT_MS) throw new Error(`no /healthz 200 within ${TIMEOUT_MS / 1000} s:\n${out.slice(-2000)}`);
      const ok = await fetch(`http://127.0.0.1:${port}/healthz`).then(
        (r) => r.ok,
        () => false,
      );
      if (ok) return (performance.now() - t0) / 1000;
      await new Promise((r) => setTimeout(r, 50));
    }
  } finally {
    group('SIGTERM');
    const timer = setTimeout(() => group('SIGKILL'), 15_000);
    await exited;
    // The embedded PostgreSQL stops after the npm process: the next start waits until its pid file is gone.
    const pidFile = path.join(dir, 'pg', 'postmaster.pid');
    for (let i = 0; i < 300 && existsSync(pidFile); i++) await new Promise((r) => setTimeout(r, 50));
    clearTimeout(timer);
  }
}
