import { observationsApi, sessionApi } from '@bulwark/domain';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app.js';
import { call, createOrg, freshDatabase, signIn, testDeps, type Session, type TestApp } from './helpers.js';

/**
 * Issue 13: each node caches the principal of a session; the triggers of migration 0213 notify every
 * node of a change to what a principal is read from, and each drops it. Two app nodes share one
 * database here; the changes are made through node a (its routes or its pools, as SQL): node a sees
 * each at its very next request (it fences after its own work), node b once the notification has come,
 * which is polled for, with no other wait.
 */

let database: Awaited<ReturnType<typeof freshDatabase>>;
let a: TestApp;
let b: TestApp;
let org: Awaited<ReturnType<typeof createOrg>>;
let admin: Session;

async function node(): Promise<TestApp> {
  const deps = testDeps(database.appUrl, database.ownerUrl, 3);
  const app = await buildApp(deps, { logger: false });
  await app.ready();
  return {
    app,
    deps,
    ownerUrl: database.ownerUrl,
    appUrl: database.appUrl,
    close: async () => {
      await app.close();
      await deps.db.close();
    },
  };
}

beforeAll(async () => {
  database = await freshDatabase();
  a = await node();
  b = await node();
  org = await createOrg(a, 'cachea');
  admin = await signIn(a, org.subDomain, org.adminEmail);
});
afterAll(async () => {
  await a?.close();
  await b?.close();
  await database?.drop();
});

const owner = (q: ReturnType<typeof sql>) => a.deps.db.owner.execute(q);

async function claimsOf(s: Session) {
  const claims = await a.deps.tokens.verify(s.token);
  if (!claims) throw new Error('no claims');
  return claims;
}

/** The principal node `t` holds for the session now, if any (after the fence, as a request would). */
async function cachedOn(t: TestApp, s: Session) {
  const c = await claimsOf(s);
  return t.deps.principals.current(c.sid, c.sub);
}

/** Waits for the notification, and nothing else: polls until the condition holds (5 s at most). */
async function until(what: string, test: () => Promise<boolean> | boolean) {
  const end = Date.now() + 5_000;
  while (!(await test())) {
    if (Date.now() > end) throw new Error(`timed out waiting until ${what}`);
    await new Promise((r) => setTimeout(r, 5));
  }
}

/** Signs in and loads the session's principal into both nodes' caches. */
async function warm(email: string, url: string = sessionApi.check.path): Promise<Session> {
  const s = await signIn(a, org.subDomain, email);
  for (const t of [a, b]) {
    expect((await call(t, s, 'GET', url)).statusCode).toBe(200);
    expect(await cachedOn(t, s)).not.toBeNull();
  }
  return s;
}

/** Node a at once (the change went through it); node b once the notification is in. */
async function droppedOnBoth(s: Session) {
  expect(await cachedOn(a, s)).toBeNull();
  await until('node b dropped the principal', async () => (await cachedOn(b, s)) === null);
}

describe('principal cache across two nodes', () => {
  it('answers the session check from the cache: no statement but the fence', async () => {
    const s = await warm(org.adminEmail);
    const seen: string[] = [];
    const original = pg.Client.prototype.query;
    pg.Client.prototype.query = function (this: pg.Client, ...args: unknown[]) {
      seen.push(String(args[0]));
      return (original as (...x: unknown[]) => unknown).apply(this, args);
    } as typeof pg.Client.prototype.query;
    try {
      for (const t of [a, b]) expect((await call(t, s, 'GET', sessionApi.check.path)).json()).toMatchObject({ auth: true });
    } finally {
      pg.Client.prototype.query = original;
    }
    expect(seen.filter((q) => !/principal-fence/.test(q))).toEqual([]);
  });

  it('drops it on both nodes when the role’s rights change', async () => {
    const s = await warm(org.userEmail, observationsApi.list.path);
    await owner(sql`update role_actions set r_view = false
      where organization_id = ${org.id} and name = 'Observation'
        and role_id = (select role_id from users where id = ${org.userId})`);
    await droppedOnBoth(s);
    for (const t of [a, b]) expect((await call(t, s, 'GET', observationsApi.list.path)).statusCode).toBe(403);
    await owner(sql`update role_actions set r_view = true
      where organization_id = ${org.id} and name = 'Observation'
        and role_id = (select role_id from users where id = ${org.userId})`);
    expect((await call(a, s, 'GET', observationsApi.list.path)).statusCode).toBe(200);
    await until('the right is back on node b', async () => (await call(b, s, 'GET', observationsApi.list.path)).statusCode === 200);
  });

  it('refuses a user deactivated through node a, there at once and on node b after the notification', async () => {
    const s = await warm(org.userEmail);
    const res = await call(a, admin, 'PATCH', `/api/users/${org.userId}`, { status: 'Inactive' });
    expect(res.statusCode, res.body).toBe(200);
    expect((await call(a, s, 'GET', sessionApi.check.path)).statusCode).not.toBe(200);
    await droppedOnBoth(s);
    expect((await call(b, s, 'GET', sessionApi.check.path)).statusCode).not.toBe(200);
    await call(a, admin, 'PATCH', `/api/users/${org.userId}`, { status: 'Active' });
  });

  it('drops it when the user is made non-admin', async () => {
    await owner(sql`update users set is_admin = true where id = ${org.userId}`);
    const s = await warm(org.userEmail, '/api/organizations/guest_settings');
    expect((await cachedOn(b, s))?.isAdmin).toBe(true);
    await owner(sql`update users set is_admin = false where id = ${org.userId}`);
    await droppedOnBoth(s);
    for (const t of [a, b]) expect((await call(t, s, 'GET', '/api/organizations/guest_settings')).statusCode).toBe(403);
  });

  it('drops it when a licence is removed', async () => {
    await owner(sql`insert into user_licences (organization_id, user_id, module) values (${org.id}, ${org.userId}, 'audits')`);
    const s = await warm(org.userEmail);
    expect((await cachedOn(b, s))?.access.licences).toContain('audits');
    await owner(sql`delete from user_licences where user_id = ${org.userId} and module = 'audits'`);
    await droppedOnBoth(s);
    for (const t of [a, b]) {
      expect((await call(t, s, 'GET', sessionApi.check.path)).statusCode).toBe(200);
      expect((await cachedOn(t, s))?.access.licences).not.toContain('audits');
    }
  });

  it('drops it when the session is signed out', async () => {
    const s = await warm(org.userEmail);
    expect((await call(a, s, 'DELETE', sessionApi.signOut.path)).statusCode).toBe(200);
    await droppedOnBoth(s);
    for (const t of [b, a]) expect((await call(t, s, 'GET', sessionApi.check.path)).statusCode).toBe(401);
  });

  it('drops the organisation’s principals and its address when it is deactivated', async () => {
    const s = await warm(org.adminEmail);
    await owner(sql`update organizations set organization_status = 'Inactive' where id = ${org.id}`);
    await droppedOnBoth(s);
    for (const t of [a, b]) {
      const res = await call(t, s, 'GET', sessionApi.check.path);
      expect(res.statusCode).not.toBe(200);
      expect(res.json()).toMatchObject({ code: 'organization_inactive' });
    }
    await owner(sql`update organizations set organization_status = 'Active' where id = ${org.id}`);
    expect((await call(b, s, 'GET', sessionApi.check.path)).statusCode).toBe(200);
  });

  it('patches the storage figures in place, and drops the principal once the quota is full', async () => {
    const s = await warm(org.adminEmail);
    await owner(sql`update organizations set storage_used_bytes = 1234 where id = ${org.id}`);
    expect((await cachedOn(a, s))?.organization.storageUsedBytes).toBe(1234);
    await until('node b has the new figure', async () => (await cachedOn(b, s))?.organization.storageUsedBytes === 1234);
    expect((await cachedOn(b, s))?.access.memExhausted).toBe(false);

    await owner(sql`update organizations set storage_used_bytes = storage_quota_bytes where id = ${org.id}`);
    await droppedOnBoth(s);
    for (const t of [a, b]) {
      const res = await call(t, s, 'POST', observationsApi.create.path, {});
      expect(res.json()).toMatchObject({ code: 'memory_exhausted' });
      expect((await cachedOn(t, s))?.access.memExhausted).toBe(true);
    }
    await owner(sql`update organizations set storage_used_bytes = 0 where id = ${org.id}`);
  });

  it('never serves a session past its thirty days from the cache', async () => {
    const s = await warm(org.adminEmail);
    const c = await claimsOf(s);
    expect(a.deps.principals.get(c.sid, c.sub, Date.now() + 31 * 24 * 3600 * 1000)).toBeNull();
  });

  it('forgets everything while its listening connection is down, and listens again', async () => {
    const s = await warm(org.adminEmail);
    const killer = new pg.Client({ connectionString: database.ownerUrl });
    await killer.connect();
    try {
      await killer.query(`select pg_terminate_backend(pid) from pg_stat_activity
        where application_name = 'bulwark-principals' and datname = current_database()`);
    } finally {
      await killer.end();
    }
    await until('both nodes have lost it', () => !a.deps.principals.listening() && !b.deps.principals.listening());
    expect(await cachedOn(a, s)).toBeNull();
    // Still answered while not caching.
    expect((await call(b, s, 'GET', sessionApi.check.path)).statusCode).toBe(200);
    await until('both nodes listen again', () => a.deps.principals.listening() && b.deps.principals.listening());
    expect((await call(b, s, 'GET', sessionApi.check.path)).statusCode).toBe(200);
    expect(await cachedOn(b, s)).not.toBeNull();
  });
});
