import { spawn, type ChildProcess } from 'node:child_process';
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { actionDateIn, localDateTimeIn, type SignInResponse } from '@bulwark/domain';
import { createOrg, PNG } from './helpers.js';
import { setUpOrganisation, type Fixture } from './observations-support.js';
import { appOnDatabase, startChild, stopChild, waitUntil, type Child } from './process-helpers.js';
import { serverArgs } from './compiled-server.js';

export { PNG };

export const APP_SECRET = 'faults-test-secret-0123456789-0123456789';

export type Node = { child: Child; url: string; port: number };
export type Session = SignInResponse & { tenant: string };

// Folders not yet removed, removed when the worker exits: one hook for all (a worker runs many files).
const folders = new Set<string>();
process.once('exit', () => {
  for (const dir of folders) rmSync(dir, { recursive: true, force: true });
});

/** A temporary folder removed by `remove` (or on exit, whatever happened). */
export function tempDir(prefix: string): { dir: string; remove: () => void } {
  const dir = mkdtempSync(path.join(tmpdir(), prefix));
  // An embedded PostgreSQL runs as its own system user, which must be able to enter the folder.
  chmodSync(dir, 0o755);
  folders.add(dir);
  const remove = () => {
    folders.delete(dir);
    rmSync(dir, { recursive: true, force: true });
  };
  return { dir, remove };
}

/** The app as `npm start` runs it (src/main.ts), in its own process, on `port`. */
export function startApp(port: number, env: { DATABASE_URL: string; FILES_DIR: string } & Record<string, string>): Node {
  const child = startChild(serverArgs(), {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    APP_SECRET,
    PORT: String(port),
    HOST: '127.0.0.1',
    LOG_LEVEL: 'warn',
    // No one balances load to a test's node: SIGTERM stops it at once rather than draining 5 s.
    DRAIN_SECONDS: '0',
    ...env,
  });
  return { child, url: `http://127.0.0.1:${port}`, port };
}

export function alive(node: Node): boolean {
  return node.child.proc.exitCode === null && node.child.proc.signalCode === null;
}

/** Resolves once the app answers its connection check; fails early (with its output) if it exits. */
export async function ready(node: Node, timeoutMs = 60_000): Promise<void> {
  await waitUntil(
    `${node.url} to answer`,
    async () => {
      if (!alive(node)) throw new Error(`the app exited with ${node.child.proc.exitCode ?? node.child.proc.signalCode}`);
      const res = await fetch(`${node.url}/api/v2/api_connection_checks`, { signal: AbortSignal.timeout(5_000) }).catch(() => null);
      return res?.status === 200;
    },
    timeoutMs,
    200,
  ).catch((err: Error) => {
    throw new Error(`${err.message}\n--- app output ---\n${node.child.output()}`);
  });
}

export { stopChild };

/** What a request came back with; `status` 0 when no answer came (connection refused, reset or timed out). */
export type Answer = { status: number; body: unknown; error?: string };

/**
 * One request as the web client sends it, over real HTTP. Never throws: a refused or cut connection is
 * status 0, and a request that gets no answer within `timeoutMs` is status 0 with error 'timeout'.
 */
export async function api(
  node: Node,
  s: Session | null,
  method: string,
  url: string,
  payload?: unknown,
  timeoutMs = 20_000,
): Promise<Answer> {
  const headers: Record<string, string> = s ? { 'x-tenant': s.tenant, authorization: `Bearer ${s.token}`, 'x-csrf-token': s.csrf } : {};
  let body: FormData | string | undefined;
  if (payload instanceof FormData) body = payload;
  else if (payload !== undefined) {
    headers['content-type'] = 'application/json';
    body = JSON.stringify(payload);
  }
  try {
    const res = await fetch(`${node.url}${url}`, { method, headers, body, signal: AbortSignal.timeout(timeoutMs) });
    const text = await res.text();
    let parsed: unknown = text;
    try {
      parsed = JSON.parse(text);
    } catch {
      // not JSON: a file or an empty body
    }
    return { status: res.status, body: parsed };
  } catch (err) {
    const e = err as Error;
    return { status: 0, body: null, error: e.name === 'TimeoutError' ? 'timeout' : String((e as { cause?: unknown }).cause ?? e.message) };
  }
}

export async function signInOver(node: Node, tenant: string, email: string, password: string): Promise<Session> {
  const res = await fetch(`${node.url}/api/v1/authorize`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-tenant': tenant },
    body: JSON.stringify({ email, password }),
  });
  if (res.status !== 200) throw new Error(`sign-in of ${email} failed: ${res.status} ${await res.text()}`);
  return { ...((await res.json()) as SignInResponse), tenant };
}

/** A multipart body with one PNG in the field `file`, as the web uploads attachments. */
export function pngForm(name: string): FormData {
  const form = new FormData();
  form.append('file', new Blob([new Uint8Array(PNG)], { type: 'image/png' }), name);
  return form;
}

/**
 * An organisation with sites, categories and people (observations-support) on an existing database,
 * written through the app's own services before any app process starts.
 */
export async function organisationOn(ownerUrl: string, sub: string): Promise<{ orgId: string; fixture: Fixture }> {
  const t = await appOnDatabase(ownerUrl);
  try {
    const org = await createOrg(t, sub);
    return { orgId: org.id, fixture: await setUpOrganisation(t, org.id, sub) };
  } finally {
    await t.close();
  }
}

/** A valid observation body at the Tokyo site, with `actions` actions for the supervisor. */
export function observationBody(f: Fixture, description: string, actions: number, attachmentIds: string[] = []) {
  const due = new Date(Date.parse(`${actionDateIn('Asia/Tokyo')}T00:00:00Z`) + 5 * 86_400_000).toISOString().slice(0, 10);
  return {
    type: 'unsafe_act',
    category_id: f.ppe,
    sub_category_id: f.gloves,
    description,
    site_id: f.tokyo,
    site_node_id: f.tokyoDivision,
    observed_at: localDateTimeIn('Asia/Tokyo', new Date(Date.now() - 30 * 60_000)),
    risk_level: 'high',
    action_required: actions > 0,
    comment: 'Told the operator on the spot.',
    anonymous: false,
    attachment_ids: attachmentIds,
    actions: Array.from({ length: actions }, (_, i) => ({
      description: `${description}: action ${i + 1}`,
      control_type: 'ppe',
      responsible_id: f.supervisor,
      due_date: due,
    })),
  };
}

/**
 * A Redis server of the test's own (never the machine's), without persistence, on `port`. `stop`
 * kills it at once, as a crash or a lost host would.
 */
export async function startRedis(port: number): Promise<{ stop: () => Promise<void> }> {
  const proc: ChildProcess = spawn(
    '/usr/bin/redis-server',
    ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
    {
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  const kill = () => {
    if (proc.exitCode === null && proc.signalCode === null) proc.kill('SIGKILL');
  };
  process.once('exit', kill);
  let out = '';
  proc.stdout!.on('data', (d: Buffer) => (out += d.toString()));
  proc.stderr!.on('data', (d: Buffer) => (out += d.toString()));
  await waitUntil(
    `redis-server on ${port}`,
    () => {
      if (proc.exitCode !== null) throw new Error(`redis-server exited: ${out}`);
      return out.includes('Ready to accept connections');
    },
    10_000,
    50,
  );
  return {
    stop: async () => {
      if (proc.exitCode !== null || proc.signalCode !== null) return;
      const exited = new Promise<void>((resolve) => proc.once('exit', () => resolve()));
      kill();
      process.off('exit', kill);
      await exited;
    },
  };
}
