import { existsSync, readdirSync } from 'node:fs';
import type { Observation } from '@bulwark/domain';
import pg from 'pg';
import { io, type Socket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  api,
  observationBody,
  organisationOn,
  PNG,
  pngForm,
  signInOver,
  startRedis,
  stopChild,
  type Node,
  type Session,
} from './faults-support.js';
import { emptyDatabase, PASSWORD } from './helpers.js';
import { nodeReady, s3Holds, startNode, startS3 } from './nodes-support.js';
import type { Fixture } from './observations-support.js';
import { connectSocket, freePort, record, waitForItem, waitUntil } from './process-helpers.js';
import { startLoad } from './nodes-load.js';

/**
 * Issue 18's "many nodes, one product": two real app processes (src/main.ts) on one PostgreSQL, one
 * Redis and one S3-compatible store (s3rver, in this process), each with a disk of its own. Started
 * at the same moment on an empty database; then one token on both, push across nodes, a file stored
 * through one and read through the other, each scheduled job run once, and a rolling restart of one
 * node under a write load that loses no request and no acknowledged write.
 */
let database: Awaited<ReturnType<typeof emptyDatabase>>;
let s3: Awaited<ReturnType<typeof startS3>>;
let redis: { url: string; stop: () => Promise<void> } | null = null;
let env: Record<string, string>;
type AppNode = Node & { filesDir: string };
const nodes: AppNode[] = [];
let a: AppNode;
let b: AppNode;
let fixture: Fixture;
let session: Session;
let schedulesChangedAt: Date;
const sockets: Socket[] = [];

async function ownerQuery<T extends pg.QueryResultRow>(text: string, values: unknown[] = []): Promise<T[]> {
  const c = new pg.Client({ connectionString: database.ownerUrl });
  await c.connect();
  try {
    return (await c.query<T>(text, values)).rows;
  } finally {
    await c.end();
  }
}

async function launch(port?: number): Promise<AppNode> {
  const node = await startNode(env, port);
  nodes.push(node);
  return node;
}

beforeAll(async () => {
  database = await emptyDatabase();
  s3 = await startS3();
  // A Redis of the test's own when the machine has redis-server; else the one REDIS_URL names.
  if (existsSync('/usr/bin/redis-server')) {
    const port = await freePort();
    const own = await startRedis(port);
    redis = { url: `redis://127.0.0.1:${port}`, stop: own.stop };
  } else if (process.env.REDIS_URL) {
    redis = { url: process.env.REDIS_URL, stop: async () => {} };
  } else {
    console.log('[nodes-cluster] no Redis here (no redis-server, no REDIS_URL): push across nodes is NOT tested');
  }
  env = {
    DATABASE_URL: database.ownerUrl,
    SEED_DEMO: '1',
    JOBS: '1',
    // Long enough for the test's balancer (it asks /readyz every 50 ms) to take a draining node out.
    DRAIN_SECONDS: '2',
    ...s3.env,
    ...(redis ? { REDIS_URL: redis.url } : {}),
  };
  // Both at once, on an empty database.
  [a, b] = [await launch(), await launch()];
  await Promise.all([nodeReady(a), nodeReady(b)]);
  ({ fixture } = await organisationOn(database.ownerUrl, 'nodes'));
  session = await signInOver(a, 'nodes', 'manager@nodes.test', PASSWORD);
  // Every schedule of every module, every minute from now: the two nodes' cron passes run side by side.
  await ownerQuery(`update pgboss.schedule set cron = '* * * * *'`);
  schedulesChangedAt = (await ownerQuery<{ now: Date }>('select now()'))[0]!.now;
}, 300_000);

afterAll(async () => {
  for (const s of sockets) s.close();
  await Promise.all(nodes.map((n) => stopChild(n.child)));
  await redis?.stop();
  await s3?.stop();
  await database?.drop();
});

describe('two nodes, one product', () => {
  it('accepts a token issued by one node on the other', async () => {
    for (const node of [a, b]) {
      const res = await api(node, session, 'GET', '/api/v2/users/user_profile');
      expect(res.status, node.url).toBe(200);
    }
  });

  it.skipIf(!existsSync('/usr/bin/redis-server') && !process.env.REDIS_URL)(
    'pushes a change made on one node to sockets on the other, both ways',
    async () => {
      for (const [writer, reader] of [
        [a, b],
        [b, a],
      ] as const) {
        const socket = await connectSocket(reader.url, { token: session.token, tenant: 'nodes' });
        sockets.push(socket);
        const seen = record<{ id?: string }>(socket, 'observations');
        const res = await api(writer, session, 'POST', '/api/observations', observationBody(fixture, `push ${writer.port}`, 0));
        expect(res.status, JSON.stringify(res.body)).toBe(201);
        const id = (res.body as { id: string }).id;
        await waitForItem(seen, (e) => e.id === id, `the event of ${id} on ${reader.url}`);
        socket.close();
      }
    },
  );

  it('serves through one node a file uploaded through the other, from the S3 store', async () => {
    const up = await api(a, session, 'POST', '/api/observations/attachments', pngForm('across.png'));
    expect(up.status, JSON.stringify(up.body)).toBe(201);
    const id = (up.body as { file: { id: string } }).file.id;
    const [row] = await ownerQuery<{ storage_key: string }>('select storage_key from files where id = $1', [id]);
    expect(s3Holds(s3.dir, row!.storage_key)).toBe(true);
    const read = await fetch(`${b.url}/api/files/${id}`, { headers: { 'x-tenant': 'nodes', authorization: `Bearer ${session.token}` } });
    expect(read.status).toBe(200);
    expect(Buffer.from(await read.arrayBuffer()).equals(PNG)).toBe(true);
    // Neither node's own disk holds it.
    for (const node of [a, b]) expect(readdirSync(node.filesDir)).toEqual([]);
  });

  it('runs each scheduled job once per occurrence, whichever node takes it', { timeout: 240_000 }, async () => {
    const names = (await ownerQuery<{ name: string }>('select name from pgboss.schedule order by name')).map((r) => r.name);
    expect(names.length).toBeGreaterThan(3);
    type Row = { name: string; minute: string; jobs: number; done: number };
    const counts = () =>
      ownerQuery<Row>(
        `select name, to_char(date_trunc('minute', created_on), 'HH24:MI') as minute, count(*)::int as jobs,
           count(*) filter (where state = 'completed')::int as done
         from pgboss.job where name = any($1) and created_on > $2 group by 1, 2 order by 1, 2`,
        [names, schedulesChangedAt],
      );
    // Wait for an occurrence of every schedule to have been sent and run (cron passes are 30 s apart).
    const rows = await waitUntil(
      'an occurrence of every schedule, run',
      async () => {
        const r = await counts();
        const ran = new Set(r.filter((x) => x.done > 0).map((x) => x.name));
        return names.every((n) => ran.has(n)) && r.every((x) => x.done === x.jobs) ? r : false;
      },
      200_000,
      1_000,
    );
    for (const r of rows) expect(r, `${r.name} at ${r.minute}`).toMatchObject({ jobs: 1, done: 1 });
    const failed = await ownerQuery<{ name: string }>(`select name from pgboss.job where name = any($1) and state = 'failed'`, [names]);
    expect(failed).toEqual([]);
  });

  it('loses no request and no acknowledged write when one node restarts under load', { timeout: 300_000 }, async () => {
    // A socket on the node that will stop, as the web opens it (with reconnection).
    const socket = io(a.url, {
      path: '/socket.io',
      auth: { token: session.token, tenant: 'nodes' },
      transports: ['websocket'],
      forceNew: true,
    });
    sockets.push(socket);
    await new Promise<void>((resolve, reject) => {
      socket.once('connect', () => resolve());
      socket.once('connect_error', reject);
    });
    const cut = new Promise<string>((resolve) => socket.once('disconnect', (r) => resolve(r)));

    const load = startLoad([a, b], session, (n) => observationBody(fixture, `rolling ${n}`, 1));
    await waitUntil('writes on both nodes', () => load.ackedBy(a) >= 10 && load.ackedBy(b) >= 10, 120_000, 20);

    a.child.proc.kill('SIGTERM');
    expect(await a.child.exited).toBe(0);
    expect(a.child.output()).toContain('draining');
    // Its socket was cut, not closed: the client reconnects by itself (to whichever node answers).
    expect(await cut).toBe('transport close');
    expect(socket.active).toBe(true);
    socket.close();
    const duringRestart = load.ackedBy(b);
    await waitUntil('writes while one node is down', () => load.ackedBy(b) >= duringRestart + 10, 120_000, 20);

    const again = await launch(a.port);
    await nodeReady(again);
    load.replace(a, again);
    await waitUntil('writes on the restarted node', () => load.ackedBy(again) >= 10, 120_000, 20);
    const result = await load.stop();
    console.log(
      `[nodes-cluster] ${result.acked.length} writes acknowledged (${result.retried} retried after a refused connection), ${result.lost.length} lost`,
    );

    expect(result.lost, 'requests sent that got no answer or an error').toEqual([]);
    const stored = await ownerQuery<{ id: string; description: string }>('select id, description from observations where id = any($1)', [
      result.acked.map((x) => x.id),
    ]);
    expect(stored.length).toBe(result.acked.length);
    for (const w of result.acked) expect(stored.find((s) => s.id === w.id)?.description).toBe(w.description);
    // And through the restarted node, as a reader would see them.
    for (const w of result.acked.slice(-5)) {
      const res = await api(again, session, 'GET', `/api/observations/${w.id}`);
      expect((res.body as { observation: Observation }).observation.description).toBe(w.description);
    }
  });
});
