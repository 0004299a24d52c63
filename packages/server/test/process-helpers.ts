import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import path from 'node:path';
import { io, type Socket } from 'socket.io-client';
import { buildApp } from '../src/app.js';
import { migrate } from '../src/platform/db/migrate.js';
import { emptyDatabase, testDeps, type TestApp } from './helpers.js';

export { emptyDatabase };

/** The repository root: where `npm run ehs` and the compiled server (compiled-server.ts) run from. */
export const REPO_ROOT = path.resolve(import.meta.dirname, '../../..');

/**
 * The real app on an existing (migrated) database, reached through `app.inject`; the database is left
 * alone by `close`. Enough for helpers.createOrg / signIn / call.
 */
export async function appOnDatabase(ownerUrl: string): Promise<TestApp> {
  const appUrl = await migrate(ownerUrl);
  const deps = testDeps(appUrl, ownerUrl, 3);
  const { db } = deps;
  const app = await buildApp(deps, { logger: false });
  await app.ready();
  return {
    app,
    deps,
    ownerUrl,
    appUrl,
    close: async () => {
      await app.close();
      await db.close();
    },
  };
}

/** A TCP port that was free a moment ago. */
export async function freePort(): Promise<number> {
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

/** Polls `check` until it returns a value other than undefined/false, or fails after `timeoutMs`. */
export async function waitUntil<T>(
  what: string,
  check: () => Promise<T | undefined | false> | T | undefined | false,
  timeoutMs = 20_000,
  everyMs = 100,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let lastError: unknown;
  for (;;) {
    try {
      const value = await check();
      if (value !== undefined && value !== false) return value;
    } catch (err) {
      lastError = err;
    }
    if (Date.now() > deadline)
      throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}${lastError ? `: ${String(lastError)}` : ''}`);
    await new Promise((r) => setTimeout(r, everyMs));
  }
}

export type Child = { proc: ChildProcess; output: () => string; exited: Promise<number | null> };

const children = new Set<ChildProcess>();
// Last resort: a worker that dies or exits early must not leave servers running.
process.once('exit', () => {
  for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
});

/** Starts a long-running child process (e.g. the app) whose output is kept for error messages. */
export function startChild(args: string[], env: NodeJS.ProcessEnv): Child {
  const proc = spawn(process.execPath, args, { cwd: REPO_ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
  children.add(proc);
  let out = '';
  proc.stdout!.on('data', (d: Buffer) => (out += d.toString()));
  proc.stderr!.on('data', (d: Buffer) => (out += d.toString()));
  const exited = new Promise<number | null>((resolve) =>
    proc.once('exit', (code) => {
      children.delete(proc);
      resolve(code);
    }),
  );
  return { proc, output: () => out, exited };
}

/** SIGTERM, then SIGKILL if the process has not ended within `graceMs`. Resolves once it has exited. */
export async function stopChild(child: Child | undefined, graceMs = 10_000): Promise<void> {
  if (!child) return;
  const { proc } = child;
  if (proc.exitCode !== null || proc.signalCode !== null) return;
  proc.kill('SIGTERM');
  const timer = setTimeout(() => proc.kill('SIGKILL'), graceMs);
  await child.exited;
  clearTimeout(timer);
}

/** Runs a command to completion (bounded) and returns its exit code and output. */
export function run(
  command: string,
  args: string[],
  env: NodeJS.ProcessEnv,
  timeoutMs = 60_000,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const proc = spawn(command, args, { cwd: REPO_ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
    children.add(proc);
    let stdout = '';
    let stderr = '';
    proc.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    proc.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const timer = setTimeout(() => {
      proc.kill('SIGKILL');
      reject(new Error(`${command} ${args.join(' ')} did not finish within ${timeoutMs} ms\n${stdout}\n${stderr}`));
    }, timeoutMs);
    proc.once('error', (err) => {
      clearTimeout(timer);
      children.delete(proc);
      reject(err);
    });
    proc.once('close', (code) => {
      clearTimeout(timer);
      children.delete(proc);
      resolve({ code, stdout, stderr });
    });
  });
}

/** Connects a push socket; resolves when connected, rejects with the connect_error (bounded). */
export function connectSocket(url: string, auth: { token: string; tenant: string }, timeoutMs = 10_000): Promise<Socket> {
  const socket = io(url, { path: '/socket.io', auth, transports: ['websocket'], forceNew: true, reconnection: false });
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      socket.close();
      reject(new Error(`socket did not connect within ${timeoutMs} ms`));
    }, timeoutMs);
    socket.once('connect', () => {
      clearTimeout(timer);
      resolve(socket);
    });
    socket.once('connect_error', (err) => {
      clearTimeout(timer);
      socket.close();
      reject(err);
    });
  });
}

/** Collects every `event` a socket receives, in order. */
export function record<T = unknown>(socket: Socket, event: string): T[] {
  const seen: T[] = [];
  socket.on(event, (payload: T) => seen.push(payload));
  return seen;
}

/** Waits until a recorded list holds an item matching `pred` (bounded) and returns it. */
export function waitForItem<T>(list: T[], pred: (item: T) => boolean, what: string, timeoutMs = 10_000): Promise<T> {
  return waitUntil(what, () => list.find(pred), timeoutMs, 20);
}
