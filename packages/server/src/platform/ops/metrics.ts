import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { Database } from '../db/db.js';
import type { Jobs } from '../jobs/jobs.js';

/** What the gauges read when Prometheus scrapes: whatever of it this process has. */
export type MetricSources = {
  db?: Pick<Database, 'appPool' | 'ownerPool'> & Partial<Pick<Database, 'readPool'>>;
  /** Read at each scrape: the job workers start after the app is built (and not at all with JOBS=0). */
  jobs?: () => Jobs | null;
  sockets?: () => number;
  draining?: () => boolean;
};

export type Metrics = {
  registry: Registry;
  /** One answered HTTP request: `route` is the route's pattern (`/api/observations/:id`), never the raw path. */
  request: (method: string, route: string, status: number, seconds: number) => void;
  inFlight: Gauge;
  /** One push event written to a socket of this node, `seconds` after the emitting node sent it. */
  pushDelivered: (seconds: number) => void;
  /** One job this node's workers ran. */
  job: (queue: string, outcome: 'completed' | 'failed', seconds: number) => void;
  /** Where the gauges read from; set as the pieces start. */
  sources: MetricSources;
};

const SECONDS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];

/**
 * The Prometheus metrics of one app process, in a registry of its own (two apps in one test process do
 * not collide). Every name starts with `bulwark_`; the README's operations section lists them. No label
 * holds tenant data: routes are patterns, queues are job names.
 */
export function createMetrics(): Metrics {
  const registry = new Registry();
  const sources: MetricSources = {};
  collectDefaultMetrics({ register: registry, prefix: 'bulwark_' });

  const requests = new Counter({
    name: 'bulwark_http_requests_total',
    help: 'HTTP requests answered, by method, route pattern and status',
    labelNames: ['method', 'route', 'status'] as const,
    registers: [registry],
  });
  const latency = new Histogram({
    name: 'bulwark_http_request_duration_seconds',
    help: 'Time from a request arriving to its answer being sent, by method, route pattern and status',
    labelNames: ['method', 'route', 'status'] as const,
    buckets: SECONDS,
    registers: [registry],
  });
  const inFlight = new Gauge({ name: 'bulwark_http_requests_in_flight', help: 'Requests being answered now', registers: [registry] });

  new Gauge({
    name: 'bulwark_db_pool_connections',
    help: 'Database pool connections of this node: total open, idle, and requests waiting for one (pool app: requests; read: list reads; owner: jobs)',
    labelNames: ['pool', 'state'] as const,
    registers: [registry],
    collect() {
      this.reset();
      const db = sources.db;
      if (!db) return;
      for (const [pool, p] of [
        ['app', db.appPool],
        ['read', db.readPool],
        ['owner', db.ownerPool],
      ] as const) {
        if (!p) continue;
        this.set({ pool, state: 'total' }, p.totalCount);
        this.set({ pool, state: 'idle' }, p.idleCount);
        this.set({ pool, state: 'waiting' }, p.waitingCount);
        this.set({ pool, state: 'max' }, p.options.max ?? 10);
      }
    },
  });

  new Gauge({
    name: 'bulwark_job_queue_jobs',
    help: 'Jobs per queue and state, shared by every node (pg-boss counts them about once a minute)',
    labelNames: ['queue', 'state'] as const,
    registers: [registry],
    async collect() {
      this.reset();
      const jobs = sources.jobs?.();
      if (!jobs) return;
      // A database that does not answer must not hang the scrape: the gauge is then left empty.
      const queues = await withTimeout(jobs.queues(), 2_000).catch(() => []);
      for (const q of queues) {
        this.set({ queue: q.name, state: 'queued' }, q.queuedCount);
        this.set({ queue: q.name, state: 'ready' }, q.readyCount);
        this.set({ queue: q.name, state: 'active' }, q.activeCount);
        this.set({ queue: q.name, state: 'failed' }, q.failedCount);
      }
    },
  });
  const jobsRun = new Counter({
    name: 'bulwark_jobs_processed_total',
    help: "Jobs this node's workers ran, by queue and outcome (a failed one is retried by pg-boss)",
    labelNames: ['queue', 'outcome'] as const,
    registers: [registry],
  });
  const jobTime = new Histogram({
    name: 'bulwark_job_duration_seconds',
    help: "Time this node's workers took per job, by queue",
    labelNames: ['queue'] as const,
    buckets: SECONDS,
    registers: [registry],
  });

  new Gauge({
    name: 'bulwark_push_sockets',
    help: 'Live-update sockets connected to this node',
    registers: [registry],
    collect() {
      this.set(sources.sockets?.() ?? 0);
    },
  });
  const delivery = new Histogram({
    name: 'bulwark_push_delivery_seconds',
    help: 'Time from a push event being sent (after its commit, on any node) to its write to a socket of this node',
    buckets: [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
    registers: [registry],
  });
  new Gauge({
    name: 'bulwark_draining',
    help: '1 once this node was told to stop (SIGTERM): /readyz answers 503 and it finishes what it has',
    registers: [registry],
    collect() {
      this.set(sources.draining?.() ? 1 : 0);
    },
  });

  return {
    registry,
    sources,
    inFlight,
    request(method, route, status, seconds) {
      const labels = { method, route, status: String(status) };
      requests.inc(labels);
      latency.observe(labels, seconds);
    },
    pushDelivered: (seconds) => delivery.observe(Math.max(0, seconds)),
    job(queue, outcome, seconds) {
      jobsRun.inc({ queue, outcome });
      jobTime.observe({ queue }, seconds);
    },
  };
}

export function withTimeout<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
  });
  return Promise.race([work, late]).finally(() => clearTimeout(timer));
}
