import { randomUUID } from 'node:crypto';
import { localDateTimeIn, translate } from '@bulwark/domain';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { organizations } from '../src/platform/db/schema.js';
import type { RouteRecord } from '../src/platform/http/access.js';
import { createGuest } from './attack/actors.js';
import { call, createOrg, createTestApp, nextIp, PASSWORD, PNG, signIn, upload, type Session, type TestApp } from './helpers.js';
import { createSite } from './safety-interactions-support.js';

/**
 * Issue 12, item 6: with the organisation's storage used up, subject-guarded writes answered 403
 * "Permission denied" (can() folded storage into the rights), admin-only writes were not stopped at
 * all, and one route said memory_exhausted. DECISIONS: every create, update and upload answers
 * memory_exhausted in the reader's language; reads and deletes keep working so that space can be freed.
 * The router says it once (platform/http/access.ts); these walk every registered route.
 */

/** The writes that stay open with storage used up: one's own password and language. */
const OPEN_WHEN_FULL = [
  'PATCH /api/users/password',
  'PATCH /api/users/user_profile',
  // Reads that spec 001 §7 names as POST calls (audits): they write nothing, so they go on.
  'POST /api/audits/actionlist',
  'POST /api/audits/timeline',
  'POST /api/audits/auditSummaryInfo',
  'POST /api/audits/schedulesinfo',
];

type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
type Answer = { status: number; code?: string; text?: string };

let t: TestApp;
let org: Awaited<ReturnType<typeof createOrg>>;
let admin: Session;
let guest: Session;
let routes: RouteRecord[];
let siteId: string;
let disposable: string;
let unlinkedUpload: string;

const key = (r: { method: string; url: string }) => `${r.method} ${r.url}`;
const isWrite = (r: RouteRecord) => r.method !== 'GET' && r.method !== 'DELETE';
const SIGN_OUT = new Set(['DELETE /api/v1/user_token', 'DELETE /api/v2/user_logout']);

async function probe(r: RouteRecord, s: Session, lang = 'en'): Promise<Answer> {
  const res = await t.app.inject({
    method: r.method as Method,
    url: r.url.replace(/:\w+/g, () => randomUUID()),
    remoteAddress: nextIp(),
    headers: { 'x-tenant': s.tenant, authorization: `Bearer ${s.token}`, 'x-csrf-token': s.csrf, 'accept-language': lang },
    ...(['POST', 'PUT', 'PATCH'].includes(r.method) ? { payload: {} } : {}),
  });
  if (!(res.headers['content-type'] ?? '').includes('json')) return { status: res.statusCode };
  const body = res.json() as { code?: string; errors?: string[] };
  return { status: res.statusCode, code: body.code, text: body.errors?.[0] };
}

const observation = (description: string, attachmentIds: string[] = []) => ({
  type: 'unsafe_condition',
  description,
  site_id: siteId,
  observed_at: localDateTimeIn('Europe/London', new Date(Date.now() - 3_600_000)),
  risk_level: 'low',
  action_required: false,
  comment: 'Seen on the walk',
  anonymous: false,
  attachment_ids: attachmentIds,
  actions: [],
});

/** Storage used up: what is used reaches the quota (the figures the principal reads on every request). */
const fill = () =>
  t.deps.db.owner
    .update(organizations)
    .set({ storageUsedBytes: sql`${organizations.storageQuotaBytes}` })
    .where(eq(organizations.id, org.id));

beforeAll(async () => {
  t = await createTestApp();
  org = await createOrg(t, 'fullhouse');
  admin = await signIn(t, org.subDomain, org.adminEmail);
  await createGuest(t, admin, org.subDomain, 'gus@visitors-full.test', PASSWORD);
  guest = await signIn(t, org.subDomain, 'gus@visitors-full.test');
  siteId = await createSite(t, admin, org.adminId, 'Full Works');
  const created = await call(t, admin, 'POST', '/api/observations', observation('To be deleted to free space'));
  expect(created.statusCode, created.body).toBe(201);
  disposable = (created.json() as { id: string }).id;
  const uploaded = await upload(t, admin, '/api/observations/attachments', 'spare.png', PNG, 'image/png');
  expect(uploaded.statusCode, uploaded.body).toBe(201);
  unlinkedUpload = (uploaded.json() as { file: { id: string } }).file.id;
  await fill();
  routes = t.app.registeredRoutes.filter(
    (r) => !('public' in r.access) && !('platform' in r.access) && !r.url.startsWith('/api/docs') && r.method !== 'HEAD',
  );
});
afterAll(() => t?.close());

describe('storage used up (DECISIONS: writes answer memory_exhausted, reads and deletes go on)', () => {
  it('the contracts keep exactly the personal writes open', () => {
    const open = t.app.registeredRoutes.filter((r) => r.allowedWhenStorageFull).map(key);
    expect(open.sort()).toEqual([...OPEN_WHEN_FULL].sort());
  });

  it("every create, update and upload answers 403 memory_exhausted in the reader's language", async () => {
    const writes = routes.filter(isWrite);
    expect(writes.length).toBeGreaterThan(60);
    const text = translate('es', 'errors.memory_exhausted');
    const wrong: string[] = [];
    for (const r of writes) {
      const got = await probe(r, admin, 'es');
      const full = got.status === 403 && got.code === 'memory_exhausted' && got.text === text;
      if (OPEN_WHEN_FULL.includes(key(r)) ? got.code === 'memory_exhausted' || got.status >= 500 : !full) {
        wrong.push(`${key(r)}: ${got.status} ${got.code ?? ''}`);
      }
    }
    expect(wrong).toEqual([]);
  });

  it("a guest's reports and uploads are stopped too; its other writes stay refused as a guest's", async () => {
    const wrong: string[] = [];
    for (const r of routes.filter(isWrite)) {
      const got = await probe(r, guest);
      const want = !r.guests ? 'forbidden' : r.allowedWhenStorageFull ? 'open' : 'memory_exhausted';
      const was = got.code === 'forbidden' || got.code === 'memory_exhausted' ? got.code : 'open';
      if (was !== want || got.status >= 500) wrong.push(`${key(r)}: wanted ${want}, got ${got.status} ${got.code ?? ''}`);
    }
    expect(wrong).toEqual([]);
  });

  it('every read and delete still answers (none says memory_exhausted)', async () => {
    const wrong: string[] = [];
    for (const r of routes.filter((x) => !isWrite(x) && !SIGN_OUT.has(key(x)))) {
      const got = await probe(r, admin);
      if (got.code === 'memory_exhausted' || got.status >= 500) wrong.push(`${key(r)}: ${got.status} ${got.code ?? ''}`);
    }
    expect(wrong).toEqual([]);
  });

  it('space can be freed: a record and an upload are deleted, then writing works again', async () => {
    expect((await call(t, admin, 'POST', '/api/observations', observation('Refused while full'))).json().code).toBe('memory_exhausted');
    expect((await call(t, admin, 'DELETE', `/api/observations/${disposable}`)).statusCode).toBe(200);
    expect((await call(t, admin, 'DELETE', `/api/observations/attachments/${unlinkedUpload}`)).statusCode).toBe(200);
    const [after] = await t.deps.db.owner.select().from(organizations).where(eq(organizations.id, org.id));
    expect(after!.storageUsedBytes).toBeLessThan(after!.storageQuotaBytes);
    const res = await call(t, admin, 'POST', '/api/observations', observation('Written once space was freed'));
    expect(res.statusCode, res.body).toBe(201);
  });

  it('the profile says storage is full, and the rights it lists are unchanged (storage is not a right)', async () => {
    await fill();
    const profile = (await call(t, admin, 'GET', '/api/v2/users/user_profile')).json();
    expect(profile.user.tenant_memory_details.mem_exhausted).toBe(true);
    const observations = profile.rules.find((r: { subject: string }) => r.subject === 'Observation');
    expect(observations.actions).toEqual(expect.arrayContaining(['create', 'update']));
  });
});
