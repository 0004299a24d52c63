import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { isIP } from 'node:net';
import path from 'node:path';
import { API_TOKEN_REQUESTS_PER_MINUTE } from '@bulwark/domain';
import { serverPath } from './server-root.js';

/** Every setting the server reads, from the environment, in one place (the README lists them). */
export type Config = {
  port: number;
  host: string;
  dataDir: string;
  /** Where stored files' bytes live (local storage driver). */
  filesDir: string;
  /** An S3-compatible bucket for stored files instead of FILES_DIR (S3_BUCKET set); null: local disk. */
  s3: S3Config | null;
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
  /**
   * Which proxies' X-Forwarded-For is believed: false (none), a hop count (the right-most n entries were
   * written by our own proxies) or their addresses and CIDR ranges. Never "all": the left-most entry is
   * the client's own writing.
   */
  trustProxy: TrustProxy;
  /** Longest a request may take to arrive, body included (uploads too), in ms. */
  requestTimeoutMs: number;
  /** Longest a JSON body may take to arrive once its headers are in, in ms. */
  bodyTimeoutMs: number;
  jobs: boolean;
  /** Requests one API token may make per minute (API_TOKEN_REQUESTS_PER_MINUTE; modules/api-tokens). */
  apiTokenRequestsPerMinute: number;
  /**
   * WEBHOOKS_ALLOW_LOOPBACK=1 lets webhooks reach http:// and this machine's loopback (tests and local
   * development). Never in production: webhook addresses in private networks are refused (SSRF).
   */
  webhooksAllowLoopback: boolean;
  /** Bearer token /metrics asks for; null: /metrics answers only direct requests from this machine. */
  metricsToken: string | null;
  /**
   * After SIGTERM, how long the node keeps serving while /readyz says "draining", so that the load
   * balancer takes it out before it stops listening (ms).
   */
  drainMs: number;
};

export type S3Config = {
  bucket: string;
  /** Unset for AWS itself; the address of any other S3-compatible store. */
  endpoint: string | null;
  region: string;
  /** Both or neither: without them the AWS SDK's own chain (environment, instance role) is used. */
  credentials: { accessKeyId: string; secretAccessKey: string } | null;
  /** Bucket in the path (`host/bucket/key`) rather than the host name: most stores other than AWS want it. */
  forcePathStyle: boolean;
};

export type TrustProxy = false | number | string[];

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
    webDist: env.WEB_DIST ? path.resolve(env.WEB_DIST) : serverPath('..', 'web', 'dist'),
    trustProxy: parseTrustProxy(env.TRUST_PROXY),
    requestTimeoutMs: seconds(env.REQUEST_TIMEOUT_SECONDS, 'REQUEST_TIMEOUT_SECONDS', 120) * 1000,
    bodyTimeoutMs: seconds(env.BODY_TIMEOUT_SECONDS, 'BODY_TIMEOUT_SECONDS', 15) * 1000,
    jobs: env.JOBS !== '0',
    apiTokenRequestsPerMinute: perMinute(env.API_TOKEN_REQUESTS_PER_MINUTE, API_TOKEN_REQUESTS_PER_MINUTE),
    webhooksAllowLoopback: env.WEBHOOKS_ALLOW_LOOPBACK === '1',
    metricsToken: env.METRICS_TOKEN || null,
    drainMs: seconds(env.DRAIN_SECONDS, 'DRAIN_SECONDS', 5, true) * 1000,
    s3: loadS3(env),
  };
}

/** S3_BUCKET switches stored files to an S3-compatible store; the other S3_* settings describe it. */
export function loadS3(env: NodeJS.ProcessEnv): S3Config | null {
  const bucket = env.S3_BUCKET?.trim();
  if (!bucket) {
    const stray = ['S3_ENDPOINT', 'S3_ACCESS_KEY_ID', 'S3_SECRET_ACCESS_KEY'].filter((k) => env[k]);
    if (stray.length > 0) throw new Error(`${stray.join(', ')} set without S3_BUCKET: set S3_BUCKET to store files in S3, or unset them`);
    return null;
  }
  const accessKeyId = env.S3_ACCESS_KEY_ID?.trim() ?? '';
  const secretAccessKey = env.S3_SECRET_ACCESS_KEY?.trim() ?? '';
  if (Boolean(accessKeyId) !== Boolean(secretAccessKey)) {
    throw new Error('S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY go together: set both, or neither to use the AWS credential chain');
  }
  const endpoint = env.S3_ENDPOINT?.trim() || null;
  if (endpoint && !/^https?:\/\//.test(endpoint)) throw new Error(`S3_ENDPOINT must be an http:// or https:// address, not "${endpoint}"`);
  return {
    bucket,
    endpoint,
    region: env.S3_REGION?.trim() || 'us-east-1',
    credentials: accessKeyId ? { accessKeyId, secretAccessKey } : null,
    forcePathStyle: ['1', 'true', 'yes'].includes((env.S3_FORCE_PATH_STYLE ?? '').trim().toLowerCase()),
  };
}

const PROXY_NAMES = new Set(['loopback', 'linklocal', 'uniquelocal']);

/**
 * TRUST_PROXY: unset or 0 trusts nobody; a number is the count of proxies in front of the app (1: one
 * load balancer, whose own entry is the right-most of X-Forwarded-For); otherwise a comma-separated list
 * of proxy addresses or CIDR ranges (or proxy-addr's names loopback, linklocal, uniquelocal). "true"
 * is refused: trusting every hop makes the client's own left-most entry its address.
 */
export function parseTrustProxy(value: string | undefined): TrustProxy {
  const v = (value ?? '').trim();
  if (v === '' || v === '0' || v.toLowerCase() === 'false') return false;
  if (/^\d+$/.test(v)) return Number(v);
  if (v.toLowerCase() === 'true') {
    throw new Error(
      'TRUST_PROXY=true would take the address a client writes itself: give the number of proxies (e.g. 1) or their addresses',
    );
  }
  const list = v
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  for (const item of list) {
    if (!isProxyAddress(item)) throw new Error(`TRUST_PROXY: "${item}" is neither a number of proxies nor an address or CIDR range`);
  }
  return list;
}

/**
 * The form Fastify takes. A hop count becomes a function: Fastify ignores a bare number (it cannot tell
 * a proxy from a client at the socket), while the operator who sets one vouches that every request
 * comes through that many proxies. Hop 0 is the socket's peer, then X-Forwarded-For from right to left.
 */
export function fastifyTrustProxy(trust: TrustProxy): boolean | string[] | ((address: string, hop: number) => boolean) {
  if (typeof trust === 'number') return (_address, hop) => hop < trust;
  return trust;
}

function isProxyAddress(item: string): boolean {
  if (PROXY_NAMES.has(item)) return true;
  const [address = '', prefix, ...rest] = item.split('/');
  const family = isIP(address);
  if (family === 0 || rest.length > 0) return false;
  if (prefix === undefined) return true;
  return /^\d{1,3}$/.test(prefix) && Number(prefix) <= (family === 4 ? 32 : 128);
}

function seconds(value: string | undefined, name: string, fallback: number, zeroAllowed = false): number {
  if (value === undefined || value.trim() === '') return fallback;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0 || (n === 0 && !zeroAllowed)) {
    throw new Error(`${name} must be a whole number of seconds${zeroAllowed ? '' : ' above 0'}`);
  }
  return n;
}

function perMinute(value: string | undefined, fallback: number): number {
  if (value === undefined || value.trim() === '') return fallback;
  const n = Number(value);
  if (!Number.isInteger(n) || n <= 0) throw new Error('API_TOKEN_REQUESTS_PER_MINUTE must be a whole number above 0');
  return n;
}

/** A secret that survives restarts without configuration, so sessions outlive a restart of the demo. */
function readOrCreateSecret(dataDir: string): string {
  const file = path.join(dataDir, 'app-secret');
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  const secret = randomBytes(48).toString('base64url');
  writeFileSync(file, secret, { mode: 0o600 });
  return secret;
}

export function publicUrl(config: Pick<Config, 'publicUrlTemplate'>, tenant: string): string {
  return config.publicUrlTemplate.replace('{tenant}', tenant);
}
