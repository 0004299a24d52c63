import type { PushEvent } from '@bulwark/domain';
import type { Socket } from 'socket.io-client';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createOrganizationService } from '../src/modules/organizations/service.js';
import { ORGANIZATION_MODULES } from '../src/modules/users/profile.js';
import { createOrg, listeningTestApp, PASSWORD, signIn, type Session, type TestApp } from './helpers.js';
import { connectSocket, record, waitForItem } from './process-helpers.js';

let t: TestApp;
let url: string;
let a: Awaited<ReturnType<typeof createOrg>>;
let b: Awaited<ReturnType<typeof createOrg>>;
const open: Socket[] = [];

/** The real server on an ephemeral port, in the order of runtime.ts: build, attach push, listen. */
beforeAll(async () => {
  ({ t, url } = await listeningTestApp());
  a = await createOrg(t, 'alpha');
  b = await createOrg(t, 'bravo');
});

afterEach(() => {
  for (const s of open.splice(0)) s.close();
});
afterAll(() => t?.close());

async function socketFor(s: Session, tenant = s.tenant): Promise<Socket> {
  const socket = await connectSocket(url, { token: s.token, tenant });
  open.push(socket);
  return socket;
}

/** 'connected', or 'refused: <connect_error message>' (a connected socket is closed at once). */
async function outcome(auth: { token: string; tenant: string }): Promise<string> {
  try {
    const socket = await connectSocket(url, auth);
    socket.close();
    return 'connected';
  } catch (err) {
    return `refused: ${(err as Error).message}`;
  }
}

/** The HTTP call as the web client makes it over the network: bearer, CSRF and tenant headers. */
async function http(s: Session, method: string, path: string, body?: unknown) {
  const res = await fetch(`${url}${path}`, {
    method,
    headers: {
      authorization: `Bearer ${s.token}`,
      'x-csrf-token': s.csrf,
      'x-tenant': s.tenant,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return { status: res.status, json: (await res.json()) as Record<string, unknown> };
}

describe('push handshake', () => {
  it('accepts a valid access token with its own tenant label', async () => {
    const s = await signIn(t, 'alpha', a.adminEmail);
    const socket = await socketFor(s);
    expect(socket.connected).toBe(true);
    // The tenant label is case-insensitive, as a host name is.
    const upper = await socketFor(s, 'ALPHA');
    expect(upper.connected).toBe(true);
  });

  it('refuses a forged or missing token and an unknown tenant', async () => {
    const s = await signIn(t, 'alpha', a.adminEmail);
    const forged = `${s.token.slice(0, -4)}AAAA`;
    expect(await outcome({ token: forged, tenant: 'alpha' })).toBe('refused: unauthorized');
    expect(await outcome({ token: 'not-a-jwt', tenant: 'alpha' })).toBe('refused: unauthorized');
    expect(await outcome({ token: '', tenant: 'alpha' })).toBe('refused: unauthorized');
    expect(await outcome({ token: s.token, tenant: 'nosuchorg' })).toBe('refused: unauthorized');
  });

  it('refuses a token of organisation A presented with the tenant label of organisation B', async () => {
    const sa = await signIn(t, 'alpha', a.adminEmail);
    expect(await outcome({ token: sa.token, tenant: 'bravo' })).toBe('refused: unauthorized');
    const sb = await signIn(t, 'bravo', b.userEmail);
    expect(await outcome({ token: sb.token, tenant: 'alpha' })).toBe('refused: unauthorized');
  });

  it('refuses a signed-out session, and closes a socket whose session was signed out', async () => {
    const s = await signIn(t, 'alpha', a.userEmail);
    const before = await socketFor(s);
    expect(await before.emitWithAck('get_user')).toMatchObject({ data: { email: a.userEmail } });
    const disconnected = new Promise<string>((resolve) => before.once('disconnect', (reason) => resolve(reason)));

    const out = await http(s, 'DELETE', '/api/v1/user_token');
    expect(out).toEqual({ status: 200, json: { ok: true } });
    expect(await disconnected).toBe('io server disconnect');

    // The access token is still unexpired and well signed: only the revoked session refuses it.
    expect(await outcome({ token: s.token, tenant: 'alpha' })).toBe('refused: unauthorized');
  });

  it('refuses, like an HTTP request, a session of an organisation the platform deactivated', async () => {
    const c = await createOrg(t, 'charlie');
    await createOrganizationService(t.deps.db.app).createPlatformAdmin({ email: 'ops@platform.test', password: PASSWORD, fullName: 'Ops' });
    const platform = await signIn(t, 'public', 'ops@platform.test');
    const s = await signIn(t, 'charlie', c.userEmail);
    const socket = await socketFor(s);
    expect(socket.connected).toBe(true);

    expect((await http(platform, 'PATCH', `/api/organizations/${c.id}`, { organization_status: 'Inactive' })).status).toBe(200);
    const viaHttp = await http(s, 'GET', '/api/users/user_profile');
    expect(viaHttp).toMatchObject({ status: 403, json: { code: 'organization_inactive' } });
    expect(await outcome({ token: s.token, tenant: 'charlie' })).toBe('refused: unauthorized');
    // A socket opened before is refused its next request, and closed.
    const disconnected = new Promise<string>((resolve) => socket.once('disconnect', (reason) => resolve(reason)));
    expect(await socket.timeout(10_000).emitWithAck('get_user')).toEqual({ error: 'unauthorized' });
    expect(await disconnected).toBe('io server disconnect');
  });
});

/** Resolves with the reason when the server closes the socket; rejects if it has not within `ms`. */
function closedByServer(socket: Socket, ms = 5_000): Promise<string> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the socket was still open ${ms} ms after its session ended`)), ms);
    socket.once('disconnect', (reason) => {
      clearTimeout(timer);
      resolve(reason);
    });
  });
}

const plain = (tenant: string, path: string, headers: Record<string, string>, body?: unknown) =>
  fetch(`${url}${path}`, {
    method: 'POST',
    headers: { 'x-tenant': tenant, ...headers, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });

describe('an ended session’s sockets are closed at once (issue 12, item 10)', () => {
  it('sign-out closes that session’s sockets and no other', async () => {
    const s = await signIn(t, 'alpha', a.userEmail);
    const other = await signIn(t, 'alpha', a.userEmail);
    const socket = await socketFor(s);
    const otherSocket = await socketFor(other);
    const events = record<PushEvent>(socket, 'organization');
    const closed = closedByServer(socket);
    expect((await http(s, 'DELETE', '/api/v1/user_token')).status).toBe(200);
    expect(await closed).toBe('io server disconnect');
    // Nothing of the organisation reaches it any more; the same user's other session is still live.
    t.deps.push.toOrganization(a.id, { channel: 'organization', change: 'updated', id: a.id });
    expect(await otherSocket.emitWithAck('get_user')).toMatchObject({ data: { email: a.userEmail } });
    expect(events).toEqual([]);
    expect(otherSocket.connected).toBe(true);
  });

  it('sign-out everywhere closes every socket of the user', async () => {
    const one = await signIn(t, 'alpha', a.userEmail);
    const two = await signIn(t, 'alpha', a.userEmail);
    const closed = [closedByServer(await socketFor(one)), closedByServer(await socketFor(two))];
    expect((await http(one, 'DELETE', '/api/v2/user_logout')).status).toBe(200);
    expect(await Promise.all(closed)).toEqual(['io server disconnect', 'io server disconnect']);
  });

  it('deactivating the user closes their sockets', async () => {
    const c = await createOrg(t, 'deactivate');
    const admin = await signIn(t, 'deactivate', c.adminEmail);
    const user = await signIn(t, 'deactivate', c.userEmail);
    const closed = closedByServer(await socketFor(user));
    const adminSocket = await socketFor(admin);
    expect((await http(admin, 'PATCH', `/api/users/${c.userId}`, { status: 'Inactive' })).status).toBe(200);
    expect(await closed).toBe('io server disconnect');
    expect(adminSocket.connected).toBe(true);
  });

  it('a password reset closes every socket of the user', async () => {
    const c = await createOrg(t, 'resetsock');
    const s = await signIn(t, 'resetsock', c.userEmail);
    const closed = closedByServer(await socketFor(s));
    expect((await plain('resetsock', '/api/v1/password_resets', {}, { email: c.userEmail })).status).toBe(200);
    const { rows } = await t.deps.db.ownerPool.query<{ body: string }>(`select body from mail_outbox where to_address = $1`, [c.userEmail]);
    const token = /password-reset\/([\w-]+)/.exec(rows[0]!.body)![1]!;
    expect((await plain('resetsock', `/api/v1/password_resets/${token}`, {}, { password: 'Crane#Lantern#58' })).status).toBe(200);
    expect(await closed).toBe('io server disconnect');
  });

  it('a replayed refresh token closes the sockets of the session it kills', async () => {
    const s = await signIn(t, 'alpha', a.adminEmail);
    const closed = closedByServer(await socketFor(s));
    expect((await plain('alpha', '/api/v1/refresh_token', { 'x-refresh-token': s.refresh })).status).toBe(200);
    // The spent token again: stolen or replayed, the family is revoked.
    expect((await plain('alpha', '/api/v1/refresh_token', { 'x-refresh-token': s.refresh })).status).toBe(401);
    expect(await closed).toBe('io server disconnect');
  });

  it('a password change closes the sockets of the other sessions, not this one', async () => {
    const c = await createOrg(t, 'changesock');
    const here = await signIn(t, 'changesock', c.userEmail);
    const elsewhere = await signIn(t, 'changesock', c.userEmail);
    const hereSocket = await socketFor(here);
    const closed = closedByServer(await socketFor(elsewhere));
    const changed = await http(here, 'PATCH', '/api/users/password', {
      current_password: PASSWORD,
      password: 'Crane#Lantern#58',
      password_confirmation: 'Crane#Lantern#58',
    });
    expect(changed.status).toBe(200);
    expect(await closed).toBe('io server disconnect');
    expect(await hereSocket.emitWithAck('get_user')).toMatchObject({ data: { email: c.userEmail } });
  });
});

describe('push requests (answered through the ack)', () => {
  let admin: Session;
  let user: Session;
  let adminSocket: Socket;
  let userSocket: Socket;

  beforeAll(async () => {
    admin = await signIn(t, 'alpha', a.adminEmail);
    user = await signIn(t, 'alpha', a.userEmail);
  });
  // Each test opens its own sockets (the outer afterEach closes them).
  const sockets = async () => {
    adminSocket = await socketFor(admin);
    userSocket = await socketFor(user);
  };

  it('get_user returns the signed-in user', async () => {
    await sockets();
    const forAdmin = (await adminSocket.emitWithAck('get_user')) as { data: Record<string, unknown> };
    expect(forAdmin.data).toMatchObject({
      id: a.adminId,
      email: a.adminEmail,
      organization_id: a.id,
      is_admin: true,
      role_name: 'Administrator',
    });
    const forUser = (await userSocket.emitWithAck('get_user')) as { data: Record<string, unknown> };
    expect(forUser.data).toMatchObject({ id: a.userId, email: a.userEmail, organization_id: a.id, is_admin: false, role_name: 'Reader' });
  });

  it('get_rules returns the rules of the user’s role', async () => {
    await sockets();
    const forUser = (await userSocket.emitWithAck('get_rules')) as { data: Array<{ subject: string; actions: string[] }> };
    expect(forUser.data).toEqual(user.profile.rules);
    expect(forUser.data.map((r) => r.subject).sort()).toEqual(['Incident', 'Observation']);
    const forAdmin = (await adminSocket.emitWithAck('get_rules')) as { data: Array<{ subject: string }> };
    expect(forAdmin.data).toEqual(admin.profile.rules);
    expect(forAdmin.data.length).toBeGreaterThan(forUser.data.length);
  });

  it('get_all_unread_notifications returns the user’s notifications with the unread count', async () => {
    await sockets();
    const res = (await adminSocket.emitWithAck('get_all_unread_notifications')) as {
      data: { notifications: Array<{ title: string; is_read: boolean }>; unread: number };
    };
    expect(res.data.unread).toBeGreaterThanOrEqual(1);
    expect(res.data.notifications).toContainEqual(expect.objectContaining({ title: 'Welcome to Bulwark EHS', is_read: false }));
    // The welcome notice belongs to the admin only.
    const forUser = (await userSocket.emitWithAck('get_all_unread_notifications')) as {
      data: { notifications: unknown[]; unread: number };
    };
    expect(forUser.data).toEqual({ notifications: [], unread: 0 });
  });

  it('get_tenant_memory_details, get_timezone, get_organization and get_all_modules answer for the organisation', async () => {
    await sockets();
    expect(await userSocket.emitWithAck('get_tenant_memory_details')).toEqual({
      data: { mem_exhausted: false, used_bytes: 0, quota_bytes: 100 * 1024 * 1024 },
    });
    expect(await userSocket.emitWithAck('get_timezone')).toEqual({ data: { timezone: 'UTC' } });
    const org = (await userSocket.emitWithAck('get_organization')) as { data: Record<string, unknown> };
    expect(org.data).toMatchObject({ id: a.id, sub_domain_name: 'alpha', name: 'alpha Ltd', timezone: 'UTC' });
    expect(await userSocket.emitWithAck('get_all_modules')).toEqual({ data: ORGANIZATION_MODULES });
    expect(ORGANIZATION_MODULES).toContain('observations');
  });

  it('answers each organisation with its own data', async () => {
    const sb = await signIn(t, 'bravo', b.adminEmail);
    const socket = await socketFor(sb);
    expect(await socket.emitWithAck('get_organization')).toMatchObject({ data: { id: b.id, sub_domain_name: 'bravo' } });
    expect(await socket.emitWithAck('get_user')).toMatchObject({ data: { id: b.adminId, email: b.adminEmail } });
  });
});

describe('push events', () => {
  it('tells only the user whose profile changed, not a colleague nor another organisation', async () => {
    const sUser = await signIn(t, 'alpha', a.userEmail);
    const sAdmin = await signIn(t, 'alpha', a.adminEmail);
    const sOther = await signIn(t, 'bravo', b.userEmail);
    const userEvents = record<PushEvent>(await socketFor(sUser), 'user');
    const adminEvents = record<PushEvent>(await socketFor(sAdmin), 'user');
    const otherEvents = record<PushEvent>(await socketFor(sOther), 'user');

    const res = await http(sUser, 'PATCH', '/api/users/user_profile', { locale: 'es' });
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({ user: { id: a.userId, locale: 'es' } });
    const event = await waitForItem(userEvents, () => true, 'the user event on the changed user’s socket');
    expect(event).toEqual({ channel: 'user', change: 'updated', id: a.userId });

    // Barrier: each other socket now gets an event of its own. Events on one socket arrive in the order
    // the server emitted them, so anything meant for them from the first change would already be here.
    expect((await http(sAdmin, 'PATCH', '/api/users/user_profile', { locale: 'tr' })).status).toBe(200);
    expect((await http(sOther, 'PATCH', '/api/users/user_profile', { locale: 'zh' })).status).toBe(200);
    await waitForItem(adminEvents, (e) => e.id === a.adminId, 'the admin’s own user event');
    await waitForItem(otherEvents, (e) => e.id === b.userId, 'the other organisation’s own user event');
    expect(adminEvents).toEqual([{ channel: 'user', change: 'updated', id: a.adminId }]);
    expect(otherEvents).toEqual([{ channel: 'user', change: 'updated', id: b.userId }]);
    expect(userEvents).toEqual([{ channel: 'user', change: 'updated', id: a.userId }]);
  });

  it('tells every socket of an organisation when a platform admin changes it, and no other organisation', async () => {
    await createOrganizationService(t.deps.db.app).createPlatformAdmin({
      email: 'root@platform.test',
      password: PASSWORD,
      fullName: 'Root',
    });
    const platform = await signIn(t, 'public', 'root@platform.test');
    expect(platform.profile.user.is_platform_admin).toBe(true);

    const aAdmin = record<PushEvent>(await socketFor(await signIn(t, 'alpha', a.adminEmail)), 'organization');
    const aUser = record<PushEvent>(await socketFor(await signIn(t, 'alpha', a.userEmail)), 'organization');
    const bUser = record<PushEvent>(await socketFor(await signIn(t, 'bravo', b.userEmail)), 'organization');

    const res = await http(platform, 'PATCH', `/api/organizations/${a.id}`, { subscription_type: 'active' });
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({ id: a.id, subscription_type: 'active' });
    const expected = { channel: 'organization', change: 'updated', id: a.id };
    expect(await waitForItem(aAdmin, () => true, 'organization event on the admin socket')).toEqual(expected);
    expect(await waitForItem(aUser, () => true, 'organization event on the user socket')).toEqual(expected);

    // Barrier for the other organisation, as above.
    expect((await http(platform, 'PATCH', `/api/organizations/${b.id}`, { subscription_type: 'active' })).status).toBe(200);
    await waitForItem(bUser, (e) => e.id === b.id, 'bravo’s own organization event');
    expect(bUser).toEqual([{ channel: 'organization', change: 'updated', id: b.id }]);
    expect(aUser).toEqual([expected]);
  });
});
