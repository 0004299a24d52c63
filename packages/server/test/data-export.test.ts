import { existsSync } from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';
import { translate, type DataExport, type DataExportManifest, type PushEvent } from '@bulwark/domain';
import ExcelJS from 'exceljs';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import yauzl from 'yauzl';
import { runExport, sweepExports, archiveKey } from '../src/modules/data-export/service.js';
import type { AppDeps } from '../src/platform/deps.js';
import type { BlobStore } from '../src/platform/storage/blobs.js';
import { streamOf } from '../src/platform/storage/blobs.js';
import { createStorage } from '../src/platform/storage/storage.js';
import { twoOrganizations } from './fixtures.js';
import { call, PNG, upload, type Session } from './helpers.js';
import { setUpOrganisation, siteTime, type Fixture } from './observations-support.js';

/**
 * The full export (issue 19): one archive, built by the job, of everything the organisation owns, held
 * row by row against every tenant table of the database, and holding nothing of the other organisation.
 */
const world = twoOrganizations('dx');
let fa: Fixture;
let fb: Fixture;
const MARK_A = 'Marker-of-A only in A';
const MARK_B = 'Marker-of-B never in A';

type Row = Record<string, unknown>;

/** The owner connection, reading dates and times as PostgreSQL writes them (no time-zone guessing). */
const RAW_TIMES = new Set([1082, 1114, 1184]);
let pool: pg.Pool | undefined;
async function owner<T extends pg.QueryResultRow>(text: string, values: unknown[] = []): Promise<T[]> {
  pool ??= new pg.Pool({
    connectionString: world.t.ownerUrl,
    max: 2,
    types: {
      getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
        RAW_TIMES.has(oid) ? (v: string) => v : pg.types.getTypeParser(oid, format)) as typeof pg.types.getTypeParser,
    },
  });
  return (await pool.query<T>(text, values)).rows;
}
afterAll(async () => {
  await pool?.end();
});

/** The tables that hold an organisation's rows, as test/bad-uploads.test.ts finds them. */
async function tenantTables(): Promise<string[]> {
  const rows = await owner<{ table_name: string }>(`
    select c.table_name from information_schema.columns c
    join information_schema.tables t on t.table_schema = c.table_schema and t.table_name = c.table_name and t.table_type = 'BASE TABLE'
    where c.table_schema = 'public' and c.column_name = 'organization_id' order by 1`);
  return rows.map((r) => r.table_name);
}

const TIMESTAMP = /^\d{4}-\d{2}-\d{2}[ T]\d{2}:\d{2}(:\d{2}(\.\d+)?)?([+-]\d{2}(:?\d{2})?|Z)?$/;

/** One form of a value whichever way it was read: instants as ISO strings to the millisecond, keys sorted. */
function norm(value: unknown): unknown {
  if (value === null || value === undefined) return null;
  if (value instanceof Date) return value.toISOString();
  if (typeof value === 'string' && TIMESTAMP.test(value) && value.length > 10) {
    let v = value.replace(' ', 'T');
    if (/[+-]\d{2}$/.test(v)) v = `${v}:00`;
    else if (!/([+-]\d{2}:?\d{2}|Z)$/.test(v)) v = `${v}Z`;
    return new Date(v).toISOString();
  }
  if (Array.isArray(value)) return value.map(norm);
  if (typeof value === 'object')
    return Object.fromEntries(
      Object.entries(value as Row)
        .sort(([x], [y]) => x.localeCompare(y))
        .map(([k, v]) => [k, norm(v)]),
    );
  return value;
}
const key = (row: Row, drop: string[] = []) =>
  JSON.stringify(norm(Object.fromEntries(Object.entries(row).filter(([k]) => !drop.includes(k)))));

async function unzip(bytes: Buffer): Promise<Map<string, Buffer>> {
  const zip = await yauzl.fromBufferPromise(bytes, { lazyEntries: true });
  const out = new Map<string, Buffer>();
  for await (const entry of zip.eachEntry()) {
    const stream = await zip.openReadStreamPromise(entry);
    const chunks: Buffer[] = [];
    for await (const c of stream) chunks.push(c as Buffer);
    out.set(entry.fileName, Buffer.concat(chunks));
  }
  return out;
}

const jsonl = (bytes: Buffer | undefined): Row[] =>
  (bytes ?? Buffer.alloc(0))
    .toString('utf8')
    .split('\n')
    .filter((l) => l !== '')
    .map((l) => JSON.parse(l) as Row);

async function populate(admin: Session, f: Fixture, mark: string, sub: string) {
  const up = await upload(world.t, admin, '/api/observations/attachments', `${sub}-photo.png`, PNG, 'image/png');
  expect(up.statusCode, up.body).toBe(201);
  const fileId = (up.json() as { file: { id: string } }).file.id;
  const obs = await call(world.t, admin, 'POST', '/api/observations', {
    type: 'unsafe_act',
    category_id: f.ppe,
    sub_category_id: f.gloves,
    description: mark,
    site_id: f.tokyo,
    site_node_id: f.tokyoDivision,
    observed_at: siteTime('Asia/Tokyo', -30),
    risk_level: 'high',
    action_required: true,
    comment: mark,
    anonymous: false,
    attachment_ids: [fileId],
    actions: [{ description: mark, control_type: 'ppe', responsible_id: f.supervisor, due_date: '2099-01-01' }],
  });
  expect(obs.statusCode, obs.body).toBe(201);
  const roles = await owner<{ id: string }>(
    `select r.id from roles r join organizations o on o.id = r.organization_id where o.sub_domain_name = $1 limit 1`,
    [sub],
  );
  const sa = await call(world.t, admin, 'POST', '/api/service_accounts', { name: `${mark} account`, role_id: roles[0]!.id });
  expect(sa.statusCode, sa.body).toBe(201);
  const tok = await call(
    world.t,
    admin,
    'POST',
    `/api/service_accounts/${(sa.json() as { service_account: { id: string } }).service_account.id}/tokens`,
    {
      name: 'export me',
    },
  );
  expect(tok.statusCode, tok.body).toBe(201);
  const hook = await call(world.t, admin, 'POST', '/api/webhooks', {
    url: `https://${sub}.example.com/hook`,
    events: ['observation.created'],
  });
  expect(hook.statusCode, hook.body).toBe(201);
  return { fileId, secrets: [(tok.json() as { secret: string }).secret, (hook.json() as { secret: string }).secret] };
}

let secretsA: string[];
beforeAll(async () => {
  fa = await setUpOrganisation(world.t, world.a.id, 'dxa');
  fb = await setUpOrganisation(world.t, world.b.id, 'dxb');
  secretsA = (await populate(world.a.admin, fa, MARK_A, 'dxa')).secrets;
  await populate(world.b.admin, fb, MARK_B, 'dxb');
}, 60_000);

async function start(admin: Session): Promise<DataExport> {
  const res = await call(world.t, admin, 'POST', '/api/data_exports');
  expect(res.statusCode, res.body).toBe(202);
  return (res.json() as { export: DataExport }).export;
}

async function status(admin: Session, id: string): Promise<DataExport> {
  const res = await call(world.t, admin, 'GET', '/api/data_exports');
  expect(res.statusCode).toBe(200);
  return (res.json() as { exports: DataExport[] }).exports.find((e) => e.id === id)!;
}

/** The app's collaborators with a push that records what the requester is told. */
function recording(extra: Partial<AppDeps> = {}): { deps: AppDeps; told: PushEvent[] } {
  const told: PushEvent[] = [];
  const push = { ...world.t.deps.push, toUser: (_user: string, event: PushEvent) => void told.push(event) };
  return { deps: { ...world.t.deps, push, ...extra }, told };
}

describe('who may export', () => {
  it('refuses the organisation’s other people, and another organisation’s admin', async () => {
    const user = world.a.user;
    expect((await call(world.t, user, 'GET', '/api/data_exports')).statusCode).toBe(403);
    expect((await call(world.t, user, 'POST', '/api/data_exports')).statusCode).toBe(403);
    expect((await call(world.t, user, 'GET', `/api/data_exports/${world.a.id}/download`)).statusCode).toBe(403);
  });
});

describe('the archive', () => {
  let exp: DataExport;
  let files: Map<string, Buffer>;
  let manifest: DataExportManifest;
  const expected = new Map<string, Row[]>();
  let told: PushEvent[];

  beforeAll(async () => {
    exp = await start(world.a.admin);
    expect(exp).toMatchObject({ status: 'queued', progress: 0, requested_by_name: 'Admin' });
    // One at a time.
    expect((await call(world.t, world.a.admin, 'POST', '/api/data_exports')).statusCode).toBe(409);
    // B's export is B's business: it may start its own meanwhile.
    expect((await call(world.t, world.b.admin, 'GET', '/api/data_exports')).body).not.toContain(exp.id);

    // The database as the job will find it: every tenant table of A, read on the owner connection.
    for (const table of await tenantTables())
      expected.set(table, await owner(`select * from "${table}" where organization_id = $1`, [world.a.id]));
    expected.set('organizations', await owner('select * from organizations where id = $1', [world.a.id]));

    const run = recording();
    told = run.told;
    await runExport(run.deps, { organizationId: world.a.id, id: exp.id });
    const res = await call(world.t, world.a.admin, 'GET', `/api/data_exports/${exp.id}/download`);
    expect(res.statusCode, res.body.slice(0, 200)).toBe(200);
    expect(res.headers['content-type']).toMatch(/application\/zip/);
    expect(res.headers['content-disposition']).toContain('dxa-');
    files = await unzip(res.rawPayload);
    manifest = JSON.parse(files.get('manifest.json')!.toString('utf8')) as DataExportManifest;
  }, 60_000);

  it('is made by the job with progress, and the requester is told when it is ready', async () => {
    const done = await status(world.a.admin, exp.id);
    expect(done).toMatchObject({ status: 'ready', progress: 100, error: null });
    expect(done.size_bytes).toBeGreaterThan(1000);
    expect(Date.parse(done.expires_at!) - Date.now()).toBeGreaterThan(6 * 86_400_000);
    const updates = told.filter((e) => e.channel === 'data_exports' && e.change === 'updated');
    expect(updates.length).toBeGreaterThanOrEqual(3);
    expect(told).toContainEqual(expect.objectContaining({ channel: 'notification' }));
    const [note] = await owner<{ title: string; link: string }>(
      `select title, link from notifications where user_id = $1 and link = '/integrations/export'`,
      [world.a.adminId],
    );
    expect(note).toEqual({ title: translate('en', 'dataExport.readyTitle'), link: '/integrations/export' });
    // Only the requester's organisation hears of it.
    expect(
      (await owner('select 1 from notifications where organization_id = $1 and link = $2', [world.b.id, '/integrations/export'])).length,
    ).toBe(0);
  });

  it('holds every row of every tenant table of the organisation, as JSON Lines, column for column', async () => {
    expect(manifest.organization).toEqual({ id: world.a.id, name: 'dxa Ltd', sub_domain: 'dxa' });
    expect(new Set(manifest.tables.map((t) => t.name))).toEqual(new Set(expected.keys()));
    let total = 0;
    for (const t of manifest.tables) {
      const rows = jsonl(files.get(`data/${t.name}.jsonl`));
      const want = expected.get(t.name)!;
      expect(rows, t.name).toHaveLength(want.length);
      expect(t.rows, t.name).toBe(want.length);
      total += rows.length;
      if (want.length === 0) continue;
      // Every column but the secrets, named in the manifest.
      const columns = Object.keys(want[0]!).filter((c) => !t.redacted_columns.includes(c));
      for (const r of rows) expect(Object.keys(r).sort(), t.name).toEqual([...columns].sort());
      if (t.name === 'data_exports') {
        // The one row the job itself moves while it runs.
        expect(rows.map((r) => r.id).sort(), t.name).toEqual(want.map((r) => r.id).sort());
        continue;
      }
      expect(rows.map((r) => key(r)).sort(), t.name).toEqual(want.map((r) => key(r, t.redacted_columns)).sort());
    }
    // The data a test set up is there, not only empty tables.
    expect(total).toBeGreaterThan(50);
    for (const t of ['observations', 'actions', 'files', 'users', 'sites', 'api_tokens', 'webhook_endpoints', 'audit_log'])
      expect(expected.get(t)!.length, t).toBeGreaterThan(0);
    expect(files.get('data/observations.jsonl')!.toString()).toContain(MARK_A);
  });

  it('leaves the secrets out: password and token hashes, sealed signing secrets', async () => {
    const redacted = Object.fromEntries(manifest.tables.map((t) => [t.name, t.redacted_columns]));
    expect(redacted.users).toContain('password_hash');
    expect(redacted.api_tokens).toContain('token_hash');
    expect(redacted.webhook_endpoints).toContain('secret_enc');
    const everything = [...files.entries()]
      .filter(([name]) => !name.startsWith('files/') && name !== 'data.xlsx')
      .map(([, b]) => b.toString('utf8'))
      .join('\n');
    const [hash] = await owner<{ password_hash: string }>('select password_hash from users where id = $1', [world.a.adminId]);
    expect(everything).not.toContain(hash!.password_hash);
    for (const s of secretsA) expect(everything).not.toContain(s);
  });

  it('holds the same rows as Excel, a sheet per table', async () => {
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(files.get('data.xlsx')! as unknown as ArrayBuffer);
    expect(book.worksheets).toHaveLength(manifest.tables.length);
    for (const [i, t] of manifest.tables.entries()) {
      const sheet = book.worksheets[i]!;
      expect(sheet.name).toBe(t.name.slice(0, 31));
      expect(sheet.actualRowCount, t.name).toBe(t.rows + 1);
      const header = (sheet.getRow(1).values as unknown[]).slice(1);
      const rows = jsonl(files.get(`data/${t.name}.jsonl`));
      expect(header, t.name).toEqual(rows[0] ? Object.keys(rows[0]) : header);
      const idColumn = header.indexOf('id') + 1;
      if (idColumn > 0 && t.rows > 0) {
        const ids = [];
        for (let r = 2; r <= t.rows + 1; r += 1) ids.push(String(sheet.getRow(r).getCell(idColumn).value));
        expect(ids.sort(), t.name).toEqual(rows.map((x) => String(x.id)).sort());
      }
    }
  });

  it('holds the organisation’s stored files, byte for byte, and no one else’s', async () => {
    const stored = expected.get('files')!;
    const inZip = [...files.keys()].filter((n) => n.startsWith('files/'));
    expect(inZip).toHaveLength(stored.length);
    expect(manifest.files).toBe(stored.length);
    for (const f of stored) {
      const name = inZip.find((n) => n.startsWith(`files/${String(f.id)}/`));
      expect(name, String(f.file_name)).toBeDefined();
      expect(files.get(name!)!.equals(PNG)).toBe(true);
    }
  });

  it('holds nothing of the other organisation', async () => {
    const text = [...files.entries()]
      .filter(([name]) => !name.startsWith('files/') && name !== 'data.xlsx')
      .map(([, b]) => b.toString('utf8'))
      .join('\n');
    const sheets = [...(await unzip(files.get('data.xlsx')!)).values()].map((b) => b.toString('utf8')).join('\n');
    const foreign = new Set<string>([world.b.id, MARK_B, 'dxb Ltd', 'dxb-photo.png']);
    for (const table of await tenantTables()) {
      const hasId = (
        await owner(`select 1 from information_schema.columns where table_schema = 'public' and table_name = $1 and column_name = 'id'`, [
          table,
        ])
      ).length;
      if (!hasId) continue;
      for (const r of await owner<{ id: string }>(`select id::text as id from "${table}" where organization_id = $1`, [world.b.id]))
        foreign.add(r.id);
    }
    expect(foreign.size).toBeGreaterThan(20);
    for (const f of foreign) {
      expect(text.includes(f), `${f} in the JSON Lines`).toBe(false);
      expect(sheets.includes(f), `${f} in the workbook`).toBe(false);
    }
    for (const t of manifest.tables) {
      for (const r of jsonl(files.get(`data/${t.name}.jsonl`))) {
        if ('organization_id' in r) expect(r.organization_id, t.name).toBe(world.a.id);
      }
    }
    expect(jsonl(files.get('data/organizations.jsonl')).map((r) => r.id)).toEqual([world.a.id]);
  });

  it('is downloaded by the organisation’s admins only, and not after its week', async () => {
    expect((await call(world.t, world.a.user, 'GET', `/api/data_exports/${exp.id}/download`)).statusCode).toBe(403);
    expect((await call(world.t, world.b.admin, 'GET', `/api/data_exports/${exp.id}/download`)).statusCode).toBe(404);
    const stored = path.join(world.t.deps.config.filesDir, archiveKey(world.a.id, exp.id));
    expect(existsSync(stored)).toBe(true);
    await sweepExports(world.t.deps, new Date(Date.now() + 8 * 86_400_000));
    expect((await status(world.a.admin, exp.id)).status).toBe('expired');
    expect(existsSync(stored)).toBe(false);
    expect((await call(world.t, world.a.admin, 'GET', `/api/data_exports/${exp.id}/download`)).statusCode).toBe(410);
  });
});

describe('where the archive is kept', () => {
  /** A blob store in memory: what an S3 bucket is to the app. */
  function memoryBlobs(failPut = false): BlobStore & { kept: Map<string, Buffer> } {
    const kept = new Map<string, Buffer>();
    return {
      kind: 's3',
      kept,
      async put(k, source) {
        if (failPut) throw new Error('bucket refused');
        const chunks: Buffer[] = [];
        for await (const c of streamOf(source)) chunks.push(c as Buffer);
        kept.set(k, Buffer.concat(chunks));
      },
      open: (k) => Readable.from([kept.get(k) ?? Buffer.alloc(0)]),
      remove: async (k) => void kept.delete(k),
      check: async () => {},
    };
  }

  it('goes to the file store every node reads (an S3 bucket too), not this node’s disk', async () => {
    const exp = await start(world.b.admin);
    const blobs = memoryBlobs();
    const { deps } = recording({ storage: createStorage(blobs) });
    await runExport(deps, { organizationId: world.b.id, id: exp.id });
    expect((await status(world.b.admin, exp.id)).status).toBe('ready');
    const k = archiveKey(world.b.id, exp.id);
    expect(blobs.kept.has(k)).toBe(true);
    expect(existsSync(path.join(world.t.deps.config.filesDir, k))).toBe(false);
    const inside = await unzip(blobs.kept.get(k)!);
    expect(JSON.parse(inside.get('manifest.json')!.toString()).organization.sub_domain).toBe('dxb');
  });

  it('fails cleanly when it cannot be kept: marked failed, the requester told, and a new export may start', async () => {
    const exp = await start(world.b.admin);
    const { deps } = recording({ storage: createStorage(memoryBlobs(true)) });
    await runExport(deps, { organizationId: world.b.id, id: exp.id });
    expect(await status(world.b.admin, exp.id)).toMatchObject({ status: 'failed', error: 'bucket refused' });
    const notes = await owner<{ title: string }>('select title from notifications where user_id = $1 and link = $2', [
      world.b.adminId,
      '/integrations/export',
    ]);
    expect(notes.map((n) => n.title)).toContain(translate('en', 'dataExport.failedTitle'));
    await start(world.b.admin);
  });
});

describe('one export at a time', () => {
  it('answers starts sent together with one export and "busy" for the rest', async () => {
    const answers = await Promise.all([1, 2, 3].map(() => call(world.t, world.a.admin, 'POST', '/api/data_exports')));
    expect(answers.map((r) => r.statusCode).sort()).toEqual([202, 409, 409]);
    const open = await owner(`select 1 from data_exports where organization_id = $1 and status in ('queued', 'running')`, [world.a.id]);
    expect(open).toHaveLength(1);
  });
});
