import {
  LIST_EXPORT_INLINE_MAX,
  translate,
  type ActionListResponse,
  type ListExport,
  type ListExportStarted,
  type NotificationList,
  type ObservationListResponse,
} from '@bulwark/domain';
import ExcelJS from 'exceljs';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runListExport } from '../src/modules/list-exports/service.js';
import { twoOrganizations } from './fixtures.js';
import { createGuest } from './attack/actors.js';
import { call, signIn, type Session } from './helpers.js';
import { setUpOrganisation, siteTime, type Fixture } from './observations-support.js';

/**
 * Issue 13: a list's Excel export holds every filtered row. Up to 10,000 rows it is written in the
 * request (page by page, never the whole workbook in memory) with real date cells; past that a job writes
 * it with progress, notifies the requester with the link, and only the requester may download it.
 */
const world = twoOrganizations('lx');
let fa: Fixture;
let manager: Session;
const BULK = LIST_EXPORT_INLINE_MAX + 50;

let pool: pg.Pool | undefined;
afterAll(async () => {
  await pool?.end();
});
async function owner(text: string, values: unknown[] = []) {
  pool ??= new pg.Pool({ connectionString: world.t.ownerUrl, max: 2 });
  return (await pool.query(text, values)).rows;
}

async function sheetOf(body: Buffer) {
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.load(body as unknown as ArrayBuffer);
  return wb.worksheets[0]!;
}

/** The text of each data row's first cell (the serial), in sheet order. */
function firstColumn(ws: ExcelJS.Worksheet): string[] {
  const out: string[] = [];
  for (let r = 2; r <= ws.rowCount; r += 1) out.push(String(ws.getRow(r).getCell(1).value));
  return out;
}

async function report(description: string, minutesAgo: number, withAction = false) {
  const res = await call(world.t, manager, 'POST', '/api/observations', {
    type: 'unsafe_act',
    category_id: fa.ppe,
    sub_category_id: fa.gloves,
    description,
    site_id: fa.tokyo,
    site_node_id: fa.tokyoDivision,
    observed_at: siteTime('Asia/Tokyo', -minutesAgo),
    risk_level: 'high',
    action_required: withAction,
    comment: description,
    anonymous: false,
    attachment_ids: [],
    actions: withAction
      ? [{ description: `Fix ${description}`, control_type: 'ppe', responsible_id: fa.supervisor, due_date: '2099-01-31' }]
      : [],
  });
  expect(res.statusCode, res.body).toBe(201);
}

beforeAll(async () => {
  fa = await setUpOrganisation(world.t, world.a.id, world.a.subDomain);
  manager = await signIn(world.t, world.a.subDomain, `manager@${world.a.subDomain}.test`);
  await report('Ladder left out', 90, true);
  await report('Gloves missing', 60, true);
  await report('Spill by the door', 30);
});

describe('list export in the request (up to 10,000 rows)', () => {
  it('streams the observations list: the same rows in the same order, dates as date cells', async () => {
    const query = 'sort=observed_at&direction=desc';
    const list = (await call(world.t, manager, 'GET', `/api/v2/observations?${query}`)).json() as ObservationListResponse;
    const res = await call(world.t, manager, 'GET', `/api/v2/observations?${query}&export_to_excel=true`);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toContain('spreadsheetml');
    const ws = await sheetOf(res.rawPayload);
    expect(ws.getRow(1).getCell(1).value).toBe(translate('en', 'observations.fields.serial'));
    expect(firstColumn(ws)).toEqual(list.observations.map((o) => o.serial_label));
    // Observed at: the site's wall-clock time as a real date cell, formatted as one.
    const observed = ws.getRow(2).getCell(6);
    expect(observed.value).toBeInstanceOf(Date);
    expect(observed.numFmt).toBe('yyyy-mm-dd hh:mm');
    expect((observed.value as Date).toISOString().slice(0, 16)).toBe(list.observations[0]!.observed_at);
    expect(ws.getRow(2).getCell(14).value).toBeInstanceOf(Date);
  });

  it('keeps the filters: a search exports only what it finds', async () => {
    const res = await call(world.t, manager, 'GET', '/api/v2/observations?search=gloves&export_to_excel=true');
    expect(res.statusCode).toBe(200);
    const ws = await sheetOf(res.rawPayload);
    expect(ws.rowCount).toBe(2);
    expect(ws.getRow(2).getCell(9).value).toBe('Gloves missing');
  });

  it('streams an action list with the same rows as the list, due dates and instants as date cells', async () => {
    const list = (await call(world.t, manager, 'GET', '/api/actions/all')).json() as ActionListResponse;
    expect(list.actions.length).toBe(2);
    const res = await call(world.t, manager, 'GET', '/api/actions/all?export_to_excel=true');
    expect(res.statusCode, res.body).toBe(200);
    const ws = await sheetOf(res.rawPayload);
    expect(firstColumn(ws)).toEqual(list.actions.map((a) => String(a.serial)));
    const due = ws.getRow(2).getCell(6);
    expect(due.value).toBeInstanceOf(Date);
    expect(due.numFmt).toBe('yyyy-mm-dd');
    expect((due.value as Date).toISOString().slice(0, 10)).toBe('2099-01-31');
    expect(ws.getRow(2).getCell(12).value).toBeInstanceOf(Date);
  });
});

describe(`list export as a job (past ${LIST_EXPORT_INLINE_MAX} rows)`, () => {
  let started: ListExportStarted['export'];

  beforeAll(async () => {
    // Set-based: BULK observations in one statement, after the three the API made.
    await owner(
      `insert into observations (organization_id, serial, type, description, site_id, observed_at, observed_local,
         risk_level, action_required, comment, source, reporter_id, created_by)
       select $1, 3 + g, 'unsafe_condition', 'Bulk ' || g, $2, now() - g * interval '1 minute',
         (now() - g * interval '1 minute')::timestamp, 'low', false, 'bulk', 'staff', $3, $3
       from generate_series(1, $4::int) g`,
      [world.a.id, fa.la, fa.reporter, BULK],
    );
    await owner(`update observation_serials set last_serial = $2 where organization_id = $1`, [world.a.id, BULK + 3]);
  });

  it('answers 202 with the export it started, counted first', async () => {
    const res = await call(world.t, manager, 'GET', '/api/v2/observations?export_to_excel=true&sort=serial&direction=asc');
    expect(res.statusCode, res.body).toBe(202);
    started = (res.json() as ListExportStarted).export;
    expect(started).toMatchObject({ status: 'queued', rows_total: BULK + 3 });
    const seen = (await call(world.t, manager, 'GET', `/api/list_exports/${started.id}`)).json() as { export: ListExport };
    expect(seen.export).toMatchObject({ status: 'queued', rows_done: 0, rows_total: BULK + 3, file_name: 'Observations.xlsx' });
  });

  it('runs as a job, reporting its progress in rows, and notifies the requester with the link', async () => {
    const progress: number[] = [];
    let finished = false;
    const job = runListExport(world.t.deps, { organizationId: world.a.id, id: started.id }).finally(() => {
      finished = true;
    });
    while (!finished) {
      const r = (await call(world.t, manager, 'GET', `/api/list_exports/${started.id}`)).json() as { export: ListExport };
      progress.push(r.export.rows_done);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    await job;
    const done = (await call(world.t, manager, 'GET', `/api/list_exports/${started.id}`)).json() as { export: ListExport };
    expect(done.export).toMatchObject({ status: 'ready', rows_done: BULK + 3, rows_total: BULK + 3 });
    expect(done.export.size_bytes).toBeGreaterThan(0);
    // Seen part-way: rows done between none and all.
    expect(progress.some((n) => n > 0 && n < BULK + 3)).toBe(true);

    const bell = (await call(world.t, manager, 'GET', '/api/v1/notifications')).json() as NotificationList;
    const note = bell.notifications.find((n) => n.title === translate('en', 'listExport.readyTitle'));
    expect(note?.link).toBe(`/observations?export=${started.id}`);
  });

  it('gives the requester a workbook with every row', async () => {
    const res = await call(world.t, manager, 'GET', `/api/list_exports/${started.id}/download`);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-disposition']).toContain('Observations.xlsx');
    const ws = await sheetOf(res.rawPayload);
    const serials = firstColumn(ws);
    expect(serials).toHaveLength(BULK + 3);
    expect(serials[0]).toBe('OBS-000001');
    expect(serials.at(-1)).toBe(`OBS-${String(BULK + 3).padStart(6, '0')}`);
    expect(new Set(serials).size).toBe(BULK + 3);
    expect(ws.getRow(BULK + 3).getCell(6).value).toBeInstanceOf(Date);
  });

  it('is nobody else’s: not another user, not an admin, not another organisation, not a guest', async () => {
    for (const s of [world.a.admin, world.a.user]) {
      expect((await call(world.t, s, 'GET', `/api/list_exports/${started.id}/download`)).statusCode).toBe(404);
      expect((await call(world.t, s, 'GET', `/api/list_exports/${started.id}`)).statusCode).toBe(404);
    }
    expect((await call(world.t, world.b.admin, 'GET', `/api/list_exports/${started.id}/download`)).statusCode).toBe(404);
    await createGuest(world.t, world.a.admin, world.a.subDomain, 'gus@guests.test', 'Guest#Pass1');
    const guest = await signIn(world.t, world.a.subDomain, 'gus@guests.test', 'Guest#Pass1');
    expect((await call(world.t, guest, 'GET', `/api/list_exports/${started.id}/download`)).statusCode).toBe(403);
    // A guest's own export holds its own reports only: none here, so it is written at once and empty.
    const own = await call(world.t, guest, 'GET', '/api/v2/observations?export_to_excel=true');
    expect(own.statusCode).toBe(200);
    expect((await sheetOf(own.rawPayload)).rowCount).toBe(1);
  });

  it('an action list past the limit runs as a job too', async () => {
    await owner(
      `insert into actions (organization_id, serial, description, control_type, status, due_date, responsible_id, source_type, site_id, created_by)
       select $1, 2 + g, 'Bulk action ' || g, 'ppe', 'open', date '2099-01-01', $2, 'other', $3, $2
       from generate_series(1, $4::int) g`,
      [world.a.id, fa.supervisor, fa.la, BULK],
    );
    await owner(`update action_serials set last_serial = $2 where organization_id = $1`, [world.a.id, BULK + 2]);
    const res = await call(world.t, manager, 'GET', '/api/actions/all?export_to_excel=true');
    expect(res.statusCode, res.body).toBe(202);
    const { id } = (res.json() as ListExportStarted).export;
    await runListExport(world.t.deps, { organizationId: world.a.id, id });
    const file = await call(world.t, manager, 'GET', `/api/list_exports/${id}/download`);
    expect(file.statusCode).toBe(200);
    const serials = firstColumn(await sheetOf(file.rawPayload));
    expect(serials).toHaveLength(BULK + 2);
    expect(serials[0]).toBe(String(BULK + 2));
  });
});
