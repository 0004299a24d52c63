import { timingSafeEqual } from 'node:crypto';
import { isIP } from 'node:net';
import { sql } from 'drizzle-orm';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { AppDeps } from '../deps.js';
import { AppError } from '../errors.js';
import { createMetrics, withTimeout, type Metrics } from './metrics.js';

/**
 * What operators and load balancers see of a node, outside the API (no contract, no tenant, no data
 * of any organisation):
 * - `GET /healthz`: the process lives and answers (200), draining or not;
 * - `GET /readyz`: 200 when the database answers and, with REDIS_URL, Redis too, and the node is not
 *   draining; 503 otherwise, so that the load balancer sends it no new work;
 * - `GET /metrics`: Prometheus text (metrics.ts), for a bearer METRICS_TOKEN, or without one only to
 *   a direct connection from this machine.
 */
export type Ops = {
  metrics: Metrics;
  readonly draining: boolean;
  /** From now on /readyz answers 503 and every answer closes its connection. */
  startDraining: () => void;
};

export function createOps(metrics: Metrics = createMetrics()): Ops {
  let draining = false;
  metrics.sources.draining = () => draining;
  return {
    metrics,
    get draining() {
      return draining;
    },
    startDraining() {
      draining = true;
    },
  };
}

declare module 'fastify' {
  interface FastifyInstance {
    ops: Ops;
  }
}

export type Readiness = { ready: boolean; draining: boolean; checks: { database: Check; redis: Check } };
type Check = 'ok' | 'failed' | 'not_configured';

/** Mounts the three routes and the hooks that count requests. Call before the other routes. */
export function registerOps(app: FastifyInstance, deps: AppDeps, ops: Ops): void {
  const { metrics } = ops;
  metrics.sources.db ??= deps.db;
  metrics.sources.jobs ??= () => deps.jobs;
  metrics.sources.sockets ??= () => deps.push.connectedSockets();
  app.decorate('ops', ops);

  // Callback hooks, not async ones: they run on every request, and a promise per hook is measurable there.
  app.addHook('onRequest', (_req, reply, done) => {
    metrics.inFlight.inc();
    // 'close' comes for every request, answered or abandoned by its client.
    reply.raw.once('close', () => metrics.inFlight.dec());
    done();
  });
  app.addHook('onSend', (_req, reply, payload, done) => {
    // A draining node ends each connection after its answer: the client's next request opens a new
    // one, which the load balancer sends to a node that is staying.
    if (ops.draining) reply.header('connection', 'close');
    done(null, payload);
  });
  app.addHook('onResponse', (req, reply, done) => {
    metrics.request(req.method, req.routeOptions.url ?? '(unmatched)', reply.statusCode, reply.elapsedTime / 1000);
    done();
  });

  app.get('/healthz', async (_req, reply) => reply.header('cache-control', 'no-store').send({ ok: true, draining: ops.draining }));

  app.get('/readyz', async (_req, reply) => {
    const state = await readiness(deps, ops);
    return reply
      .status(state.ready ? 200 : 503)
      .header('cache-control', 'no-store')
      .send(state);
  });

  app.get('/metrics', async (req, reply) => {
    allowMetrics(req, deps.config.metricsToken);
    return reply
      .header('content-type', metrics.registry.contentType)
      .header('cache-control', 'no-store')
      .send(await metrics.registry.metrics());
  });
}

export async function readiness(deps: Pick<AppDeps, 'db' | 'push'>, ops: Pick<Ops, 'draining'>): Promise<Readiness> {
  const [database, redis] = await Promise.all([
    withTimeout(deps.db.app.execute(sql`select 1`), 2_000).then(
      (): Check => 'ok',
      (): Check => 'failed',
    ),
    (deps.push.redisAnswers() ?? Promise.resolve(null)).then((ok): Check => (ok === null ? 'not_configured' : ok ? 'ok' : 'failed')),
  ]);
  const ready = !ops.draining && database === 'ok' && redis !== 'failed';
  return { ready, draining: ops.draining, checks: { database, redis } };
}

/**
 * With METRICS_TOKEN, a scraper sends `Authorization: Bearer <token>`. Without it, only a direct
 * connection from this machine is answered: the socket's own address, never X-Forwarded-For, and
 * nothing relayed by a proxy (which would make every public request look local).
 */
function allowMetrics(req: FastifyRequest, token: string | null): void {
  if (token) {
    const given = /^Bearer (.+)$/i.exec(req.headers.authorization ?? '')?.[1] ?? '';
    const a = Buffer.from(given);
    const b = Buffer.from(token);
    if (a.length !== b.length || !timingSafeEqual(a, b)) throw new AppError('unauthorized');
    return;
  }
  const peer = req.socket.remoteAddress ?? '';
  const relayed = req.headers['x-forwarded-for'] !== undefined || req.headers.forwarded !== undefined;
  if (relayed || !isLoopback(peer)) throw new AppError('forbidden');
}

function isLoopback(address: string): boolean {
  const v4 = address.startsWith('::ffff:') ? address.slice(7) : address;
  if (isIP(v4) === 4) return v4.startsWith('127.');
  return address === '::1';
}
