import { translate } from '@bulwark/domain';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { GUEST_UPLOADS_PER_ORGANIZATION_PER_HOUR } from '../src/modules/observations/routes.js';
import { createOrganizationService } from '../src/modules/organizations/service.js';
import { files, organizations } from '../src/platform/db/schema.js';
import { call, createOrg, createTestApp, nextIp, PASSWORD, PNG, signIn, upload, type Session, type TestApp } from './helpers.js';
import { setUpOrganisation, siteTime, type Fixture } from './observations-support.js';

/**
 * Issue 12 item 4: signed out, anyone could fill an organisation's quota through the guest upload
 * route, after which its admin could write nothing and remove nothing. Guests' uploads now wait apart
 * until a report links them and are limited per organisation as well as per address (every upload no
 * record links is swept a day later: storage-sweep.test.ts); the admin sees what uses the storage and removes unlinked files;
 * the platform admin sets the quota; and members hear of every change of the figures (tenant_memory).
 */

const MB = 1024 * 1024;
/** A PNG signature padded to `size` bytes: sniffed as a PNG, as large as the test needs. */
const png = (size: number) => Buffer.concat([PNG, Buffer.alloc(size - PNG.length)]);

let t: TestApp;
let a: Awaited<ReturnType<typeof createOrg>>;
let b: Awaited<ReturnType<typeof createOrg>>;
let fa: Fixture;
let admin: Session;
let adminB: Session;

beforeAll(async () => {
  t = await createTestApp();
  a = await createOrg(t, 'quotaa');
  b = await createOrg(t, 'quotab');
  fa = await setUpOrganisation(t, a.id, 'quotaa');
  admin = await signIn(t, 'quotaa', a.adminEmail);
  adminB = await signIn(t, 'quotab', b.adminEmail);
}, 120_000);
afterAll(() => t?.close());

async function figures(orgId: string) {
  const [o] = await t.deps.db.owner.select().from(organizations).where(eq(organizations.id, orgId));
  return { used: o!.storageUsedBytes, quota: o!.storageQuotaBytes, pending: o!.storagePendingBytes };
}
const setQuota = (orgId: string, quota: number) =>
  t.deps.db.owner.update(organizations).set({ storageQuotaBytes: quota }).where(eq(organizations.id, orgId));
const guestUpload = (tenant: string, bytes: Buffer) =>
  upload(t, null, '/api/observations/outer/attachments', 'photo.png', bytes, 'image/png', { tenant, ip: nextIp() });
const staffUpload = (s: Session, bytes: Buffer) => upload(t, s, '/api/observations/attachments', 'photo.png', bytes, 'image/png');
const guestReport = (attachmentIds: string[]) =>
  t.app.inject({
    method: 'POST',
    url: '/api/observations/outer',
    remoteAddress: nextIp(),
    headers: { 'x-tenant': 'quotaa' },
    payload: {
      type: 'near_miss',
      description: 'A pallet fell from the rack',
      site_id: fa.tokyo,
      observed_at: siteTime('Asia/Tokyo', -10),
      risk_level: 'high',
      comment: 'Nobody was hurt.',
      anonymous: true,
      attachment_ids: attachmentIds,
    },
  });
const fileIdOf = (res: { json: () => unknown }) => (res.json() as { file: { id: string } }).file.id;
const memoryEvents = (spy: { mock: { calls: unknown[][] } }) =>
  spy.mock.calls.filter(([, e]) => (e as { channel: string }).channel === 'tenant_memory').map(([org, e]) => ({ org, e }));

describe('guests cannot fill the quota (issue 12 item 4)', () => {
  it('holds guests’ uploads apart until a submitted report links them, then charges the quota', async () => {
    const start = await figures(a.id);
    await setQuota(a.id, start.used + 3 * MB);
    const held: string[] = [];
    for (let i = 0; i < 3; i++) {
      const res = await guestUpload('quotaa', png(MB));
      expect(res.statusCode, res.body).toBe(201);
      held.push(fileIdOf(res));
    }
    // Yesterday these 3 MB filled the quota and the admin could write nothing.
    expect(await figures(a.id)).toMatchObject({ used: start.used, pending: start.pending + 3 * MB });
    const mine = await staffUpload(admin, png(MB));
    expect(mine.statusCode, mine.body).toBe(201);
    expect((await figures(a.id)).used).toBe(start.used + MB);

    const report = await guestReport([held[0]!]);
    expect(report.statusCode, report.body).toBe(201);
    expect(await figures(a.id)).toMatchObject({ used: start.used + 2 * MB, pending: start.pending + 2 * MB });

    // A report whose uploads no longer fit is refused whole, and its uploads stay pending.
    const before = await figures(a.id);
    const full = await guestReport([held[1]!]);
    await setQuota(a.id, before.used + MB - 1);
    const refused = await guestReport([held[2]!]);
    expect(full.statusCode, full.body).toBe(201);
    expect(refused.statusCode, refused.body).toBe(403);
    expect(refused.json().code).toBe('memory_exhausted');
    expect(await figures(a.id)).toMatchObject({ used: before.used + MB, pending: before.pending - MB });
    const [stillHeld] = await t.deps.db.owner.select({ pending: files.pending }).from(files).where(eq(files.id, held[2]!));
    expect(stillHeld?.pending).toBe(true);
    await setQuota(a.id, 100 * MB);
  });

  it('refuses a guest’s upload that could never be linked, and keeps guests’ waiting uploads within the quota', async () => {
    const c = await createOrg(t, 'quotac');
    await setQuota(c.id, 2.5 * MB);
    expect((await guestUpload('quotac', png(MB))).statusCode).toBe(201);
    expect((await guestUpload('quotac', png(MB))).statusCode).toBe(201);
    const over = await guestUpload('quotac', png(MB));
    expect(over.statusCode, over.body).toBe(429);
    expect(over.json().code).toBe('rate_limited');
    expect(await figures(c.id)).toMatchObject({ used: 0, pending: 2 * MB });

    await t.deps.db.owner
      .update(organizations)
      .set({ storageUsedBytes: 2 * MB })
      .where(eq(organizations.id, c.id));
    const never = await guestUpload('quotac', png(MB));
    expect(never.statusCode, never.body).toBe(403);
    expect(never.json().code).toBe('memory_exhausted');
  });

  it('limits guests’ uploads per organisation and hour, whatever their addresses', async () => {
    const d = await createOrg(t, 'quotad');
    // Refused bodies count as well: the limit is counted before anything is read.
    for (let i = 0; i < GUEST_UPLOADS_PER_ORGANIZATION_PER_HOUR; i++) {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/observations/outer/attachments',
        remoteAddress: nextIp(),
        headers: { 'x-tenant': 'quotad' },
        payload: { file: 'not a file' },
      });
      expect(res.statusCode, res.body).toBe(400);
    }
    const refused = await upload(t, null, '/api/observations/outer/attachments', 'p.png', PNG, 'image/png', {
      tenant: 'quotad',
      ip: nextIp(),
      lang: 'tr',
    });
    expect(refused.statusCode, refused.body).toBe(429);
    expect(refused.json()).toMatchObject({ code: 'rate_limited', errors: [translate('tr', 'errors.rate_limited')] });
    expect(await figures(d.id)).toMatchObject({ used: 0, pending: 0 });
    // Another organisation's guests are still answered.
    expect((await guestUpload('quotab', PNG)).statusCode).toBe(201);
  });
});

describe('the storage screen (admin)', () => {
  it('shows used, quota, pending and the largest files with what links them', async () => {
    const linked = await staffUpload(admin, png(2 * MB));
    const created = await call(t, admin, 'POST', '/api/observations', {
      type: 'unsafe_condition',
      description: 'Blocked fire exit',
      site_id: fa.tokyo,
      observed_at: siteTime('Asia/Tokyo', -5),
      risk_level: 'high',
      comment: 'Reported at the morning round.',
      action_required: false,
      anonymous: false,
      attachment_ids: [fileIdOf(linked)],
      actions: [],
    });
    expect(created.statusCode, created.body).toBe(201);
    const guest = await guestUpload('quotaa', png(MB + 7));

    const res = await call(t, admin, 'GET', '/api/storage');
    expect(res.statusCode, res.body).toBe(200);
    const usage = res.json();
    const now = await figures(a.id);
    expect(usage).toMatchObject({ used_bytes: now.used, quota_bytes: now.quota, pending_bytes: now.pending, mem_exhausted: false });
    expect(usage.pending_count).toBeGreaterThanOrEqual(1);
    expect(usage.unlinked_count).toBeGreaterThanOrEqual(2);
    const sizes = usage.files.map((f: { size_bytes: number }) => f.size_bytes);
    expect(sizes).toEqual([...sizes].sort((x, y) => y - x));
    const top = usage.files.find((f: { id: string }) => f.id === fileIdOf(linked));
    expect(top).toMatchObject({
      pending: false,
      uploaded_by: { full_name: expect.any(String) },
      links: [{ kind: 'observation', label: created.json().serial_label, path: `/observations/summary/${created.json().id}` }],
    });
    expect(usage.files.find((f: { id: string }) => f.id === fileIdOf(guest))).toMatchObject({
      pending: true,
      uploaded_by: null,
      links: [],
    });

    const member = await signIn(t, 'quotaa', a.userEmail);
    expect((await call(t, member, 'GET', '/api/storage')).statusCode).toBe(403);
  });

  it('removes a file no record links, freeing its bytes; refuses a linked one, another organisation’s and a member', async () => {
    const loose = await staffUpload(admin, png(MB));
    const guest = await guestUpload('quotaa', png(MB));
    const before = await figures(a.id);
    const member = await signIn(t, 'quotaa', a.userEmail);
    expect((await call(t, member, 'DELETE', `/api/storage/files/${fileIdOf(loose)}`)).statusCode).toBe(403);
    expect((await call(t, adminB, 'DELETE', `/api/storage/files/${fileIdOf(loose)}`)).statusCode).toBe(404);

    expect((await call(t, admin, 'DELETE', `/api/storage/files/${fileIdOf(loose)}`)).statusCode).toBe(200);
    expect((await call(t, admin, 'DELETE', `/api/storage/files/${fileIdOf(guest)}`)).statusCode).toBe(200);
    expect(await figures(a.id)).toMatchObject({ used: before.used - MB, pending: before.pending - MB });
    expect((await call(t, admin, 'DELETE', `/api/storage/files/${fileIdOf(loose)}`)).statusCode).toBe(404);

    const usage = (await call(t, admin, 'GET', '/api/storage')).json();
    const linked = usage.files.find((f: { links: unknown[] }) => f.links.length > 0);
    const refused = await call(t, admin, 'DELETE', `/api/storage/files/${linked.id}`, undefined, { 'accept-language': 'es' });
    expect(refused.statusCode).toBe(409);
    expect(refused.json().errors).toEqual([translate('es', 'storage.linked')]);
    expect((await call(t, admin, 'GET', `/api/files/${linked.id}`)).statusCode).toBe(200);
  });

  it('lets an admin free a full organisation: with the quota used up, unlinked files still go', async () => {
    const loose = await staffUpload(admin, png(MB));
    await setQuota(a.id, (await figures(a.id)).used);
    const profile = await call(t, admin, 'GET', '/api/v2/users/user_profile');
    expect(profile.json().user.tenant_memory_details.mem_exhausted).toBe(true);
    expect((await call(t, admin, 'DELETE', `/api/storage/files/${fileIdOf(loose)}`)).statusCode).toBe(200);
    const after = await call(t, admin, 'GET', '/api/v2/users/user_profile');
    expect(after.json().user.tenant_memory_details.mem_exhausted).toBe(false);
    await setQuota(a.id, 100 * MB);
  });
});

describe('the platform admin sets the quota', () => {
  it('changes an organisation’s quota; nobody else may', async () => {
    await createOrganizationService(t.deps.db.app).createPlatformAdmin({ email: 'root@quota.test', password: PASSWORD, fullName: 'Root' });
    const root = await signIn(t, 'public', 'root@quota.test');
    const pushed = vi.spyOn(t.deps.push, 'toOrganization');
    const res = await call(t, root, 'PUT', `/api/organizations/${b.id}/storage_quota`, { storage_quota_bytes: 250 * MB });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ id: b.id, storage_quota_bytes: 250 * MB, storage_used_bytes: expect.any(Number) });
    expect((await figures(b.id)).quota).toBe(250 * MB);
    expect(memoryEvents(pushed)).toEqual([
      { org: b.id, e: expect.objectContaining({ data: expect.objectContaining({ quota_bytes: 250 * MB }) }) },
    ]);
    pushed.mockRestore();

    const tooSmall = await call(
      t,
      root,
      'PUT',
      `/api/organizations/${b.id}/storage_quota`,
      { storage_quota_bytes: 0 },
      { 'accept-language': 'zh' },
    );
    expect(tooSmall.statusCode).toBe(400);
    expect(tooSmall.json().fields.storage_quota_bytes).toBe(translate('zh', 'storage.quotaTooSmall'));
    expect((await call(t, adminB, 'PUT', `/api/organizations/${b.id}/storage_quota`, { storage_quota_bytes: 10 ** 12 })).statusCode).toBe(
      403,
    );
    expect((await figures(b.id)).quota).toBe(250 * MB);
  });
});

describe('tenant_memory is pushed after every change of the figures (issue 12 item 18)', () => {
  it('on store, link and remove, to the organisation, after the commit; not for a refusal or a guest’s upload', async () => {
    const pushed = vi.spyOn(t.deps.push, 'toOrganization');
    const stored = await staffUpload(admin, PNG);
    const afterStore = await figures(a.id);
    expect(memoryEvents(pushed)).toEqual([
      {
        org: a.id,
        e: {
          channel: 'tenant_memory',
          change: 'updated',
          id: a.id,
          data: { mem_exhausted: false, used_bytes: afterStore.used, quota_bytes: afterStore.quota },
        },
      },
    ]);
    pushed.mockClear();

    const guest = await guestUpload('quotaa', PNG);
    expect(await staffUpload(admin, Buffer.from('not an image'))).toMatchObject({ statusCode: 415 });
    expect(memoryEvents(pushed)).toEqual([]);

    expect((await guestReport([fileIdOf(guest)])).statusCode).toBe(201);
    expect(memoryEvents(pushed)).toEqual([
      { org: a.id, e: expect.objectContaining({ data: expect.objectContaining({ used_bytes: afterStore.used + PNG.length }) }) },
    ]);
    pushed.mockClear();

    expect((await call(t, admin, 'DELETE', `/api/observations/attachments/${fileIdOf(stored)}`)).statusCode).toBe(200);
    expect(memoryEvents(pushed)).toEqual([
      { org: a.id, e: expect.objectContaining({ data: expect.objectContaining({ used_bytes: afterStore.used }) }) },
    ]);
    pushed.mockRestore();
  });
});
