import type { FastifyInstance } from 'fastify';
import { buildApp, moduleJobs, pushRequestHandlers } from './app.js';
import { createPrincipalCache } from './platform/auth/principal-cache.js';
import { createTokenSigner, VERIFIED_TOKENS_KEPT } from './platform/auth/tokens.js';
import type { Config } from './platform/config.js';
import { connect } from './platform/db/db.js';
import { startEmbeddedPostgres, type EmbeddedServer } from './platform/db/embedded.js';
import { migrate } from './platform/db/migrate.js';
import { withStartupLock } from './platform/db/startup-lock.js';
import type { AppDeps } from './platform/deps.js';
import { startJobs } from './platform/jobs/jobs.js';
import { createStorage } from './platform/storage/storage.js';
import { localBlobs, type BlobStore } from './platform/storage/blobs.js';
import { purgeExpiredTokens, PURGE_QUEUE } from './platform/jobs/maintenance.js';
import { createMail, MAIL_QUEUE } from './platform/mail/mail.js';
import { createOps, type Ops } from './platform/ops/ops.js';
import { createPush } from './platform/push/push.js';
import { hasCustomerOrganizations, seedDemo } from './seed.js';
import { protectAppFolders } from './platform/data-dir.js';

export type Running = {
  app: FastifyInstance;
  deps: AppDeps;
  ops: Ops;
  url: string;
  seeded: boolean;
  embedded: boolean;
  /**
   * Stops the node. With `drainMs`, it first says "draining" on /readyz (and closes each connection
   * after its answer) for that long, so the load balancer moves new work elsewhere; then it stops
   * listening, cuts the push sockets (their clients reconnect to another node), finishes the requests
   * in flight, stops the job workers (a running job is finished) and closes its connections.
   */
  stop: (options?: { drainMs?: number }) => Promise<void>;
};

/** The PostgreSQL the process works on: the configured server, or the embedded one in DATA_DIR. */
async function startDatabase(config: Config, log: (m: string) => void): Promise<{ ownerUrl: string; embedded: EmbeddedServer | null }> {
  if (config.databaseUrl) return { ownerUrl: config.databaseUrl, embedded: null };
  const embedded = await startEmbeddedPostgres(config.dataDir, config.embeddedPgPort, log);
  return { ownerUrl: embedded.url, embedded };
}

/** The database, migrated: for the CLI, which runs alone. */
export async function openDatabase(config: Config, log: (m: string) => void) {
  const { ownerUrl, embedded } = await startDatabase(config, log);
  try {
    const appUrl = await migrate(ownerUrl, log);
    return { ownerUrl, appUrl, embedded };
  } catch (err) {
    await embedded?.stop();
    throw err;
  }
}

/** Where stored files live: an S3-compatible bucket when S3_BUCKET is set, FILES_DIR otherwise. */
export async function blobStoreOf(config: Config): Promise<BlobStore> {
  if (!config.s3) return localBlobs(config.filesDir);
  // The AWS SDK takes about half a second to load: only a node that stores in S3 pays for it.
  const { s3Blobs } = await import('./platform/storage/s3.js');
  return s3Blobs(config.s3);
}

/**
 * Starts everything in order: database (embedded when DATABASE_URL is unset), then, under the
 * database's start-up lock (several nodes may start at once), migrations, the demo seed, the job
 * queues and schedules; then HTTP and push. `stop` undoes it in reverse, ending with the embedded
 * PostgreSQL.
 */
export async function startServer(config: Config, options: { logger?: boolean; listen?: boolean } = {}): Promise<Running> {
  const log = (m: string) => console.log(`[bulwark] ${m}`);
  const { ownerUrl, embedded } = await startDatabase(config, log);
  // What has started so far, stopped in reverse when a later step fails (a port in use, a bad folder):
  // an embedded PostgreSQL must not outlive a start that failed.
  const started: Array<() => Promise<unknown>> = [];
  if (embedded) started.push(() => embedded.stop());
  const undo = async () => {
    for (const stop of started.splice(0).reverse()) {
      try {
        await stop();
      } catch (err) {
        log(`while stopping: ${String(err)}`);
      }
    }
  };
  try {
    if (!config.s3) protectAppFolders(config, embedded !== null, log);
    const blobs = await blobStoreOf(config);
    await blobs.check();
    const ops = createOps();

    const { deps, app, seeded } = await withStartupLock(ownerUrl, log, async () => {
      const appUrl = await migrate(ownerUrl, log);
      const db = connect(appUrl, ownerUrl);
      started.push(() => db.close());
      const tokens = createTokenSigner(config.appSecret, { keepVerified: VERIFIED_TOKENS_KEPT });
      const principals = createPrincipalCache({ url: ownerUrl, log, pools: [db.appPool, db.ownerPool] });
      started.push(() => principals.close());
      const push = createPush({ db: db.app, tokens, principals, redisUrl: config.redisUrl, log, onDelivered: ops.metrics.pushDelivered });
      const storage = createStorage(blobs, push);
      const mail = createMail({ owner: db.owner, smtpUrl: config.smtpUrl, from: config.mailFrom, log, openFile: storage.open });
      const deps: AppDeps = { config, db, tokens, principals, push, mail, storage, jobs: null };

      // Under the lock, a node that starts second finds the demo there and leaves it.
      let seeded = false;
      if ((embedded && !(await hasCustomerOrganizations(db.app))) || config.seedDemo) seeded = await seedDemo(db.app);

      const app = await buildApp(deps, { logger: options.logger, ops });
      started.push(() => app.close());
      if (config.jobs) {
        const modules = moduleJobs(deps);
        const jobs = await startJobs(
          ownerUrl,
          {
            [PURGE_QUEUE]: async () => {
              await purgeExpiredTokens(db.owner);
            },
            [MAIL_QUEUE]: (data) => mail.deliver(data),
            ...modules.handlers,
          },
          [{ name: PURGE_QUEUE, cron: '17 * * * *' }, ...modules.schedules],
          log,
          ops.metrics.job,
        );
        deps.jobs = jobs;
        started.push(() => jobs.stop());
      }
      return { deps, app, seeded };
    });
    const { push, db } = deps;
    push.attach(app.server, pushRequestHandlers(deps));
    started.push(() => push.close());
    let url = '';
    if (options.listen !== false) url = await app.listen({ port: config.port, host: config.host });

    let stopping: Promise<void> | null = null;
    const stop = async (drainMs: number) => {
      ops.startDraining();
      // No new job is taken from now on (other nodes take them); the running ones finish.
      const jobsPaused = deps.jobs?.pause().catch((err: unknown) => log(`while pausing jobs: ${String(err)}`));
      if (drainMs > 0) {
        log(`draining: /readyz answers 503; stopping in ${Math.round(drainMs / 1000)} s`);
        await new Promise((r) => setTimeout(r, drainMs));
      }
      push.drain();
      // Stops listening, closes idle connections, and waits for the requests in flight.
      await app.close();
      await jobsPaused;
      await deps.jobs?.stop();
      await push.close();
      await db.close();
      await embedded?.stop();
    };
    return {
      app,
      deps,
      ops,
      url,
      seeded,
      embedded: embedded !== null,
      stop(stopOptions = {}) {
        stopping ??= stop(stopOptions.drainMs ?? 0);
        return stopping;
      },
    };
  } catch (err) {
    await undo();
    throw err;
  }
}
