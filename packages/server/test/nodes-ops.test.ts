import { existsSync } from 'node:fs';
import { io, type Socket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp, pushRequestHandlers } from '../src/app.js';
import { startJobs } from '../src/platform/jobs/jobs.js';
import { createOps, type Ops } from '../src/platform/ops/ops.js';
import { createPush } from '../src/platform/push/push.js';
import { startRedis } from './faults-support.js';
import { call, createOrg, freshDatabase, signIn, testDeps, type Session, type TestApp } from './helpers.js';
import { connectSocket, freePort, record, waitForItem, waitUntil } from './process-helpers.js';

/**
 * What operators see of a node: /healthz, /readyz (database, Redis when configured, draining) and the
 * Prometheus metrics at /metrics, which never show an organisation's data.
 */
let database: Awaited<ReturnType<typeof freshDatabase>>;
const apps: TestApp[] = [];
let t: TestApp;
let ops: Ops;
let url: string;
let org: Awaited<ReturnType<typeof createOrg>>;
let admin: Session;
const sockets: Socket[] = [];

/** The real app on the shared database, listening, with push; `redisUrl` and `metricsToken` as given. */
async function node(options: { redisUrl?: string | null; metricsToken?: string } = {}): Promise<{ t: TestApp; ops: Ops; url: string }> {
  const deps = testDeps(database.appUrl, database.ownerUrl, 3, {
    redisUrl: options.redisUrl ?? null,
    metricsToken: options.metricsToken ?? null,
  });
  const nodeOps = createOps();
  deps.push = createPush({
    db: deps.db.app,
    tokens: deps.tokens,
    redisUrl: deps.config.redisUrl,
    log: () => {},
    onDelivered: nodeOps.metrics.pushDelivered,
  });
  const app = await buildApp(deps, { logger: false, ops: nodeOps });
  deps.push.attach(app.server, pushRequestHandlers(deps));
  const address = await app.listen({ port: 0, host: '127.0.0.1' });
  const made: TestApp = {
    app,
    deps,
    ownerUrl: database.ownerUrl,
    appUrl: database.appUrl,
    close: async () => {
      await deps.jobs?.stop();
      await deps.push.close();
      await app.close();
      await deps.db.close();
    },
  };
  apps.push(made);
  return { t: made, ops: nodeOps, url: address };
}

beforeAll(async () => {
  database = await freshDatabase();
  ({ t, ops, url } = await node());
  org = await createOrg(t, 'opsorg');
  admin = await signIn(t, org.subDomain, org.adminEmail);
});
afterAll(async () => {
  for (const s of sockets) s.close();
  for (const a of apps.reverse()) await a.close();
  await database?.drop();
});

const get = (app: TestApp, path: string, headers: Record<string, string> = {}) =>
  app.app.inject({ method: 'GET', url: path, headers, remoteAddress: '127.0.0.1' });
const metricsText = async (app: TestApp = t) => {
  const res = await get(app, '/metrics');
  expect(res.statusCode, res.body).toBe(200);
  return res.body;
};

describe('health and readiness', () => {
  it('/healthz says the process lives; /readyz that the database answers and Redis is not configured', async () => {
    const health = await get(t, '/healthz');
    expect(health.statusCode).toBe(200);
    expect(health.json()).toEqual({ ok: true, draining: false });
    const ready = await get(t, '/readyz');
    expect(ready.statusCode).toBe(200);
    expect(ready.json()).toEqual({ ready: true, draining: false, checks: { database: 'ok', redis: 'not_configured' } });
    expect(ready.headers['cache-control']).toBe('no-store');
  });

  it('/readyz is 503 when the database does not answer', async () => {
    const down = await node();
    await down.t.deps.db.close();
    const ready = await get(down.t, '/readyz');
    expect(ready.statusCode).toBe(503);
    expect(ready.json().checks.database).toBe('failed');
    expect((await get(down.t, '/healthz')).statusCode).toBe(200);
  });

  it('/readyz checks Redis when REDIS_URL is set: 200 while it answers, 503 once it is gone', async () => {
    if (!existsSync('/usr/bin/redis-server')) {
      console.log('[nodes-ops] /usr/bin/redis-server is missing: the Redis readiness check is not tested here');
      return;
    }
    const port = await freePort();
    const redis = await startRedis(port);
    try {
      const withRedis = await node({ redisUrl: `redis://127.0.0.1:${port}` });
      const ok = await waitUntil('Redis to answer', async () => {
        const res = await get(withRedis.t, '/readyz');
        return res.statusCode === 200 ? (res.json() as { checks: Record<string, string> }) : false;
      });
      expect(ok.checks).toEqual({ database: 'ok', redis: 'ok' });
      await redis.stop();
      const gone = await get(withRedis.t, '/readyz');
      expect(gone.statusCode).toBe(503);
      expect(gone.json().checks.redis).toBe('failed');
    } finally {
      await redis.stop();
    }
  });
});

describe('metrics', () => {
  it('counts requests by route pattern, and shows pools, sockets and push delivery, without any tenant data', async () => {
    const obs = await call(t, admin, 'GET', '/api/observations/00000000-0000-4000-8000-000000000000');
    expect(obs.statusCode).toBe(404);
    const socket = await connectSocket(url, { token: admin.token, tenant: admin.tenant });
    sockets.push(socket);
    const seen = record(socket, 'organization');
    t.deps.push.toOrganization(org.id, { channel: 'organization', change: 'updated', id: org.id });
    await waitForItem(seen, () => true, 'the organisation event');

    const text = await metricsText();
    expect(text).toMatch(/^bulwark_http_requests_total\{method="GET",route="\/api\/observations\/:id",status="404"\} 1$/m);
    expect(text).toMatch(/^bulwark_http_request_duration_seconds_count\{method="GET",route="\/api\/observations\/:id",status="404"\} 1$/m);
    expect(text).toMatch(/^bulwark_db_pool_connections\{pool="app",state="max"\} 3$/m);
    expect(text).toMatch(/^bulwark_db_pool_connections\{pool="app",state="waiting"\} 0$/m);
    expect(text).toMatch(/^bulwark_push_sockets 1$/m);
    expect(text).toMatch(/^bulwark_push_delivery_seconds_count 1$/m);
    expect(text).toMatch(/^bulwark_draining 0$/m);
    expect(text).toMatch(/^bulwark_process_resident_memory_bytes \d+/m);
    // Patterns and counts only: no organisation, person or record appears.
    for (const secret of [org.id, org.subDomain, org.adminEmail, admin.token, '00000000-0000-4000-8000-000000000000']) {
      expect(text).not.toContain(secret);
    }
  });

  it("shows every queue's depth and this node's job outcomes", async () => {
    let fail = true;
    t.deps.jobs = await startJobs(
      database.ownerUrl,
      {
        'ops-probe': async () => {
          if (fail) {
            fail = false;
            throw new Error('first try fails');
          }
        },
      },
      [],
      () => {},
      ops.metrics.job,
    );
    await t.deps.jobs.send('ops-probe', {});
    await waitUntil('the probe to fail once', async () =>
      /bulwark_jobs_processed_total\{queue="ops-probe",outcome="failed"\} 1/.test(await metricsText()),
    );
    const text = await metricsText();
    expect(text).toMatch(/^bulwark_job_queue_jobs\{queue="ops-probe",state="queued"\} \d+$/m);
    expect(text).toMatch(/^bulwark_job_queue_jobs\{queue="ops-probe",state="failed"\} \d+$/m);
    expect(text).toMatch(/^bulwark_job_duration_seconds_count\{queue="ops-probe"\} 1$/m);
  });

  it('answers only a direct connection from this machine without METRICS_TOKEN', async () => {
    expect((await get(t, '/metrics', { 'x-forwarded-for': '203.0.113.9' })).statusCode).toBe(403);
    expect((await get(t, '/metrics', { forwarded: 'for=203.0.113.9' })).statusCode).toBe(403);
    const remote = await t.app.inject({ method: 'GET', url: '/metrics', remoteAddress: '203.0.113.9' });
    expect(remote.statusCode).toBe(403);
    expect(remote.json().code).toBe('forbidden');
  });

  it('asks for the bearer METRICS_TOKEN when one is set, from anywhere', async () => {
    const guarded = await node({ metricsToken: 'scrape-me-0123456789' });
    const at = (headers: Record<string, string>) =>
      guarded.t.app.inject({ method: 'GET', url: '/metrics', headers, remoteAddress: '198.51.100.7' });
    expect((await at({})).statusCode).toBe(401);
    expect((await at({ authorization: 'Bearer scrape-me-012345678' })).statusCode).toBe(401);
    const ok = await at({ authorization: 'Bearer scrape-me-0123456789' });
    expect(ok.statusCode).toBe(200);
    expect(ok.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
  });
});

describe('draining', () => {
  it('says not ready while draining, stays alive, and closes each connection after its answer', async () => {
    ops.startDraining();
    const ready = await get(t, '/readyz');
    expect(ready.statusCode).toBe(503);
    expect(ready.json()).toMatchObject({ ready: false, draining: true });
    const health = await get(t, '/healthz');
    expect(health.statusCode).toBe(200);
    expect(health.headers.connection).toBe('close');
    const work = await call(t, admin, 'GET', '/api/v2/users/user_profile');
    expect(work.statusCode).toBe(200);
    expect(work.headers.connection).toBe('close');
    expect(await metricsText()).toMatch(/^bulwark_draining 1$/m);
  });

  it('cuts push sockets so that their clients reconnect (to another node)', async () => {
    // As the web opens it: with reconnection (connectSocket's test sockets have none).
    const socket = io(url, {
      path: '/socket.io',
      auth: { token: admin.token, tenant: admin.tenant },
      transports: ['websocket'],
      forceNew: true,
    });
    sockets.push(socket);
    await new Promise<void>((resolve, reject) => {
      socket.once('connect', () => resolve());
      socket.once('connect_error', reject);
    });
    const reason = new Promise<string>((resolve) => socket.once('disconnect', (r) => resolve(r)));
    t.deps.push.drain();
    // "transport close", not "io server disconnect": socket.io-client reconnects by itself.
    expect(await reason).toBe('transport close');
    expect(socket.active).toBe(true);
    socket.close();
  });
});
