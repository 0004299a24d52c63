import { translate, type Observation, type ObservationListResponse } from '@bulwark/domain';
import { desc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { GUEST_REPORTS_PER_HOUR } from '../src/modules/observations/routes.js';
import { inTenant } from '../src/platform/db/db.js';
import { mailOutbox, notifications } from '../src/platform/db/schema.js';
import { buildWorkbook, readWorkbookRows } from '../src/platform/export/excel.js';
import { call, createOrg, createTestApp, signIn, upload, type Session, type TestApp } from './helpers.js';
import { footprint, PNG, setUpOrganisation, siteDate, siteTime, type Fixture } from './observations-support.js';

let t: TestApp;
let a: Awaited<ReturnType<typeof createOrg>>;
let b: Awaited<ReturnType<typeof createOrg>>;
let fa: Fixture;
let manager: Session;
let reader: Session;
const en = (key: string) => translate('en', key);

function guestBody(over: Record<string, unknown> = {}) {
  return {
    type: 'near_miss',
    description: 'A pallet fell from the rack near the loading bay',
    site_id: fa.tokyo,
    observed_at: siteTime('Asia/Tokyo', -10),
    risk_level: 'critical',
    comment: 'Nobody was hurt.',
    anonymous: false,
    reporter_name: 'Sam Visitor',
    reporter_email: 'sam@example.com',
    attachment_ids: [],
    ...over,
  };
}

function guest(url: string, payload: unknown, ip: string, tenant = 'obsga') {
  return t.app.inject({ method: 'POST', url, payload: payload as object, remoteAddress: ip, headers: { 'x-tenant': tenant } });
}

beforeAll(async () => {
  t = await createTestApp();
  a = await createOrg(t, 'obsga');
  b = await createOrg(t, 'obsgb');
  fa = await setUpOrganisation(t, a.id, 'obsga');
  await setUpOrganisation(t, b.id, 'obsgb');
  manager = await signIn(t, 'obsga', 'manager@obsga.test');
  reader = await signIn(t, 'obsga', a.userEmail);
}, 120_000);

afterAll(async () => {
  await t?.close();
});

describe('guest reporting on the sub-domain', () => {
  it('offers active sites, types and risk levels of the organisation, and no people', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/observations/outer_obs_data', headers: { 'x-tenant': 'obsga' } });
    expect(res.statusCode).toBe(200);
    const data = res.json();
    expect(data).toEqual({
      organization: { name: 'obsga Ltd' },
      sites: [
        { id: fa.la, name: 'Los Angeles Yard', time_zone: 'America/Los_Angeles' },
        { id: fa.tokyo, name: 'Tokyo Works', time_zone: 'Asia/Tokyo' },
      ],
      types: ['unsafe_act', 'unsafe_condition', 'near_miss', 'good_practice'],
      risk_levels: ['low', 'medium', 'high', 'critical'],
    });
    expect(
      (await t.app.inject({ method: 'GET', url: '/api/observations/outer_obs_data', headers: { 'x-tenant': 'nosuchorg' } })).statusCode,
    ).toBe(404);
  });

  it('records the report, tells the head of safety and pushes it to the organisation after commit', async () => {
    const pushed = vi.spyOn(t.deps.push, 'toOrganization');
    const photo = await upload(t, null, '/api/observations/outer/attachments', 'rack.png', PNG, 'image/png', {
      tenant: 'obsga',
      ip: '10.77.0.1',
    });
    expect(photo.statusCode, photo.body).toBe(201);
    const res = await guest('/api/observations/outer', guestBody({ attachment_ids: [photo.json().file.id] }), '10.77.0.2');
    expect(res.statusCode, res.body).toBe(201);
    const { id, serial_label } = res.json() as { id: string; serial_label: string };
    expect(pushed).toHaveBeenCalledWith(a.id, { channel: 'observations', change: 'created', id });
    pushed.mockRestore();

    const o = (await call(t, manager, 'GET', `/api/observations/${id}`)).json().observation as Observation;
    expect(o).toMatchObject({
      source: 'guest',
      status: 'open',
      risk_level: 'critical',
      category: null,
      site_node: null,
      action_required: false,
      reporter: { id: null, full_name: 'Sam Visitor', email: 'sam@example.com', guest: true },
      attachments: [expect.objectContaining({ file_name: 'rack.png' })],
    });
    const mail = await inTenant(t.deps.db.app, a.id, (tx) =>
      tx.select().from(mailOutbox).where(eq(mailOutbox.toAddress, 'manager@obsga.test')).orderBy(desc(mailOutbox.createdAt)),
    );
    expect(mail[0]?.subject).toContain(serial_label);
    expect(mail[0]?.body).toContain('Sam Visitor');
    const notes = await inTenant(t.deps.db.app, a.id, (tx) => tx.select().from(notifications).where(eq(notifications.userId, fa.manager)));
    expect(notes.some((n) => n.link === `/observations/summary/${id}`)).toBe(true);
  });

  it('keeps an anonymous guest anonymous, and refuses a name with it', async () => {
    const refused = await guest('/api/observations/outer', guestBody({ anonymous: true }), '10.77.0.3');
    expect(refused.statusCode).toBe(400);
    expect(refused.json().fields.reporter_name).toBe(en('observations.validation.anonymousNoName'));
    const res = await guest('/api/observations/outer', guestBody({ anonymous: true, reporter_name: '', reporter_email: '' }), '10.77.0.4');
    expect(res.statusCode, res.body).toBe(201);
    const o = (await call(t, manager, 'GET', `/api/observations/${res.json().id}`)).json().observation as Observation;
    expect(o.reporter).toBeNull();
    expect(o.anonymous).toBe(true);
  });

  it('refuses bad input and future times at the site, writing nothing', async () => {
    const before = await footprint(t, a.id);
    const cases: Array<[Record<string, unknown>, string, string]> = [
      [{ observed_at: siteTime('Asia/Tokyo', 60) }, 'observed_at', 'observations.validation.futureTime'],
      [{ site_id: fa.inactive }, 'site_id', 'observations.validation.siteUnknown'],
      [{ type: '' }, 'type', 'observations.validation.type'],
      [{ reporter_email: 'not-an-email' }, 'reporter_email', 'validation.email'],
      [{ description: '' }, 'description', 'validation.required'],
      // A guest cannot link a file a member uploaded.
      [
        { attachment_ids: [(await upload(t, manager, '/api/observations/attachments', 'm.png', PNG, 'image/png')).json().file.id] },
        'attachment_ids',
        'observations.validation.attachmentUnknown',
      ],
    ];
    const after = await footprint(t, a.id);
    for (const [over, field, key] of cases) {
      const res = await guest('/api/observations/outer', guestBody(over), `10.78.0.${cases.findIndex((c) => c[0] === over) + 1}`);
      expect(res.statusCode, JSON.stringify(over)).toBe(400);
      expect(res.json().fields[field], JSON.stringify(over)).toBe(en(key));
    }
    expect((await footprint(t, a.id)).observations).toBe(before.observations);
    expect(await footprint(t, a.id)).toEqual(after);
  });

  it('limits reports per address and hour', async () => {
    const ip = '10.79.0.1';
    for (let i = 0; i < GUEST_REPORTS_PER_HOUR; i += 1) {
      expect((await guest('/api/observations/outer', guestBody({ description: `Report ${i}` }), ip)).statusCode).toBe(201);
    }
    const over = await guest('/api/observations/outer', guestBody(), ip);
    expect(over.statusCode).toBe(429);
    expect(over.json().code).toBe('rate_limited');
    expect((await guest('/api/observations/outer', guestBody(), '10.79.0.2')).statusCode).toBe(201);
  });

  it('files the report with the organisation of the sub-domain only', async () => {
    const res = await guest('/api/observations/outer', guestBody(), '10.80.0.1', 'obsgb');
    // Organisation A's site is unknown to B.
    expect(res.statusCode).toBe(400);
    expect(res.json().fields.site_id).toBe(en('observations.validation.siteUnknown'));
  });
});

describe('import from Excel', () => {
  const header = (c: string) => en(`observations.import.columns.${c}`);
  async function workbook(rows: Array<Record<string, string>>) {
    const cols = [
      'type',
      'category',
      'sub_category',
      'site',
      'area',
      'observed_at',
      'risk_level',
      'description',
      'comment',
      'action_description',
      'action_control_type',
      'action_responsible_email',
      'action_due_date',
    ];
    return buildWorkbook(
      'Observations',
      cols.map((c) => ({ header: header(c), key: c, value: (r: Record<string, string>) => r[c] ?? '' })),
      rows,
    );
  }
  function post(s: Session, bytes: Buffer) {
    return upload(
      t,
      s,
      '/api/observations_bulk_upload',
      'obs.xlsx',
      bytes,
      'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
    );
  }
  const good = (over: Record<string, string> = {}) => ({
    type: 'Unsafe act',
    category: 'PPE not used',
    sub_category: 'Gloves',
    site: 'Tokyo Works',
    area: 'Assembly',
    observed_at: siteTime('Asia/Tokyo', -300).replace('T', ' '),
    risk_level: 'Medium',
    description: 'Imported observation',
    comment: 'From the paper log',
    ...over,
  });

  it('offers a template with the columns and a sheet of valid values', async () => {
    const res = await call(t, manager, 'GET', '/api/observations_bulk_upload/template');
    expect(res.statusCode).toBe(200);
    const sheet = await readWorkbookRows(res.rawPayload);
    expect(sheet.headers).toContain(header('observed_at'));
    expect((await call(t, reader, 'GET', '/api/observations_bulk_upload/template')).statusCode).toBe(403);
  });

  it('writes nothing when any row is wrong, and names each row, column and problem', async () => {
    const before = await footprint(t, a.id);
    const res = await post(
      manager,
      await workbook([
        good(),
        good({ site: 'Atlantis' }),
        good({ observed_at: siteTime('Asia/Tokyo', 300).replace('T', ' ') }),
        good({ risk_level: '', type: 'Explosion' }),
        good({
          action_description: 'Fit guard',
          action_control_type: 'Engineering controls',
          action_responsible_email: 'nobody@nowhere.test',
          action_due_date: siteDate('Asia/Tokyo', 3),
        }),
        good({ action_description: 'Fit guard' }),
      ]),
    );
    expect(res.statusCode, res.body).toBe(400);
    const rows = res.json().rows as Array<{ row: number; field: string; message: string }>;
    expect(rows).toEqual(
      expect.arrayContaining([
        { row: 3, field: 'site', message: en('observations.validation.siteUnknown') },
        { row: 4, field: 'observed_at', message: en('observations.validation.futureTime') },
        { row: 5, field: 'type', message: en('validation.invalid') },
        { row: 5, field: 'risk_level', message: en('observations.validation.riskLevel') },
        { row: 6, field: 'action_responsible_email', message: en('observations.validation.responsibleUnknown') },
        { row: 7, field: 'action_description', message: en('observations.validation.importActionIncomplete') },
      ]),
    );
    expect(rows.some((r) => r.row === 2)).toBe(false);
    expect(await footprint(t, a.id)).toEqual(before);
  });

  it('imports every row when all are right, actions included', async () => {
    const before = await footprint(t, a.id);
    const res = await post(
      manager,
      await workbook([
        good({ description: 'Imported one' }),
        good({
          description: 'Imported two',
          type: 'unsafe_condition',
          category: 'Housekeeping',
          sub_category: '',
          site: 'Los Angeles Yard',
          area: 'Logistics',
          observed_at: siteTime('America/Los_Angeles', -60).replace('T', ' '),
          risk_level: 'Alto',
          action_description: 'Clear the walkway',
          action_control_type: 'Administrative controls',
          action_responsible_email: 'supervisor@obsga.test',
          action_due_date: siteDate('America/Los_Angeles', 2),
        }),
      ]),
    );
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ imported: 2, errors: [] });
    expect(await footprint(t, a.id)).toMatchObject({ observations: before.observations + 2, actions: before.actions + 1 });
    const list = (await call(t, manager, 'GET', '/api/v2/observations?search=Imported%20two')).json() as ObservationListResponse;
    expect(list.observations[0]).toMatchObject({
      source: 'import',
      risk_level: 'high',
      site_node_name: 'Logistics',
      actions_total: 1,
      action_required: true,
    });
  });
});
