import type { FastifyInstance } from 'fastify';

/**
 * Runs `work` while a health check (`GET /api/v2/api_connection_checks`) is sent every 100 ms, and says
 * how long the slowest one waited: from when it was due to when it was answered, so a check held back
 * because the event loop was busy counts as waiting too.
 */
export async function watchingHealth<T>(
  app: FastifyInstance,
  work: () => Promise<T>,
): Promise<{ result: T; worstWaitMs: number; checks: number }> {
  let stop = false;
  let worst = 0;
  let checks = 0;
  let failure: unknown = null;
  const watcher = (async () => {
    let due = performance.now();
    while (!stop) {
      const res = await app.inject({ method: 'GET', url: '/api/v2/api_connection_checks' });
      if (res.statusCode !== 200) throw new Error(`health check answered ${res.statusCode}`);
      checks += 1;
      worst = Math.max(worst, performance.now() - due);
      due += 100;
      const wait = due - performance.now();
      if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
      else due = performance.now();
    }
  })().catch((err: unknown) => {
    // Kept for the caller: a watcher that rejects on its own would be an unhandled rejection.
    failure = err;
  });
  try {
    const result = await work();
    stop = true;
    // The check in flight when the work ended counts too: it may be the one that waited longest.
    await watcher;
    if (failure) throw failure;
    return { result, worstWaitMs: worst, checks };
  } finally {
    stop = true;
    await watcher;
  }
}
