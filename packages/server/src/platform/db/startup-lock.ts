import pg from 'pg';

// Any constant works, as long as every node of one database uses it; it differs from the migrations'
// own lock (migrate.ts), which the start-up takes inside this one and the CLI takes alone.
const STARTUP_LOCK = 7_351_001;

/**
 * Runs the writing steps of a node's start (migrations, the app role, demo seeds, job queues and
 * schedules) while holding one PostgreSQL advisory lock of the database: nodes started together take
 * turns, and each one after the first finds the work done (every step checks before it writes). The
 * lock is a session's, so a node that dies while holding it frees it with its connection.
 */
export async function withStartupLock<T>(ownerUrl: string, log: (m: string) => void, work: () => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: ownerUrl, application_name: 'bulwark-startup' });
  // A dropped connection ends the session and so the lock; the error surfaces in the next query.
  client.on('error', () => {});
  await client.connect();
  try {
    const { rows } = await client.query<{ got: boolean }>('select pg_try_advisory_lock($1) as got', [STARTUP_LOCK]);
    if (!rows[0]?.got) {
      log('another node is starting on this database: waiting for it to finish its start-up');
      await client.query('select pg_advisory_lock($1)', [STARTUP_LOCK]);
    }
    return await work();
  } finally {
    await client.query('select pg_advisory_unlock($1)', [STARTUP_LOCK]).catch(() => {});
    await client.end().catch(() => {});
  }
}
