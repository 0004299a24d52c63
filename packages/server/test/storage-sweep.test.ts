import { existsSync } from 'node:fs';
import path from 'node:path';
import { UNLINKED_FILE_TTL_HOURS } from '@bulwark/domain';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { APP_ROLE } from '../src/platform/db/migrate.js';
import { files, organizations } from '../src/platform/db/schema.js';
import { registeredLinkColumns, unregisteredLinkColumns } from '../src/platform/storage/links.js';
import { filesModule } from '../src/platform/storage/module.js';
import { FILES_SWEEP_QUEUE, sweepUnlinkedFiles } from '../src/platform/storage/sweep.js';
import { call, createOrg, createTestApp, nextIp, PNG, signIn, upload, type Session, type TestApp } from './helpers.js';

/**
 * Issue 12 item 4: uploads no record links (a guest's that no report used, a member's abandoned form)
 * are swept by the hourly pg-boss job a day after upload, freeing their bytes; tested with "now" moved
 * forward. The sweep never takes a file that any column of the database references.
 */

const MB = 1024 * 1024;
/** A PNG signature padded to `size` bytes: sniffed as a PNG, as large as the test needs. */
const png = (size: number) => Buffer.concat([PNG, Buffer.alloc(size - PNG.length)]);

let t: TestApp;

beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t?.close());

async function figures(orgId: string) {
  const [o] = await t.deps.db.owner.select().from(organizations).where(eq(organizations.id, orgId));
  return { used: o!.storageUsedBytes, quota: o!.storageQuotaBytes, pending: o!.storagePendingBytes };
}
const guestUpload = (tenant: string, bytes: Buffer) =>
  upload(t, null, '/api/observations/outer/attachments', 'photo.png', bytes, 'image/png', { tenant, ip: nextIp() });
const staffUpload = (s: Session, bytes: Buffer) => upload(t, s, '/api/observations/attachments', 'photo.png', bytes, 'image/png');
const fileIdOf = (res: { json: () => unknown }) => (res.json() as { file: { id: string } }).file.id;
const memoryEvents = (spy: { mock: { calls: unknown[][] } }) =>
  spy.mock.calls.filter(([, e]) => (e as { channel: string }).channel === 'tenant_memory').map(([org, e]) => ({ org, e }));

describe('unlinked uploads are swept after a day (pg-boss job)', () => {
  it('knows every column that links files, and is scheduled hourly', async () => {
    // The storage screen says what links each file only for registered columns.
    expect(
      await unregisteredLinkColumns(t.deps.db.owner),
      'columns referencing files: register each with registerFileLinks (platform/storage/links.ts) in its module.ts',
    ).toEqual([]);
    expect(registeredLinkColumns()).toEqual(
      expect.arrayContaining(['action_attachments.file_id', 'observation_attachments.file_id', 'users.photo_file_id']),
    );
    const jobs = filesModule.jobs!(t.deps);
    expect(jobs.schedules).toEqual([{ name: FILES_SWEEP_QUEUE, cron: '40 * * * *' }]);
    expect(Object.keys(jobs.handlers)).toEqual([FILES_SWEEP_QUEUE]);
  });

  it('never sweeps a file that a column references, even one no module registered', async () => {
    const o = await createOrg(t, 'sweepstray');
    const oAdmin = await signIn(t, 'sweepstray', o.adminEmail);
    const kept = fileIdOf(await staffUpload(oAdmin, PNG));
    const loose = fileIdOf(await staffUpload(oAdmin, PNG));
    await t.deps.db.owner.execute(sql`
      create table stray_links (organization_id uuid not null, file_id uuid not null,
        foreign key (organization_id, file_id) references files (organization_id, id))`);
    try {
      await t.deps.db.owner.execute(sql`grant select on stray_links to ${sql.identifier(APP_ROLE)}`);
      await t.deps.db.owner.execute(sql`insert into stray_links values (${o.id}, ${kept})`);
      expect(await unregisteredLinkColumns(t.deps.db.owner)).toContain('stray_links.file_id');
      await sweepUnlinkedFiles(t.deps, new Date(Date.now() + 48 * 3_600_000));
      const left = await t.deps.db.owner.select({ id: files.id }).from(files).where(eq(files.organizationId, o.id));
      expect(left.map((f) => f.id)).toEqual([kept]);
      expect(await figures(o.id)).toMatchObject({ used: PNG.length });
      // The admin cannot remove it either: a record links it.
      expect((await call(t, oAdmin, 'DELETE', `/api/storage/files/${kept}`)).statusCode).toBe(409);
      expect(loose).not.toBe(kept);
    } finally {
      await t.deps.db.owner.execute(sql`drop table stray_links`);
    }
  });

  it('frees guests’ and members’ uploads no record linked a day later, and leaves linked files', async () => {
    const s = await createOrg(t, 'quotas');
    const sAdmin = await signIn(t, 'quotas', s.adminEmail);
    const loose = fileIdOf(await staffUpload(sAdmin, png(MB)));
    const guest = fileIdOf(await guestUpload('quotas', png(2 * MB)));
    const photo = await upload(t, sAdmin, `/api/users/${s.userId}/photo`, 'me.png', PNG, 'image/png');
    expect(photo.statusCode, photo.body).toBe(200);
    expect(await figures(s.id)).toMatchObject({ used: MB + PNG.length, pending: 2 * MB });
    const listed = (await call(t, sAdmin, 'GET', '/api/storage')).json();
    expect(listed).toMatchObject({ unlinked_count: 2, unlinked_bytes: 3 * MB, pending_count: 1 });
    expect(listed.files.find((f: { size_bytes: number }) => f.size_bytes === PNG.length).links).toEqual([
      { kind: 'user_photo', label: expect.any(String), path: `/users/${s.userId}/profile` },
    ]);
    const keyOf = async (id: string) =>
      path.join(t.deps.config.filesDir, (await t.deps.db.owner.select().from(files).where(eq(files.id, id)))[0]!.storageKey);
    const diskLoose = await keyOf(loose);
    const diskGuest = await keyOf(guest);

    const now = Date.now();
    await sweepUnlinkedFiles(t.deps, new Date(now + (UNLINKED_FILE_TTL_HOURS - 1) * 3_600_000));
    expect(await figures(s.id)).toMatchObject({ used: MB + PNG.length, pending: 2 * MB });

    const pushed = vi.spyOn(t.deps.push, 'toOrganization');
    const result = await sweepUnlinkedFiles(t.deps, new Date(now + (UNLINKED_FILE_TTL_HOURS + 1) * 3_600_000));
    expect(result.removed).toBeGreaterThanOrEqual(2);
    expect(await figures(s.id)).toMatchObject({ used: PNG.length, pending: 0 });
    const left = await t.deps.db.owner.select({ id: files.id }).from(files).where(eq(files.organizationId, s.id));
    expect(left.map((f) => f.id)).toEqual([(photo.json() as { photo_url: string }).photo_url.split('/').pop()]);
    expect(existsSync(diskLoose) || existsSync(diskGuest)).toBe(false);
    expect(memoryEvents(pushed)).toContainEqual({
      org: s.id,
      e: expect.objectContaining({ data: { mem_exhausted: false, used_bytes: PNG.length, quota_bytes: expect.any(Number) } }),
    });
    pushed.mockRestore();

    // Swept guest uploads can no longer be named by a report either.
    expect((await call(t, sAdmin, 'GET', `/api/files/${loose}`)).statusCode).toBe(404);
  });
});
