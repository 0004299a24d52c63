import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inTenant } from '../src/platform/db/db.js';
import { files, organizations } from '../src/platform/db/schema.js';
import { AppError } from '../src/platform/errors.js';
import { buildWorkbook, readWorkbookRows } from '../src/platform/export/excel.js';
import { call, createOrg, createTestApp, signIn, type TestApp, PNG } from './helpers.js';

// The smallest valid PNG (1x1), and a JPEG header: real content, so sniffing is what is tested.

let t: TestApp;
let a: Awaited<ReturnType<typeof createOrg>>;
let b: Awaited<ReturnType<typeof createOrg>>;

beforeAll(async () => {
  t = await createTestApp();
  a = await createOrg(t, 'filesa');
  b = await createOrg(t, 'filesb');
});
afterAll(() => t.close());

const store = (orgId: string, bytes: Buffer, purpose: 'photo' | 'attachment' = 'photo', fileName = 'me.png') =>
  inTenant(t.deps.db.app, orgId, (tx) => t.deps.storage.store(tx, { purpose, fileName, bytes, uploadedBy: null }));
const used = async (orgId: string) => {
  const [o] = await t.deps.db.owner.select().from(organizations).where(eq(organizations.id, orgId));
  return o!.storageUsedBytes;
};
const codeOf = async (p: Promise<unknown>) =>
  p.then(
    () => 'ok',
    (e: unknown) => (e instanceof AppError ? e.code : String(e)),
  );

describe('stored files (spec 001 §5 limits, §9 quota)', () => {
  it('stores a photo, counts it against the quota and serves it to its organisation only', async () => {
    const before = await used(a.id);
    const file = await store(a.id, PNG, 'photo', '../../etc/passwd.png');
    expect(file.mime_type).toBe('image/png');
    expect(file.file_name).toBe('passwd.png');
    expect(await used(a.id)).toBe(before + PNG.length);

    const sa = await signIn(t, a.subDomain, a.userEmail);
    const res = await call(t, sa, 'GET', file.url);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('image/png');
    expect(res.rawPayload.equals(PNG)).toBe(true);

    const sb = await signIn(t, b.subDomain, b.adminEmail);
    const other = await call(t, sb, 'GET', file.url);
    expect(other.statusCode).toBe(404);
    expect((await call(t, null, 'GET', file.url, undefined, { 'x-tenant': a.subDomain })).statusCode).toBe(401);
  });

  it('refuses by content, not by name: text called .png is not an image', async () => {
    expect(await codeOf(store(a.id, Buffer.from('<script>alert(1)</script>'), 'photo', 'x.png'))).toBe('file_type_refused');
  });

  it('refuses a photo over 500 KB before anything is written', async () => {
    const before = await used(a.id);
    const big = Buffer.concat([PNG, Buffer.alloc(500 * 1024)]);
    expect(await codeOf(store(a.id, big))).toBe('file_too_large');
    expect(await used(a.id)).toBe(before);
  });

  it('refuses with memory_exhausted when the quota would overflow, and frees space on removal', async () => {
    const current = await used(b.id);
    await t.deps.db.owner
      .update(organizations)
      .set({ storageQuotaBytes: current + PNG.length + 10 })
      .where(eq(organizations.id, b.id));
    const first = await store(b.id, PNG);
    expect(await codeOf(store(b.id, PNG))).toBe('memory_exhausted');

    const sb = await signIn(t, b.subDomain, b.adminEmail);
    const profile = await call(t, sb, 'GET', '/api/v2/users/user_profile');
    expect(profile.json().user.tenant_memory_details.mem_exhausted).toBe(false);

    const removed = await inTenant(t.deps.db.app, b.id, (tx) => t.deps.storage.remove(tx, first.id));
    await removed!.purge();
    expect(await used(b.id)).toBe(current);
    expect((await call(t, sb, 'GET', first.url)).statusCode).toBe(404);
  });

  it("cannot remove another organisation's file", async () => {
    const file = await store(a.id, PNG);
    expect(await inTenant(t.deps.db.app, b.id, (tx) => t.deps.storage.remove(tx, file.id))).toBeNull();
  });
});

/** A PDF that runs JavaScript when opened: what a reader's browser must never render from this origin. */
const PDF_WITH_SCRIPT = Buffer.from(
  '%PDF-1.4\n1 0 obj << /Type /Catalog /OpenAction << /S /JavaScript /JS (app.alert(document.cookie)) >> >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n',
);

describe('names and dispositions of served files (issue 12 item 15)', () => {
  it('strips bidirectional, zero-width and C1 control characters from a stored name', async () => {
    const cases: Array<[string, string]> = [
      ['photo\u202Egnp.exe', 'photognp.exe'],
      ['in\u200Bvoice\u200D.png', 'invoice.png'],
      ['\u2066report\u2069\u200F.png', 'report.png'],
      ['c1\u0085\u009Bname.png', 'c1name.png'],
      ['\uFEFF\u200E', 'file'],
    ];
    for (const [sent, kept] of cases) {
      const file = await store(a.id, PNG, 'attachment', sent);
      expect(file.file_name, JSON.stringify(sent)).toBe(kept);
    }
  });

  it('serves PDFs and every other non-image as an attachment, images inline', async () => {
    const sa = await signIn(t, a.subDomain, a.userEmail);
    const mine = (bytes: Buffer, name: string) =>
      inTenant(t.deps.db.app, a.id, (tx) =>
        t.deps.storage.store(tx, { purpose: 'attachment', fileName: name, bytes, uploadedBy: sa.profile.user.id }),
      );
    const pdf = await mine(PDF_WITH_SCRIPT, 'report.pdf');
    expect(pdf.mime_type).toBe('application/pdf');
    const served = await call(t, sa, 'GET', pdf.url);
    expect(served.statusCode).toBe(200);
    expect(served.headers['content-disposition']).toMatch(/^attachment;/);
    const image = await call(t, sa, 'GET', (await mine(PNG, 'photo.png')).url);
    expect(image.headers['content-disposition']).toMatch(/^inline;/);
  });

  it('strips those characters again when serving a name stored before the rule', async () => {
    const sa = await signIn(t, a.subDomain, a.userEmail);
    const file = await inTenant(t.deps.db.app, a.id, (tx) =>
      t.deps.storage.store(tx, { purpose: 'attachment', fileName: 'photo.png', bytes: PNG, uploadedBy: sa.profile.user.id }),
    );
    await t.deps.db.owner.update(files).set({ fileName: 'photo\u202Egnp.exe' }).where(eq(files.id, file.id));
    const served = await call(t, sa, 'GET', file.url);
    const header = String(served.headers['content-disposition']);
    expect(header).not.toMatch(/%E2%80%AE/i);
    expect(header).toContain("filename*=UTF-8''photognp.exe");
  });
});

describe('Excel kit', () => {
  it('writes a workbook and reads the same rows back, keyed by header', async () => {
    const bytes = await buildWorkbook(
      'Users',
      [
        { header: 'Email', key: 'email', value: (r: { e: string; n: number }) => r.e },
        { header: 'Count', key: 'count', value: (r) => r.n },
      ],
      [
        { e: 'a@x.test', n: 1 },
        { e: 'b@x.test', n: 2 },
      ],
    );
    const read = await readWorkbookRows(bytes);
    expect(read.headers).toEqual(['Email', 'Count']);
    expect(read.rows).toEqual([
      { row: 2, values: { Email: 'a@x.test', Count: '1' } },
      { row: 3, values: { Email: 'b@x.test', Count: '2' } },
    ]);
  });

  it('calls a file that is not a workbook bad_format', async () => {
    expect(await codeOf(readWorkbookRows(Buffer.from('name,email\n')))).toBe('bad_format');
  });
});
