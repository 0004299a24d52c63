import { defineApi, observationsApi, sessionApi } from '@bulwark/domain';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { buildApp } from '../src/app.js';
import { createRouter } from '../src/platform/http/route.js';
import { call, createOrg, freshDatabase, signIn, testDeps, type Session, type TestApp } from './helpers.js';

/**
 * The fixed cost of an authenticated request, in statements sent to PostgreSQL: the route helper opens
 * one transaction and sets the organisation in one round trip, and commits in another (which also says
 * whether the transaction wrote anything); the principal comes from the node's cache
 * (platform/auth/principal-cache.ts) once the session's first request has read it. After work of this
 * node that may have changed a principal (a write) the cached read waits for one fence on the cache's own
 * connection, shared by the requests that arrive meanwhile; after reads it does not. A probe route whose handler sends exactly
 * one statement shows what the helper adds around it.
 */

const probeApi = defineApi('probe', {
  read: {
    method: 'GET',
    path: '/api/test_probe/read',
    access: { session: true },
    summary: 'Probe',
    response: z.object({ one: z.number() }),
  },
  write: {
    method: 'POST',
    path: '/api/test_probe/write',
    access: { subject: 'Observation', action: 'create' },
    summary: 'Probe',
    body: z.object({ n: z.number() }),
    response: z.object({ one: z.number() }),
  },
  org: {
    method: 'GET',
    path: '/api/test_probe/org',
    access: { session: true },
    summary: 'Probe',
    response: z.object({ org: z.string() }),
  },
  readWrite: {
    method: 'GET',
    path: '/api/test_probe/read_write',
    access: { session: true },
    summary: 'Probe',
    response: z.object({ one: z.number() }),
  },
  touch: {
    method: 'POST',
    path: '/api/test_probe/touch',
    access: { subject: 'Observation', action: 'create' },
    summary: 'Probe',
    body: z.object({}),
    response: z.object({ one: z.number() }),
  },
});

let t: TestApp;
let admin: Session;
let other: Session;
let orgIds: [string, string];
const seen: string[] = [];
let counting = false;
const originalQuery = pg.Client.prototype.query;

beforeAll(async () => {
  const database = await freshDatabase();
  const deps = testDeps(database.appUrl, database.ownerUrl);
  const app = await buildApp(deps, { logger: false });
  const router = createRouter(app, deps);
  router.route(probeApi.read, async ({ tx }) => ({ one: Number((await tx.execute(sql`select 1 as one`)).rows[0]!.one) }));
  router.route(probeApi.write, async ({ tx, body }) => ({
    one: Number((await tx.execute(sql`select ${body.n}::int as one`)).rows[0]!.one),
  }));
  // The read path (route option database: 'read'): no transaction, a read-only connection.
  router.route(
    probeApi.org,
    async ({ tx }) => ({ org: String((await tx.execute(sql`select current_setting('app.organization_id') as org`)).rows[0]!.org) }),
    {
      database: 'read',
    },
  );
  router.route(
    probeApi.readWrite,
    async ({ tx }) => ({ one: (await tx.execute(sql`update users set full_name = full_name where false`)).rowCount ?? 0 }),
    {
      database: 'read',
    },
  );
  // Taking a transaction id is what any write does.
  router.route(probeApi.touch, async ({ tx }) => ({
    one: Number((await tx.execute(sql`select (txid_current() * 0 + 1)::int as one`)).rows[0]!.one),
  }));
  await app.ready();
  t = {
    app,
    deps,
    ownerUrl: database.ownerUrl,
    appUrl: database.appUrl,
    close: async () => {
      await app.close();
      await deps.db.close();
      await database.drop();
    },
  };
  const org = await createOrg(t, 'stmts');
  admin = await signIn(t, org.subDomain, org.adminEmail);
  const second = await createOrg(t, 'stmtsb');
  other = await signIn(t, second.subDomain, second.adminEmail);
  orgIds = [org.id, second.id];
  // Every statement any pooled client sends while `counting` is on.
  pg.Client.prototype.query = function (this: pg.Client, ...args: unknown[]) {
    if (counting) {
      const first = args[0] as string | { text?: string };
      seen.push(typeof first === 'string' ? first : (first?.text ?? '?'));
    }
    return (originalQuery as (...a: unknown[]) => unknown).apply(this, args);
  } as typeof pg.Client.prototype.query;
});
afterAll(async () => {
  pg.Client.prototype.query = originalQuery;
  await t?.close();
});

async function statementsOf(send: () => Promise<{ statusCode: number }>): Promise<string[]> {
  seen.length = 0;
  counting = true;
  try {
    const res = await send();
    expect(res.statusCode).toBe(200);
  } finally {
    counting = false;
  }
  return [...seen];
}

const FENCE = /principal-fence/;

describe('statements per authenticated request', () => {
  it('a first read costs its own statement plus three: begin with the organisation, the principal, commit', async () => {
    const fresh = await signIn(t, admin.tenant, 'admin@stmts.test');
    const statements = await statementsOf(() => call(t, fresh, 'GET', '/api/test_probe/read'));
    const fixed = statements.filter((s) => !/select 1 as one/.test(s) && !FENCE.test(s));
    expect(fixed.length).toBeLessThanOrEqual(3);
    expect(statements.filter((s) => /^begin/i.test(s.trim()))).toHaveLength(1);
  });

  it('a read with the principal cached costs its own statement plus two (begin with the organisation, commit) and, after a write, a fence', async () => {
    await call(t, admin, 'GET', '/api/test_probe/read');
    const statements = await statementsOf(() => call(t, admin, 'GET', '/api/test_probe/read'));
    const fixed = statements.filter((s) => !/select 1 as one/.test(s) && !FENCE.test(s));
    console.log(
      `statements per authenticated read: ${statements.length} (fixed ${fixed.length}, fences ${statements.length - fixed.length - 1})`,
    );
    expect(statements.some((s) => /select 1 as one/.test(s))).toBe(true);
    expect(fixed.length).toBeLessThanOrEqual(2);
    expect(statements.filter((s) => FENCE.test(s))).toHaveLength(1);
    // One transaction, not two.
    expect(statements.filter((s) => /^begin/i.test(s.trim()))).toHaveLength(1);
  });

  it('a read after reads needs no fence: a transaction that wrote nothing cannot have changed a principal', async () => {
    await call(t, admin, 'GET', '/api/test_probe/read');
    await call(t, admin, 'GET', '/api/test_probe/read');
    const statements = await statementsOf(() => call(t, admin, 'GET', '/api/test_probe/read'));
    expect(statements.filter((s) => FENCE.test(s))).toHaveLength(0);
    expect(statements.filter((s) => !/select 1 as one/.test(s))).toHaveLength(2);
  });

  it('a read after a transaction that took a transaction id (a write) waits for a fence', async () => {
    await call(t, admin, 'GET', '/api/test_probe/read');
    await call(t, admin, 'POST', '/api/test_probe/touch', {});
    const statements = await statementsOf(() => call(t, admin, 'GET', '/api/test_probe/read'));
    expect(statements.filter((s) => FENCE.test(s))).toHaveLength(1);
  });

  it('a release outside the route helper (which may have written anything) makes the next read wait for a fence', async () => {
    await call(t, admin, 'GET', '/api/test_probe/read');
    const client = await t.deps.db.appPool.connect();
    await client.query('select 1');
    client.release();
    const statements = await statementsOf(() => call(t, admin, 'GET', '/api/test_probe/read'));
    expect(statements.filter((s) => FENCE.test(s))).toHaveLength(1);
  });

  it('the session check sends nothing at all, once no work of this node is left to fence', async () => {
    await call(t, admin, 'GET', sessionApi.check.path);
    expect(await statementsOf(() => call(t, admin, 'GET', sessionApi.check.path))).toEqual([]);
  });

  it('a write with a right to check costs the same', async () => {
    const statements = await statementsOf(() => call(t, admin, 'POST', '/api/test_probe/write', { n: 7 }));
    const fixed = statements.filter((s) => !/::int as one/.test(s) && !FENCE.test(s));
    expect(fixed.length).toBeLessThanOrEqual(3);
    // The session check before it left nothing to fence.
    expect(statements.filter((s) => FENCE.test(s))).toHaveLength(0);
    expect(statements.filter((s) => /^begin/i.test(s.trim()))).toHaveLength(1);
  });

  it('a list runs without a transaction, on a read connection that already holds the organisation: its own statements only', async () => {
    await call(t, admin, 'GET', observationsApi.list.path);
    const statements = await statementsOf(() => call(t, admin, 'GET', observationsApi.list.path));
    expect(statements.length).toBeGreaterThan(0);
    expect(statements.filter((s) => /^(begin|commit)|; *commit|set_config/i.test(s.trim()))).toEqual([]);
  });

  it('a read connection answers each organisation as its own, alternating between two', async () => {
    for (let i = 0; i < 6; i++) {
      const [session, id] = i % 2 ? [other, orgIds[1]] : [admin, orgIds[0]];
      const res = await call(t, session, 'GET', '/api/test_probe/org');
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ org: id });
    }
  });

  it('a write sent on the read path fails (the connection is read-only) and the next read works', async () => {
    const res = await call(t, admin, 'GET', '/api/test_probe/read_write');
    expect(res.statusCode).toBe(500);
    expect((await call(t, admin, 'GET', '/api/test_probe/org')).json()).toEqual({ org: orgIds[0] });
  });
});
