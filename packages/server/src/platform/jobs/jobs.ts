import { PgBoss } from 'pg-boss';

export type JobHandlers = Record<string, (data: Record<string, unknown>) => Promise<void>>;
export type Schedules = Array<{ name: string; cron: string }>;

export type Jobs = {
  send: (name: string, data: Record<string, unknown>) => Promise<void>;
  stop: () => Promise<void>;
};

/**
 * pg-boss keeps jobs in PostgreSQL (its own schema, through the owner connection): retries, schedules
 * and work shared by every app node, with nothing else to run.
 */
export async function startJobs(ownerUrl: string, handlers: JobHandlers, schedules: Schedules, log: (m: string) => void): Promise<Jobs> {
  const boss = new PgBoss({ connectionString: ownerUrl, max: 3 });
  boss.on('error', (err: Error) => log(`jobs: ${err.message}`));
  await boss.start();
  for (const [name, handler] of Object.entries(handlers)) {
    await boss.createQueue(name, { retryLimit: 5, retryDelay: 30, retryBackoff: true });
    await boss.work<Record<string, unknown>>(name, async (jobs) => {
      for (const job of jobs) await handler(job.data ?? {});
    });
  }
  for (const s of schedules) await boss.schedule(s.name, s.cron);
  return {
    async send(name, data) {
      await boss.send(name, data);
    },
    stop: () => boss.stop({ graceful: true, timeout: 5_000 }),
  };
}
