import { LIST_EXPORT_INLINE_MAX, siSerial, type ListExportStarted, type NotificationList, type SiListResponse } from '@bulwark/domain';
import ExcelJS from 'exceljs';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runListExport } from '../src/modules/list-exports/service.js';
import { call, createOrg, createTestApp, signIn, type Session, type TestApp } from './helpers.js';
import { createSite, localAgo, type Org } from './safety-interactions-support.js';

/**
 * Issue 13 for the safety interactions list: its Excel export holds every filtered row (keywords too),
 * newest first as the list; up to 10,000 rows in the request, past that by a job whose workbook only
 * its requester may download. It stopped at 10,000 rows without a word before.
 */
let t: TestApp;
let a: Org;
let admin: Session;
let reader: Session;
let other: Session;
let site: string;
const TZ = 'Asia/Tokyo';
const BULK = LIST_EXPORT_INLINE_MAX + 50;

let pool: pg.Pool | undefined;
async function owner(text: string, values: unknown[] = []) {
  pool ??= new pg.Pool({ connectionString: t.ownerUrl, max: 2 });
  return (await pool.query(text, values)).rows;
}

async function record(hoursAgo: number, crew: string) {
  const res = await call(t, admin, 'POST', '/api/safety_interactions', {
    site_id: site,
    held_at: localAgo(TZ, hoursAgo),
    duration_minutes: 20,
    participants: [{ name: 'Jon Price (contractor)' }],
    crew,
    topics: ['ppe'],
    safe_behaviours: [{ topic: 'ppe', note: 'Gloves on' }],
    at_risk_behaviours: [],
    recognition_given: true,
    status: 'completed',
  });
  expect(res.statusCode, res.body).toBe(201);
}

async function sheetOf(body: Buffer) {
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.load(body as unknown as ArrayBuffer);
  return wb.worksheets[0]!;
}

function serials(ws: ExcelJS.Worksheet): string[] {
  const out: string[] = [];
  for (let r = 2; r <= ws.rowCount; r += 1) out.push(String(ws.getRow(r).getCell(1).value));
  return out;
}

beforeAll(async () => {
  t = await createTestApp();
  a = await createOrg(t, 'lxsi');
  const b = await createOrg(t, 'lxsib');
  admin = await signIn(t, 'lxsi', a.adminEmail);
  reader = await signIn(t, 'lxsi', a.userEmail);
  other = await signIn(t, 'lxsib', b.adminEmail);
  site = await createSite(t, admin, a.adminId, 'Tokyo Works', TZ);
  // Two with the same instant: the serial breaks the tie, as in the list.
  await record(5, 'Scaffold crew');
  await record(3, 'Pipe crew');
  await record(3, 'Scaffold crew');
  await record(1, 'Electrical crew');
}, 120_000);
afterAll(async () => {
  await pool?.end();
  await t?.close();
});

describe('safety interactions export', () => {
  it('streams the list in the request: the same interactions newest first, the time held as a date cell', async () => {
    const list = (await call(t, admin, 'GET', '/api/safety_interactions?per_page=100')).json() as SiListResponse;
    const res = await call(t, admin, 'GET', '/api/safety_interactions?export_to_excel=true');
    expect(res.statusCode, res.body).toBe(200);
    const ws = await sheetOf(res.rawPayload);
    expect(serials(ws)).toEqual(list.safety_interactions.map((r) => siSerial(r.serial)));
    expect((ws.getRow(1).values as unknown[]).slice(1)).toHaveLength(13);
    const held = ws.getRow(2).getCell(2);
    expect(held.value).toBeInstanceOf(Date);
    expect(held.numFmt).toMatch(/yy/);
  });

  it('keeps the filters and the keywords', async () => {
    const list = (await call(t, admin, 'GET', '/api/safety_interactions?search=scaffold&per_page=100')).json() as SiListResponse;
    expect(list.safety_interactions).toHaveLength(2);
    const res = await call(t, admin, 'GET', '/api/safety_interactions?export_to_excel=true&search=scaffold');
    expect(serials(await sheetOf(res.rawPayload))).toEqual(list.safety_interactions.map((r) => siSerial(r.serial)));
  });

  it('past the limit runs as a job, newest first across pages, for its requester only', async () => {
    const [{ n: before }] = (await owner('select count(*)::int as n from safety_interactions where organization_id = $1', [a.id])) as [
      { n: number },
    ];
    // Bulk rows as the seed writes them: many share an instant, so pages break ties on the serial.
    await owner(
      `insert into safety_interactions (organization_id, serial, status, site_id, held_at, held_on, duration_minutes, recognition_given, crew)
       select $1, 1000 + g, 'completed', $2, now() - ((g / 7) || ' minutes')::interval, current_date, 15, false, 'Bulk crew'
       from generate_series(1, $3::int) g`,
      [a.id, site, BULK],
    );
    const res = await call(t, admin, 'GET', '/api/safety_interactions?export_to_excel=true');
    expect(res.statusCode, res.body).toBe(202);
    const started = (res.json() as ListExportStarted).export;
    expect(started).toMatchObject({ status: 'queued', rows_total: before + BULK });
    await runListExport(t.deps, { organizationId: a.id, id: started.id });
    for (const s of [reader, other]) expect((await call(t, s, 'GET', `/api/list_exports/${started.id}/download`)).statusCode).toBe(404);
    const file = await call(t, admin, 'GET', `/api/list_exports/${started.id}/download`);
    expect(file.statusCode, file.body).toBe(200);
    const expected = (
      await owner('select serial from safety_interactions where organization_id = $1 order by held_at desc, serial desc', [a.id])
    ).map((r) => siSerial(r.serial as number));
    expect(serials(await sheetOf(file.rawPayload))).toEqual(expected);
    const bell = (await call(t, admin, 'GET', '/api/v1/notifications')).json() as NotificationList;
    expect(JSON.stringify(bell)).toContain(`/safety-interactions?export=${started.id}`);
  });
});
