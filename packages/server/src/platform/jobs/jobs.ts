import { PgBoss, type QueueResult, type SendOptions } from 'pg-boss';

export type JobHandlers = Record<string, (data: Record<string, unknown>) => Promise<void>>;
export type Schedules = Array<{ name: string; cron: string }>;

export type Jobs = {
  /** `options` override the queue's retry policy for this job (e.g. webhooks retry for a day). */
  send: (name: string, data: Record<string, unknown>, options?: SendOptions) => Promise<void>;
  /** Every queue with its counts (pg-boss's, refreshed by its monitor about once a minute). */
  queues: () => Promise<QueueResult[]>;
  /** Takes no new job from now on and resolves once the running ones have finished; sending still works. */
  pause: () => Promise<void>;
  stop: () => Promise<void>;
};

/** Told of each job this process's workers ran: for the metrics. */
export type JobObserver = (queue: string, outcome: 'completed' | 'failed', seconds: number) => void;

/**
 * pg-boss keeps jobs in PostgreSQL (its own schema, through the owner connection): retries, schedules
 * and work shared by every app node, with nothing else to run.
 */
export async function startJobs(
  ownerUrl: string,
  handlers: JobHandlers,
  schedules: Schedules,
  log: (m: string) => void,
  observe: JobObserver = () => {},
): Promise<Jobs> {
  const boss = new PgBoss({ connectionString: ownerUrl, max: 3 });
  boss.on('error', (err: Error) => log(`jobs: ${err.message}`));
  await boss.start();
  for (const [name, handler] of Object.entries(handlers)) {
    await boss.createQueue(name, { retryLimit: 5, retryDelay: 30, retryBackoff: true });
    await boss.work<Record<string, unknown>>(name, async (jobs) => {
      for (const job of jobs) {
        const started = performance.now();
        try {
          await handler(job.data ?? {});
          observe(name, 'completed', (performance.now() - started) / 1000);
        } catch (err) {
          observe(name, 'failed', (performance.now() - started) / 1000);
          throw err;
        }
      }
    });
  }
  for (const s of schedules) await boss.schedule(s.name, s.cron);
  return {
    async send(name, data, options) {
      await boss.send(name, data, options ?? {});
    },
    queues: () => boss.getQueues(),
    async pause() {
      await Promise.all(Object.keys(handlers).map((name) => boss.offWork(name, { wait: true })));
    },
    stop: () => boss.stop({ graceful: true, timeout: 5_000 }),
  };
}
