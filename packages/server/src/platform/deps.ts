import type { PrincipalCache } from './auth/principal-cache.js';
import type { TokenSigner } from './auth/tokens.js';
import type { Config } from './config.js';
import type { Database } from './db/db.js';
import type { Jobs } from './jobs/jobs.js';
import type { Mail } from './mail/mail.js';
import type { Push } from './push/push.js';
import type { Storage } from './storage/storage.js';

/** What modules are given: plain collaborators, no container. */
export type AppDeps = {
  config: Config;
  db: Database;
  tokens: TokenSigner;
  /** This node's principals and tenants, dropped on change by PostgreSQL notifications (buildApp starts it). */
  principals: PrincipalCache;
  push: Push;
  mail: Mail;
  /** Stored files and the storage quota. */
  storage: Storage;
  /** Null when this process runs no job workers (JOBS=0, or tests that do not need them). */
  jobs: Jobs | null;
};
