/**
 * Starts the bare baseline server (baseline-server.ts) as a child process with the statements it replays.
 * `reads[read][organizationId][variant]` is the list of statements one request of that read runs.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Statement } from './capture.js';
import { ROOT } from './db.js';
import { BENCH_APP_SECRET, freePort } from './server.js';

/** The baseline's connections' application_name, so the bench can tell when they are idle. */
export const BARE_APPLICATION = 'bulwark-bench-bare';

export type ReplayStatement = Statement & { orgParam: number };
export type BaselineReads = Record<string, Record<string, ReplayStatement[][]>>;
export type Baseline = { url: string; stop: () => Promise<void> };

export async function startBaseline(ownerUrl: string, reads: BaselineReads, timeoutMs = 30_000): Promise<Baseline> {
  const dir = mkdtempSync(path.join(tmpdir(), 'bulwark-baseline-'));
  const file = path.join(dir, 'reads.json');
  writeFileSync(file, JSON.stringify(reads));
  const port = await freePort();
  // BENCH_NODE_ARGS profiles the baseline too (server.ts), to compare the two.
  const nodeArgs = process.env.BENCH_NODE_ARGS?.split(/\s+/).filter(Boolean) ?? [];
  const proc = spawn(process.execPath, [...nodeArgs, '--import', 'tsx', path.join(ROOT, 'bench/lib/baseline-server.ts'), file], {
    cwd: ROOT,
    env: {
      ...process.env,
      NODE_ENV: 'production',
      OWNER_URL: ownerUrl,
      PORT: String(port),
      APPLICATION_NAME: BARE_APPLICATION,
      APP_SECRET: BENCH_APP_SECRET,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  proc.stdout.on('data', (d: Buffer) => (out += d.toString()));
  proc.stderr.on('data', (d: Buffer) => (out += d.toString()));
  const exited = new Promise<void>((resolve) => proc.once('exit', () => resolve()));
  process.once('exit', () => {
    if (proc.exitCode === null && proc.signalCode === null) proc.kill('SIGKILL');
  });
  const stop = async () => {
    if (proc.exitCode === null && proc.signalCode === null) {
      proc.kill('SIGTERM');
      const timer = setTimeout(() => proc.kill('SIGKILL'), 5_000);
      await exited;
      clearTimeout(timer);
    }
    rmSync(dir, { recursive: true, force: true });
  };
  const deadline = Date.now() + timeoutMs;
  while (!out.includes('baseline ready')) {
    if (proc.exitCode !== null || Date.now() > deadline) {
      await stop();
      throw new Error(`The baseline server did not start:\n${out}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  return { url: `http://127.0.0.1:${port}`, stop };
}
