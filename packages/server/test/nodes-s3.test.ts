import { readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app.js';
import { loadS3 } from '../src/platform/config.js';
import { inTenant } from '../src/platform/db/db.js';
import { files, organizations } from '../src/platform/db/schema.js';
import { StartupError } from '../src/platform/startup.js';
import { s3Blobs } from '../src/platform/storage/s3.js';
import { createStorage } from '../src/platform/storage/storage.js';
import { sweepUnlinkedFiles } from '../src/platform/storage/sweep.js';
import { call, createOrg, freshDatabase, PNG, signIn, testDeps, upload, type Session, type TestApp } from './helpers.js';
import { s3Holds, s3Objects, startS3 } from './nodes-support.js';

/**
 * Stored files in an S3-compatible bucket (s3rver, a real S3 protocol server in this process): the
 * same content checks, quotas and tenant walls as on local disk, with the bytes in the bucket only.
 */
let s3: Awaited<ReturnType<typeof startS3>>;
let t: TestApp;
let a: Awaited<ReturnType<typeof createOrg>>;
let b: Awaited<ReturnType<typeof createOrg>>;
let sa: Session;
let sb: Session;

beforeAll(async () => {
  s3 = await startS3();
  const database = await freshDatabase();
  const deps = testDeps(database.appUrl, database.ownerUrl, 5);
  deps.config = { ...deps.config, s3: loadS3(s3.env) };
  deps.storage = createStorage(s3Blobs(deps.config.s3!), deps.push);
  await deps.storage.blobs.check();
  const app = await buildApp(deps, { logger: false });
  await app.ready();
  t = {
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
  a = await createOrg(t, 's3a');
  b = await createOrg(t, 's3b');
  sa = await signIn(t, a.subDomain, a.adminEmail);
  sb = await signIn(t, b.subDomain, b.adminEmail);
});
afterAll(async () => {
  await t?.close();
  await s3?.stop();
});

const attach = (s: Session, name: string, bytes: Buffer, type = 'image/png') =>
  upload(t, s, '/api/observations/attachments', name, bytes, type);
const keyOf = async (id: string) => (await t.deps.db.owner.select().from(files).where(eq(files.id, id)))[0]?.storageKey;
const fileCount = async () => Number((await t.deps.db.owner.execute(sql`select count(*)::int as n from files`)).rows[0]!.n);
const spooled = () =>
  readdirSync(tmpdir()).flatMap((d) => (d === `bulwark-uploads-${process.pid}` ? readdirSync(path.join(tmpdir(), d)) : []));

describe('files on S3 storage', () => {
  it('stores an upload in the bucket (not on disk) and serves it to its organisation only', async () => {
    const res = await attach(sa, 'valve.png', PNG);
    expect(res.statusCode, res.body).toBe(201);
    const id = (res.json() as { file: { id: string } }).file.id;
    const key = await keyOf(id);
    expect(key).toBe(`${a.id}/${id}`);
    expect(s3Holds(s3.dir, key!)).toBe(true);
    expect(readdirSync(t.deps.config.filesDir)).toEqual([]);
    // The upload was spooled to disk on its way, and the spool is gone with the request.
    expect(spooled()).toEqual([]);

    const read = await call(t, sa, 'GET', `/api/files/${id}`);
    expect(read.statusCode).toBe(200);
    expect(read.headers['content-type']).toBe('image/png');
    expect(read.rawPayload.equals(PNG)).toBe(true);
    // Another organisation's file is not found, whatever the store.
    expect((await call(t, sb, 'GET', `/api/files/${id}`)).statusCode).toBe(404);
  });

  it('refuses by content and by size before anything reaches the bucket', async () => {
    const before = await fileCount();
    const text = await attach(sa, 'x.png', Buffer.from('<script>alert(1)</script>'));
    expect(text.statusCode).toBe(415);
    const big = await attach(sa, 'big.png', Buffer.concat([PNG, Buffer.alloc(10 * 1024 * 1024)]));
    expect(big.statusCode).toBe(413);
    expect(await fileCount()).toBe(before);
    expect(s3Objects(s3.dir, a.id)).toHaveLength(1);
    expect(spooled()).toEqual([]);
  });

  it("counts the bytes against the organisation's quota and refuses what does not fit", async () => {
    const [org] = await t.deps.db.owner.select().from(organizations).where(eq(organizations.id, b.id));
    await t.deps.db.owner
      .update(organizations)
      .set({ storageQuotaBytes: org!.storageUsedBytes + PNG.length })
      .where(eq(organizations.id, b.id));
    expect((await attach(sb, 'one.png', PNG)).statusCode).toBe(201);
    const full = await attach(sb, 'two.png', PNG);
    expect(full.statusCode).toBe(403);
    expect(full.json().code).toBe('memory_exhausted');
    expect(s3Objects(s3.dir, b.id)).toHaveLength(1);
  });

  it('deletes the object when its file is removed, and when the sweep takes an unlinked one', async () => {
    const res = await attach(sa, 'gone.png', PNG);
    const id = (res.json() as { file: { id: string } }).file.id;
    const key = (await keyOf(id))!;
    expect((await call(t, sa, 'DELETE', `/api/storage/files/${id}`)).statusCode).toBe(200);
    expect(s3Holds(s3.dir, key)).toBe(false);

    const swept = await attach(sa, 'later.png', PNG);
    const sweptKey = (await keyOf((swept.json() as { file: { id: string } }).file.id))!;
    const result = await sweepUnlinkedFiles(t.deps, new Date(Date.now() + 3 * 86_400_000));
    expect(result.removed).toBeGreaterThanOrEqual(1);
    expect(s3Holds(s3.dir, sweptKey)).toBe(false);
  });

  it('reads stored bytes back for the server itself (mail attachments, PDF photos)', async () => {
    const stored = await inTenant(t.deps.db.app, a.id, (tx) =>
      t.deps.storage.store(tx, { purpose: 'attachment', fileName: 'made.png', bytes: PNG, uploadedBy: null }),
    );
    const chunks: Buffer[] = [];
    for await (const c of t.deps.storage.open((await keyOf(stored.id))!)) chunks.push(c as Buffer);
    expect(Buffer.concat(chunks).equals(PNG)).toBe(true);
    await expect(
      (async () => {
        for await (const c of t.deps.storage.open(`${a.id}/missing`)) void c;
      })(),
    ).rejects.toThrow();
  });

  it('refuses to start on a bucket that is missing or refuses the credentials, saying which', async () => {
    const missing = s3Blobs({ ...loadS3(s3.env)!, bucket: 'no-such-bucket' });
    await expect(missing.check()).rejects.toThrow(StartupError);
    await expect(missing.check()).rejects.toThrow(/"no-such-bucket".*does not exist/);
    // s3rver checks the key id of a SigV4 request but not its signature, so here the key id is the wrong one
    // (a real S3 refuses a wrong secret with the same 403).
    const wrongKey = s3Blobs({ ...loadS3(s3.env)!, credentials: { accessKeyId: 'NOT-S3RVER', secretAccessKey: 'wrong' } });
    await expect(wrongKey.check()).rejects.toThrow(/access is refused/);
  });

  it('reads its settings from S3_* and refuses half of them', () => {
    expect(loadS3({})).toBeNull();
    expect(() => loadS3({ S3_ENDPOINT: 'http://x' })).toThrow(/without S3_BUCKET/);
    expect(() => loadS3({ S3_BUCKET: 'b', S3_ACCESS_KEY_ID: 'k' })).toThrow(/go together/);
    expect(() => loadS3({ S3_BUCKET: 'b', S3_ENDPOINT: 'minio:9000' })).toThrow(/http/);
    expect(loadS3({ S3_BUCKET: 'b' })).toEqual({
      bucket: 'b',
      endpoint: null,
      region: 'us-east-1',
      credentials: null,
      forcePathStyle: false,
    });
  });
});
