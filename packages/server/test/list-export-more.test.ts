import {
  LIST_EXPORT_INLINE_MAX,
  translate,
  type IncidentListResponse,
  type ListExportStarted,
  type NotificationList,
  type PermitListItem,
  type SiteListResponse,
} from '@bulwark/domain';
import ExcelJS from 'exceljs';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runListExport } from '../src/modules/list-exports/service.js';
import { call, createTestApp, type Session, type TestApp } from './helpers.js';
import { createIncident, incidentWorld, report, siteTime, type World } from './incidents-support.js';
import { createPermit, permitWorld, requestBody, requested, type PermitWorld } from './permits-support.js';

/**
 * Issue 13 for the incidents, permits, sites, worker-profile and permit-master lists: the Excel export
 * holds every filtered row, the list's own, in the list's order; up to 10,000 rows in the request, past
 * that by a job whose workbook only its requester may download.
 */
let t: TestApp;
let iw: World;
let pw: PermitWorld;
const BULK = LIST_EXPORT_INLINE_MAX + 50;

/** GET /api/permit_requests's answer. */
type PermitListResponse = { permits: PermitListItem[]; pagination: { total: number } };

let pool: pg.Pool | undefined;
async function owner(text: string, values: unknown[] = []) {
  pool ??= new pg.Pool({ connectionString: t.ownerUrl, max: 2 });
  return (await pool.query(text, values)).rows;
}

beforeAll(async () => {
  t = await createTestApp();
  iw = await incidentWorld(t, 'lxi');
  pw = await permitWorld(t, 'lxp');
}, 120_000);
afterAll(async () => {
  await pool?.end();
  await t?.close();
});

async function sheetOf(body: Buffer) {
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.load(body as unknown as ArrayBuffer);
  return wb.worksheets[0]!;
}

/** The text of each data row's `col` cell, in sheet order. */
function column(ws: ExcelJS.Worksheet, col = 1): string[] {
  const out: string[] = [];
  for (let r = 2; r <= ws.rowCount; r += 1) out.push(String(ws.getRow(r).getCell(col).value));
  return out;
}

const headers = (ws: ExcelJS.Worksheet) => (ws.getRow(1).values as unknown[]).slice(1);

/** A list's export past the limit: 202, the job, the requester's download; nobody else's. */
async function throughJob(s: Session, url: string, others: Session[], total: number) {
  const res = await call(t, s, 'GET', url);
  expect(res.statusCode, res.body).toBe(202);
  const started = (res.json() as ListExportStarted).export;
  expect(started).toMatchObject({ status: 'queued', rows_total: total });
  const orgId = (await owner('select organization_id from list_exports where id = $1', [started.id]))[0]!.organization_id as string;
  await runListExport(t.deps, { organizationId: orgId, id: started.id });
  for (const other of others) {
    expect((await call(t, other, 'GET', `/api/list_exports/${started.id}/download`)).statusCode).toBe(404);
    expect((await call(t, other, 'GET', `/api/list_exports/${started.id}`)).statusCode).toBe(404);
  }
  const file = await call(t, s, 'GET', `/api/list_exports/${started.id}/download`);
  expect(file.statusCode, file.body).toBe(200);
  return { id: started.id, ws: await sheetOf(file.rawPayload) };
}

async function linkOf(s: Session, id: string) {
  const bell = (await call(t, s, 'GET', '/api/v1/notifications')).json() as NotificationList;
  return bell.notifications.find((n) => n.link?.endsWith(`?export=${id}`))?.link;
}

describe('incidents', () => {
  beforeAll(async () => {
    await createIncident(t, iw.people.manager.s, report(iw, { description: 'Ladder slip' }));
    await createIncident(
      t,
      iw.people.manager.s,
      report(iw, { description: 'Hydraulic spill', type: 'environmental', category_id: iw.spill }),
    );
    await createIncident(
      t,
      iw.people.manager.s,
      report(iw, {
        description: 'Forklift near miss',
        site_id: iw.la,
        site_node_id: null,
        occurred_at: siteTime('America/Los_Angeles', -90),
      }),
    );
  });

  it('streams the list in the request: the same rows, order and columns, dates as date cells', async () => {
    for (const query of ['sort=occurred_at&direction=desc', 'sort=serial&direction=asc', 'sort=target_date&direction=asc']) {
      const list = (await call(t, iw.people.manager.s, 'GET', `/api/v2/incidents?${query}`)).json() as IncidentListResponse;
      const res = await call(t, iw.people.manager.s, 'GET', `/api/v2/incidents?${query}&export_to_excel=true`);
      expect(res.statusCode, res.body).toBe(200);
      const ws = await sheetOf(res.rawPayload);
      expect(column(ws)).toEqual(list.incidents.map((o) => o.serial_label));
      expect(headers(ws)[0]).toBe(translate('en', 'incidents.fields.serial'));
      expect(headers(ws)).toHaveLength(21);
      const occurred = ws.getRow(2).getCell(6);
      expect(occurred.value).toBeInstanceOf(Date);
      expect(occurred.numFmt).toBe('yyyy-mm-dd hh:mm');
      expect((occurred.value as Date).toISOString().slice(0, 16)).toBe(list.incidents[0]!.occurred_at);
      expect((ws.getRow(2).getCell(21).value as Date).toISOString().slice(0, 16)).toBe(list.incidents[0]!.created_at.slice(0, 16));
    }
  });

  it('keeps the filters', async () => {
    const res = await call(t, iw.people.manager.s, 'GET', '/api/v2/incidents?search=spill&export_to_excel=true');
    const ws = await sheetOf(res.rawPayload);
    expect(ws.rowCount).toBe(2);
    expect(ws.getRow(2).getCell(16).value).toBe('Hydraulic spill');
  });

  it('past the limit runs as a job, in the list’s order across pages (target dates, nulls last)', async () => {
    // Every third without a target date, the others on fifty days: ties and nulls across the keyset's pages.
    await owner(
      `insert into incidents (organization_id, serial, type, description, site_id, occurred_at, occurred_local,
         investigation_required, action_taken, source, status, investigation_state, target_date, created_by, reporter_id)
       select $1, 3 + g, 'injury', 'Bulk ' || g, $2, now() - g * interval '1 minute', (now() - g * interval '1 minute')::timestamp,
         false, 'none', 'staff', 'open', 'not_required',
         case when g % 3 = 0 then null else date '2099-01-01' + (g % 50) end, $3, $3
       from generate_series(1, $4::int) g`,
      [iw.org.id, iw.la, iw.people.manager.id, BULK],
    );
    await owner('update incident_serials set last_serial = $2 where organization_id = $1', [iw.org.id, BULK + 3]);
    const expected = await owner(
      `select serial from incidents where organization_id = $1 order by target_date asc nulls last, serial asc`,
      [iw.org.id],
    );
    const { id, ws } = await throughJob(
      iw.people.manager.s,
      '/api/v2/incidents?sort=target_date&direction=asc&export_to_excel=true',
      [iw.people.admin.s, iw.people.reader.s],
      BULK + 3,
    );
    expect(column(ws)).toEqual(expected.map((r) => `INC-${String(r.serial).padStart(6, '0')}`));
    expect(ws.getRow(2).getCell(14).value).toBeInstanceOf(Date);
    expect(await linkOf(iw.people.manager.s, id)).toBe(`/incidents?export=${id}`);

    // Descending, the undated still come last.
    const down = await owner(`select serial from incidents where organization_id = $1 order by target_date desc nulls last, serial desc`, [
      iw.org.id,
    ]);
    const desc = await throughJob(
      iw.people.manager.s,
      '/api/v2/incidents?sort=target_date&direction=desc&export_to_excel=true',
      [],
      BULK + 3,
    );
    expect(column(desc.ws)).toEqual(down.map((r) => `INC-${String(r.serial).padStart(6, '0')}`));
  });
});

describe('sites', () => {
  it('streams the list in the request: the same sites by name, the same columns', async () => {
    const list = (await call(t, iw.people.admin.s, 'GET', '/api/sites?per_page=100')).json() as SiteListResponse;
    const res = await call(t, iw.people.admin.s, 'GET', '/api/sites?export_to_excel=true');
    expect(res.statusCode, res.body).toBe(200);
    const ws = await sheetOf(res.rawPayload);
    expect(column(ws)).toEqual(list.sites.map((s) => s.name));
    expect(headers(ws)).toHaveLength(16);
    expect(column(ws, 16)).toEqual(list.sites.map((s) => translate('en', s.is_active ? 'sites.list.active' : 'sites.list.inactive')));
    const active = await sheetOf((await call(t, iw.people.admin.s, 'GET', '/api/sites?export_to_excel=true&active=inactive')).rawPayload);
    expect(column(active)).toEqual(['Closed Plant']);
  });

  it('past the limit runs as a job, by name across pages', async () => {
    await owner(
      `insert into sites (organization_id, name, time_zone, emergency_phone, address, city, state, country, zip)
       select $1, case when g % 2 = 0 then 'Bulk site ' else 'bulk Site ' end || g, 'UTC', '1', 'a', 'c', 's', 'GB', 'z'
       from generate_series(1, $2::int) g`,
      [iw.org.id, BULK],
    );
    const expected = await owner('select name from sites where organization_id = $1 order by lower(name), id', [iw.org.id]);
    const { id, ws } = await throughJob(iw.people.admin.s, '/api/sites?export_to_excel=true', [iw.people.manager.s], BULK + 3);
    expect(column(ws)).toEqual(expected.map((r) => r.name));
    expect(await linkOf(iw.people.admin.s, id)).toBe(`/sites?export=${id}`);
  });
});

describe('permits', () => {
  beforeAll(async () => {
    await requested(t, pw);
    await requested(t, pw, pw.lifting, { description: 'Lift the chiller' });
    // A draft: the requester's list holds it, the reader's does not.
    await createPermit(t, pw.people.requester.s, await requestBody(t, pw, pw.confined, { description: 'Draft tank entry' }));
  });

  it('streams each viewer’s list in the request: the same permits, order and columns, times as date cells', async () => {
    for (const who of [pw.people.requester, pw.people.reader]) {
      for (const query of ['sort=start_at&direction=desc', 'sort=number&direction=asc', 'sort=created_at&direction=desc']) {
        const list = (await call(t, who.s, 'GET', `/api/permit_requests?${query}`)).json() as PermitListResponse;
        const res = await call(t, who.s, 'GET', `/api/permit_requests?${query}&export_to_excel=true`);
        expect(res.statusCode, res.body).toBe(200);
        const ws = await sheetOf(res.rawPayload);
        expect(column(ws)).toEqual(list.permits.map((p) => p.number));
        expect(headers(ws)).toHaveLength(13);
      }
    }
    const mine = await sheetOf((await call(t, pw.people.requester.s, 'GET', '/api/permit_requests?export_to_excel=true')).rawPayload);
    expect(column(mine, 12)).toContain('Draft tank entry');
    const theirs = await sheetOf((await call(t, pw.people.reader.s, 'GET', '/api/permit_requests?export_to_excel=true')).rawPayload);
    expect(column(theirs, 12)).not.toContain('Draft tank entry');
    const start = mine.getRow(2).getCell(7);
    expect(start.value).toBeInstanceOf(Date);
    expect(start.numFmt).toBe('yyyy-mm-dd hh:mm');
  });

  it('past the limit runs as a job reading as its requester, in the list’s order across pages', async () => {
    // Requested permits starting within the last week, many at the same minute: ties across the pages.
    await owner(
      `insert into permits (organization_id, serial, prefix, template_id, status, requester_id, site_id, start_at, start_local,
         end_at, end_local, description, status_token, submitted_at, submitted_by)
       select $1, 100 + g, 'HW', $2, 'requested', $3, $4, now() - (g % 500) * interval '10 minutes',
         date_trunc('minute', (now() - (g % 500) * interval '10 minutes') at time zone 'UTC'),
         now() + interval '1 day', date_trunc('minute', (now() + interval '1 day') at time zone 'UTC'),
         'Bulk ' || g, 'bulk-token-' || g, now(), $3
       from generate_series(1, $5::int) g`,
      [pw.org.id, pw.hotWork, pw.people.colleague.id, pw.site, BULK],
    );
    await owner('update permit_serials set last_serial = $2 where organization_id = $1', [pw.org.id, BULK + 100]);
    const total = (await call(t, pw.people.requester.s, 'GET', '/api/permit_requests')).json() as PermitListResponse;
    expect(total.pagination.total).toBe(BULK + 3);
    const expected = await owner(
      `select prefix, serial from permits where organization_id = $1 and (status <> 'draft' or requester_id = $2)
       order by coalesce(start_local, created_at at time zone 'UTC') desc, serial desc`,
      [pw.org.id, pw.people.requester.id],
    );
    const { id, ws } = await throughJob(
      pw.people.requester.s,
      '/api/permit_requests?export_to_excel=true',
      [pw.people.reader.s, pw.people.admin.s],
      BULK + 3,
    );
    const numbers = column(ws);
    expect(numbers).toHaveLength(BULK + 3);
    expect(new Set(numbers).size).toBe(BULK + 3);
    expect(numbers.slice(0, 5)).toEqual(total.permits.slice(0, 5).map((p) => p.number));
    expect(numbers.map((n) => Number(n.replace(/\D/g, '')))).toEqual(expected.map((r) => Number(r.serial)));
    expect(await linkOf(pw.people.requester.s, id)).toBe(`/permits?export=${id}`);
  });
});

describe('worker profiles and permit masters', () => {
  it('stream their lists in the request, by name', async () => {
    const admin = pw.people.admin.s;
    for (const name of ['Stretcher', 'Harness', 'davit arm']) {
      expect((await call(t, admin, 'POST', '/api/rescue_masters', { name })).statusCode).toBe(201);
    }
    const masters = await sheetOf((await call(t, admin, 'GET', '/api/rescue_masters?export_to_excel=true')).rawPayload);
    expect(column(masters)).toEqual(['davit arm', 'Harness', 'Stretcher']);
    const workers = await sheetOf((await call(t, admin, 'GET', '/api/work_profiles?export_to_excel=true')).rawPayload);
    expect(column(workers)).toEqual(['Finn Fitter', 'Will Welder']);
    expect(headers(workers)).toHaveLength(7);
  });

  it('the worker profiles past the limit run as a job', async () => {
    await owner(
      `insert into work_profiles (organization_id, name, active)
       select $1, 'Bulk worker ' || g, true from generate_series(1, $2::int) g`,
      [pw.org.id, BULK],
    );
    const expected = await owner('select name from work_profiles where organization_id = $1 and active order by lower(name), id', [
      pw.org.id,
    ]);
    const { id, ws } = await throughJob(pw.people.admin.s, '/api/work_profiles?export_to_excel=true', [pw.people.setter.s], BULK + 2);
    expect(column(ws)).toEqual(expected.map((r) => r.name));
    expect(await linkOf(pw.people.admin.s, id)).toBe(`/worker-profile?export=${id}`);
  });
});
