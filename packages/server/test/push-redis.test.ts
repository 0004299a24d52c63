import type { PushEvent, SignInResponse } from '@bulwark/domain';
import type { Socket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOrganizationService } from '../src/modules/organizations/service.js';
import { connect } from '../src/platform/db/db.js';
import { freshDatabase, PASSWORD } from './helpers.js';
import { connectSocket, freePort, record, startChild, stopChild, waitForItem, waitUntil, type Child } from './process-helpers.js';
import { serverArgs } from './compiled-server.js';

const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const APP_SECRET = 'redis-test-secret-0123456789-0123456789';

let database: Awaited<ReturnType<typeof freshDatabase>> | undefined;
const nodes: Array<{ child: Child; url: string }> = [];
const sockets: Socket[] = [];
let orgId = '';

async function startNode(): Promise<{ child: Child; url: string }> {
  const port = await freePort();
  const child = startChild(serverArgs(), {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    DATABASE_URL: database!.ownerUrl,
    REDIS_URL,
    APP_SECRET,
    PORT: String(port),
    HOST: '127.0.0.1',
    JOBS: '0',
    LOG_LEVEL: 'warn',
    DRAIN_SECONDS: '0',
  });
  const node = { child, url: `http://127.0.0.1:${port}` };
  nodes.push(node);
  return node;
}

async function ready(node: { child: Child; url: string }) {
  await waitUntil(
    `${node.url} to answer`,
    async () => {
      if (node.child.proc.exitCode !== null) throw new Error(`the app exited with ${node.child.proc.exitCode}:\n${node.child.output()}`);
      const res = await fetch(`${node.url}/api/v2/api_connection_checks`).catch(() => null);
      return res?.status === 200 ? ((await res.json()) as { ok: boolean }).ok : false;
    },
    60_000,
    200,
  ).catch((err: Error) => {
    throw new Error(`${err.message}\n--- app output ---\n${node.child.output()}`);
  });
}

beforeAll(async () => {
  database = await freshDatabase();
  // The app does not seed with DATABASE_URL: the organisation is made here, on the same database.
  const db = connect(database.appUrl, database.ownerUrl, 2);
  try {
    const { organization } = await createOrganizationService(db.app).createOrganization({
      subDomain: 'alpha',
      name: 'Alpha Ltd',
      admin: { email: 'admin@alpha.test', fullName: 'Admin', password: PASSWORD },
    });
    orgId = organization.id;
  } finally {
    await db.close();
  }
  const a = await startNode();
  const b = await startNode();
  await Promise.all([ready(a), ready(b)]);
});

afterAll(async () => {
  for (const s of sockets) s.close();
  await Promise.all(nodes.map((n) => stopChild(n.child)));
  for (const n of nodes) expect(n.child.proc.exitCode ?? n.child.proc.signalCode, `app process ${n.child.proc.pid}`).not.toBeNull();
  await database?.drop();
});

describe('push across app processes through Redis', () => {
  it('delivers an event caused on process A to a socket connected to process B', async () => {
    const a = nodes[0]!;
    const b = nodes[1]!;
    const signInRes = await fetch(`${a.url}/api/v1/authorize`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-tenant': 'alpha' },
      body: JSON.stringify({ email: 'admin@alpha.test', password: PASSWORD }),
    });
    expect(signInRes.status).toBe(200);
    const session = (await signInRes.json()) as SignInResponse;

    // The token signed by A is good on B (same secret, same database).
    const onB = await connectSocket(b.url, { token: session.token, tenant: 'alpha' });
    sockets.push(onB);
    const onA = await connectSocket(a.url, { token: session.token, tenant: 'alpha' });
    sockets.push(onA);
    expect(await onB.emitWithAck('get_organization')).toMatchObject({ data: { id: orgId, sub_domain_name: 'alpha' } });
    const eventsOnB = record<PushEvent>(onB, 'user');
    const eventsOnA = record<PushEvent>(onA, 'user');

    const patch = await fetch(`${a.url}/api/users/user_profile`, {
      method: 'PATCH',
      headers: {
        'content-type': 'application/json',
        'x-tenant': 'alpha',
        authorization: `Bearer ${session.token}`,
        'x-csrf-token': session.csrf,
      },
      body: JSON.stringify({ locale: 'es' }),
    });
    expect(patch.status).toBe(200);
    const userId = session.profile.user.id;
    const expected = { channel: 'user', change: 'updated', id: userId };
    // The sign-in may announce the user too, later than this on a loaded machine: wait for this change,
    // and let nothing about another user reach these sockets.
    const isExpected = (e: PushEvent) => e.channel === 'user' && e.change === 'updated' && e.id === userId;
    expect(await waitForItem(eventsOnB, isExpected, 'the user event on process B', 15_000)).toEqual(expected);
    expect(await waitForItem(eventsOnA, isExpected, 'the user event on process A', 15_000)).toEqual(expected);
    expect([...eventsOnA, ...eventsOnB].filter((e) => (e as { id?: string }).id !== userId)).toEqual([]);
    // And B reads the change A made. On a loaded machine the event (Redis) has been seen to arrive before
    // B read the change (seen once in CI's second pass, not yet explained): within 5 s, not at once.
    await expect
      .poll(async () => ((await onB.emitWithAck('get_user')) as { data: { locale: string } }).data.locale, {
        timeout: 5_000,
        interval: 100,
      })
      .toBe('es');
  });

  it('signing out on process A closes that session’s socket on process B (issue 12, item 10)', async () => {
    const a = nodes[0]!;
    const b = nodes[1]!;
    const signInRes = await fetch(`${a.url}/api/v1/authorize`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-tenant': 'alpha' },
      body: JSON.stringify({ email: 'admin@alpha.test', password: PASSWORD }),
    });
    const session = (await signInRes.json()) as SignInResponse;
    const onB = await connectSocket(b.url, { token: session.token, tenant: 'alpha' });
    sockets.push(onB);
    const closed = new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('the socket on B was still open 15 s after the sign-out on A')), 15_000);
      onB.once('disconnect', (reason) => {
        clearTimeout(timer);
        resolve(reason);
      });
    });
    const out = await fetch(`${a.url}/api/v1/user_token`, {
      method: 'DELETE',
      headers: { 'x-tenant': 'alpha', authorization: `Bearer ${session.token}`, 'x-csrf-token': session.csrf },
    });
    expect(out.status).toBe(200);
    expect(await closed).toBe('io server disconnect');
  });
});
