import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/** Every setting the server reads, from the environment, in one place (the README lists them). */
export type Config = {
  port: number;
  host: string;
  dataDir: string;
  /** Where stored files' bytes live (local storage driver). */
  filesDir: string;
  databaseUrl: string | null;
  embeddedPgPort: number;
  appSecret: string;
  baseDomain: string;
  /** Scheme and port of the public address, used to build links in e-mail. */
  publicUrlTemplate: string;
  redisUrl: string | null;
  smtpUrl: string | null;
  mailFrom: string;
  seedDemo: boolean;
  hiraV2UserIds: string[];
  logLevel: string;
  webDist: string;
  trustProxy: boolean;
  jobs: boolean;
};

/** npm runs workspace scripts inside the package; paths the user gives are relative to where they ran npm. */
export const invocationDir = process.env.INIT_CWD ?? process.cwd();

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const port = Number(env.PORT ?? 3000);
  const dataDir = path.resolve(invocationDir, env.DATA_DIR ?? './data');
  const baseDomain = (env.BASE_DOMAIN ?? 'localhost').toLowerCase();
  return {
    port,
    host: env.HOST ?? '0.0.0.0',
    dataDir,
    filesDir: env.FILES_DIR ? path.resolve(invocationDir, env.FILES_DIR) : path.join(dataDir, 'files'),
    databaseUrl: env.DATABASE_URL || null,
    embeddedPgPort: Number(env.EMBEDDED_PG_PORT ?? 54329),
    appSecret: env.APP_SECRET || readOrCreateSecret(dataDir),
    baseDomain,
    publicUrlTemplate: env.PUBLIC_URL ?? `http://{tenant}.${baseDomain}:${port}`,
    redisUrl: env.REDIS_URL || null,
    smtpUrl: env.SMTP_URL || null,
    mailFrom: env.MAIL_FROM ?? 'Bulwark EHS <no-reply@bulwark.localhost>',
    seedDemo: env.SEED_DEMO === '1',
    hiraV2UserIds: (env.HIRA_V2_USER_IDS ?? '')
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean),
    logLevel: env.LOG_LEVEL ?? 'info',
    // WEB_DIST lets a second build (e.g. a developer's screenshot run) be served without touching web/dist.
    webDist: env.WEB_DIST ? path.resolve(env.WEB_DIST) : path.resolve(import.meta.dirname, '../../../web/dist'),
    trustProxy: env.TRUST_PROXY === '1',
    jobs: env.JOBS !== '0',
  };
}

/** A secret that survives restarts without configuration, so sessions outlive a restart of the demo. */
function readOrCreateSecret(dataDir: string): string {
  const file = path.join(dataDir, 'app-secret');
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  mkdirSync(dataDir, { recursive: true });
  const secret = randomBytes(48).toString('base64url');
  writeFileSync(file, secret, { mode: 0o600 });
  return secret;
}

export function publicUrl(config: Pick<Config, 'publicUrlTemplate'>, tenant: string): string {
  return config.publicUrlTemplate.replace('{tenant}', tenant);
}
