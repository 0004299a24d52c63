import type { FastifyInstance } from 'fastify';
import { buildApp, moduleJobs, pushRequestHandlers } from './app.js';
import { createTokenSigner } from './platform/auth/tokens.js';
import type { Config } from './platform/config.js';
import { connect } from './platform/db/db.js';
import { startEmbeddedPostgres, type EmbeddedServer } from './platform/db/embedded.js';
import { migrate } from './platform/db/migrate.js';
import type { AppDeps } from './platform/deps.js';
import { startJobs } from './platform/jobs/jobs.js';
import { createStorage } from './platform/storage/storage.js';
import { purgeExpiredTokens, PURGE_QUEUE } from './platform/jobs/maintenance.js';
import { createMail, MAIL_QUEUE } from './platform/mail/mail.js';
import { createPush } from './platform/push/push.js';
import { hasCustomerOrganizations, seedDemo } from './seed.js';

export type Running = {
  app: FastifyInstance;
  deps: AppDeps;
  url: string;
  seeded: boolean;
  embedded: boolean;
  stop: () => Promise<void>;
};

/** The database the process works on: the configured server, or the embedded one in DATA_DIR. */
export async function openDatabase(config: Config, log: (m: string) => void) {
  let embedded: EmbeddedServer | null = null;
  let ownerUrl = config.databaseUrl;
  if (!ownerUrl) {
    embedded = await startEmbeddedPostgres(config.dataDir, config.embeddedPgPort, log);
    ownerUrl = embedded.url;
  }
  try {
    const appUrl = await migrate(ownerUrl, log);
    return { ownerUrl, appUrl, embedded };
  } catch (err) {
    await embedded?.stop();
    throw err;
  }
}

/**
 * Starts everything in order: database (embedded when DATABASE_URL is unset), migrations, demo seed,
 * HTTP, push, jobs. `stop` undoes it in reverse, ending with the embedded PostgreSQL.
 */
export async function startServer(config: Config, options: { logger?: boolean; listen?: boolean } = {}): Promise<Running> {
  const log = (m: string) => console.log(`[bulwark] ${m}`);
  const { ownerUrl, appUrl, embedded } = await openDatabase(config, log);
  const db = connect(appUrl, ownerUrl);
  const tokens = createTokenSigner(config.appSecret);
  const push = createPush({ db: db.app, tokens, redisUrl: config.redisUrl, log });
  const mail = createMail({ owner: db.owner, smtpUrl: config.smtpUrl, from: config.mailFrom, log });
  const deps: AppDeps = { config, db, tokens, push, mail, storage: createStorage(config.filesDir), jobs: null };

  let seeded = false;
  if ((embedded && !(await hasCustomerOrganizations(db.app))) || config.seedDemo) seeded = await seedDemo(db.app);

  const app = await buildApp(deps, { logger: options.logger });
  if (config.jobs) {
    const modules = moduleJobs(deps);
    deps.jobs = await startJobs(
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
    );
  }
  push.attach(app.server, pushRequestHandlers(deps));
  let url = '';
  if (options.listen !== false) url = await app.listen({ port: config.port, host: config.host });

  let stopped = false;
  return {
    app,
    deps,
    url,
    seeded,
    embedded: embedded !== null,
    async stop() {
      if (stopped) return;
      stopped = true;
      await push.close();
      await app.close();
      await deps.jobs?.stop();
      await db.close();
      await embedded?.stop();
    },
  };
}
