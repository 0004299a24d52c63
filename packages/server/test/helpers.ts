import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { SignInResponse } from '@bulwark/domain';
import type { FastifyInstance } from 'fastify';
import pg from 'pg';
import { inject } from 'vitest';
import { buildApp, pushRequestHandlers } from '../src/app.js';
import { createPrincipalCache } from '../src/platform/auth/principal-cache.js';
import { createTokenSigner, VERIFIED_TOKENS_KEPT } from '../src/platform/auth/tokens.js';
import { loadConfig, type Config } from '../src/platform/config.js';
import { asPlatform, connect } from '../src/platform/db/db.js';
import { migrate } from '../src/platform/db/migrate.js';
import type { AppDeps } from '../src/platform/deps.js';
import { createMail } from '../src/platform/mail/mail.js';
import { createPush } from '../src/platform/push/push.js';
import { createStorage } from '../src/platform/storage/storage.js';
import { createOrganizationService, createRole } from '../src/modules/organizations/service.js';
import { sql } from 'drizzle-orm';

export const PASSWORD = 'Test#Pass1';

/** An empty database on the test server (no migrations), or a copy of `template`; dropped by the returned function. */
export async function emptyDatabase(template?: string): Promise<{ ownerUrl: string; drop: () => Promise<void> }> {
  const admin = inject('pgAdminUrl');
  const name = `bulwark_t_${randomBytes(6).toString('hex')}`;
  const client = new pg.Client({ connectionString: admin });
  await client.connect();
  await client.query(`create database ${name}${template ? ` template ${template}` : ''}`);
  await client.end();
  const url = new URL(admin);
  url.pathname = `/${name}`;
  return {
    ownerUrl: url.toString(),
    drop: async () => {
      const c = new pg.Client({ connectionString: admin });
      await c.connect();
      await c.query(`drop database if exists ${name} with (force)`);
      await c.end();
    },
  };
}

/**
 * A fresh database on the test server, migrated: a copy of the run's migrated template (global-setup.ts),
 * on which `migrate` finds nothing to apply and only makes sure of the app's role and grants. Dropped
 * by the returned function.
 */
export async function freshDatabase(): Promise<{ ownerUrl: string; appUrl: string; drop: () => Promise<void> }> {
  const db = await emptyDatabase(inject('pgTemplate'));
  return { ...db, appUrl: await migrate(db.ownerUrl) };
}

export type TestApp = {
  app: FastifyInstance;
  deps: AppDeps;
  ownerUrl: string;
  appUrl: string;
  close: () => Promise<void>;
};

export function testConfig(overrides: Partial<Config> = {}): Config {
  return {
    ...loadConfig({ ...process.env, DATABASE_URL: 'unused', APP_SECRET: 'test-secret-0123456789-0123456789', LOG_LEVEL: 'silent' }),
    jobs: false,
    redisUrl: null,
    smtpUrl: null,
    filesDir: mkdtempSync(path.join(tmpdir(), 'bulwark-files-')),
    ...overrides,
  };
}

/** The app's collaborators on a database, as runtime.ts wires them, minus Redis, SMTP and job workers. */
export function testDeps(appUrl: string, ownerUrl: string, poolSize = 5, overrides: Partial<Config> = {}): AppDeps {
  const config = testConfig(overrides);
  const db = connect(appUrl, ownerUrl, poolSize);
  const tokens = createTokenSigner(config.appSecret, { keepVerified: VERIFIED_TOKENS_KEPT });
  const principals = createPrincipalCache({ url: ownerUrl, log: () => {}, pools: [db.appPool, db.ownerPool] });
  const push = createPush({ db: db.app, tokens, principals, redisUrl: null, log: () => {} });
  return {
    config,
    db,
    tokens,
    principals,
    push,
    mail: createMail({ owner: db.owner, smtpUrl: null, from: 'test@bulwark.localhost', log: () => {} }),
    storage: createStorage(config.filesDir, push),
    jobs: null,
  };
}

/** The real app on a fresh database, reached through `app.inject` (no port). */
export async function createTestApp(overrides: Partial<Config> = {}): Promise<TestApp> {
  const database = await freshDatabase();
  const deps = testDeps(database.appUrl, database.ownerUrl, 5, overrides);
  const app = await buildApp(deps, { logger: false });
  await app.ready();
  return {
    app,
    deps,
    ownerUrl: database.ownerUrl,
    appUrl: database.appUrl,
    close: async () => {
      await app.close();
      await deps.db.close();
      await database.drop();
    },
  };
}

/** The real app listening on an ephemeral port with push attached (sockets need a real server); requests may still use inject. */
export async function listeningTestApp(overrides: Partial<Config> = {}): Promise<{ t: TestApp; url: string }> {
  const database = await freshDatabase();
  const deps = testDeps(database.appUrl, database.ownerUrl, 5, overrides);
  const app = await buildApp(deps, { logger: false });
  deps.push.attach(app.server, pushRequestHandlers(deps));
  const url = await app.listen({ port: 0, host: '127.0.0.1' });
  const t: TestApp = {
    app,
    deps,
    ownerUrl: database.ownerUrl,
    appUrl: database.appUrl,
    close: async () => {
      await deps.push.close();
      await app.close();
      await deps.db.close();
      await database.drop();
    },
  };
  return { t, url };
}

/** An organisation with an admin (every right) and a user whose role reads only Observation and Incident. */
export async function createOrg(t: TestApp, subDomain: string) {
  const orgs = createOrganizationService(t.deps.db.app);
  const { organization, adminId } = await orgs.createOrganization({
    subDomain,
    name: `${subDomain} Ltd`,
    admin: { email: `admin@${subDomain}.test`, fullName: 'Admin', password: PASSWORD },
  });
  await asPlatform(t.deps.db.app, async (tx) => {
    await tx.execute(sql`select set_config('app.organization_id', ${organization.id}, true)`);
    await createRole(
      tx,
      'Reader',
      (['Observation', 'Incident'] as const).map((name) => ({
        name,
        rAdd: false,
        rEdit: false,
        rView: true,
        rDestroy: false,
        isRevoke: false,
        isExtend: false,
        isClose: false,
        isReject: false,
        isApprove: false,
      })),
    );
  });
  const user = await orgs.createUser(subDomain, {
    email: `user@${subDomain}.test`,
    fullName: 'User',
    password: PASSWORD,
    roleName: 'Reader',
  });
  return {
    id: organization.id,
    subDomain,
    adminId,
    userId: user.id,
    adminEmail: `admin@${subDomain}.test`,
    userEmail: `user@${subDomain}.test`,
  };
}

export type Session = SignInResponse & { tenant: string };

let ipCounter = 1;
/** A distinct client address per call keeps the per-address sign-in limit out of unrelated tests. */
export function nextIp(): string {
  ipCounter += 1;
  return `10.0.${Math.floor(ipCounter / 250)}.${ipCounter % 250}`;
}

export async function signIn(t: TestApp, tenant: string, email: string, password = PASSWORD): Promise<Session> {
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/v1/authorize',
    headers: { 'x-tenant': tenant },
    payload: { email, password },
    remoteAddress: nextIp(),
  });
  if (res.statusCode !== 200) throw new Error(`sign-in of ${email} failed: ${res.statusCode} ${res.body}`);
  return { ...(res.json() as SignInResponse), tenant };
}

/** A request as the web client sends it: tenant, bearer and CSRF headers. */
export function call(
  t: TestApp,
  s: Session | null,
  method: 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE',
  url: string,
  payload?: unknown,
  extra: Record<string, string> = {},
) {
  const headers: Record<string, string> = {
    ...(s ? { 'x-tenant': s.tenant, authorization: `Bearer ${s.token}`, 'x-csrf-token': s.csrf } : {}),
    ...extra,
  };
  return t.app.inject({ method, url, headers, remoteAddress: nextIp(), ...(payload === undefined ? {} : { payload: payload as object }) });
}

/** A multipart body with one file in the field `file`, as the web sends uploads. */
export function multipart(fileName: string, bytes: Buffer, contentType: string) {
  const boundary = `----bulwark${Math.random().toString(16).slice(2)}`;
  const head = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${fileName}"\r\nContent-Type: ${contentType}\r\n\r\n`,
  );
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  return { payload: Buffer.concat([head, bytes, tail]), headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

/** A multipart upload as the web sends it; without a session, as a guest of `tenant`. */
export function upload(
  t: TestApp,
  s: Session | null,
  url: string,
  fileName: string,
  bytes: Buffer,
  contentType: string,
  extra: { tenant?: string; ip?: string; lang?: string } = {},
) {
  const m = multipart(fileName, bytes, contentType);
  return t.app.inject({
    method: 'POST',
    url,
    payload: m.payload,
    remoteAddress: extra.ip ?? '10.9.9.9',
    headers: {
      ...m.headers,
      ...(s ? { 'x-tenant': s.tenant, authorization: `Bearer ${s.token}`, 'x-csrf-token': s.csrf } : { 'x-tenant': extra.tenant ?? '' }),
      ...(extra.lang ? { 'accept-language': extra.lang } : {}),
    },
  });
}

/** The smallest valid PNG (1×1): an image that passes the content check. */
export const PNG = Buffer.from(
  '89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d49444154789c6360000002000154a24f5d0000000049454e44ae426082',
  'hex',
);
