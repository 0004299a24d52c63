import { actionDateIn, localDateTimeIn, translate, type ActionDetail, type ActionListResponse } from '@bulwark/domain';
import { and, count, desc, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { pushRequestHandlers } from '../src/app.js';
import { actions } from '../src/modules/actions/tables.js';
import { categories } from '../src/modules/categories/tables.js';
import { createOrganizationService, createRole } from '../src/modules/organizations/service.js';
import { sites } from '../src/modules/sites/tables.js';
import { seedDemo } from '../src/seed.js';
import { loadPrincipal } from '../src/platform/auth/principal.js';
import { asPlatform, inTenant } from '../src/platform/db/db.js';
import { auditLog, mailOutbox, notifications, organizations, users } from '../src/platform/db/schema.js';
import { readWorkbookRows } from '../src/platform/export/excel.js';
import { call, createOrg, createTestApp, PASSWORD, signIn, upload, type Session, type TestApp, PNG } from './helpers.js';

let t: TestApp;
let a: Awaited<ReturnType<typeof createOrg>>;
let b: Awaited<ReturnType<typeof createOrg>>;
let adminA: Session;
let readerA: Session;
let managerA: Session;
let doerA: Session;
let nobodyA: Session;
let adminB: Session;
const ids = { manager: '', doer: '', nobody: '', inactive: '' };
const site = { london: '', kiritimati: '', honolulu: '', inactive: '', other: '' };
const cat = { corrective: '', inactive: '', observation: '' };

const en = (key: string, vars?: Record<string, string>) => translate('en', key, vars);
const NIL = '00000000-0000-4000-8000-000000000000';

/** A date `days` from today in the London site's time zone. */
function inDays(days: number, timeZone = 'Europe/London'): string {
  return new Date(Date.parse(`${actionDateIn(timeZone)}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);
}

function actionBody(over: Record<string, unknown> = {}) {
  return {
    description: 'Replace the damaged guard rail on the mezzanine',
    control_type: 'engineering',
    responsible_id: ids.doer,
    due_date: inDays(7),
    category_id: cat.corrective,
    site_id: site.london,
    remarks: '',
    ...over,
  };
}

async function raise(s: Session, over: Record<string, unknown> = {}): Promise<ActionDetail> {
  const res = await call(t, s, 'POST', '/api/actions/', actionBody(over));
  expect(res.statusCode, res.body).toBe(201);
  return res.json() as ActionDetail;
}

async function actionCount(orgId: string): Promise<number> {
  const [row] = await inTenant(t.deps.db.app, orgId, (tx) => tx.select({ n: count() }).from(actions));
  return Number(row?.n ?? 0);
}

async function mailsTo(orgId: string, email: string) {
  return inTenant(t.deps.db.app, orgId, (tx) =>
    tx.select().from(mailOutbox).where(eq(mailOutbox.toAddress, email)).orderBy(desc(mailOutbox.createdAt)),
  );
}

async function notificationsOf(orgId: string, userId: string) {
  return inTenant(t.deps.db.app, orgId, (tx) =>
    tx.select().from(notifications).where(eq(notifications.userId, userId)).orderBy(desc(notifications.createdAt)),
  );
}

async function addSite(orgId: string, name: string, timeZone: string, isActive = true): Promise<string> {
  return inTenant(t.deps.db.app, orgId, async (tx) => {
    const [row] = await tx
      .insert(sites)
      .values({
        name,
        timeZone,
        emergencyPhone: '020 7946 0958',
        address: '1 Dock Road',
        city: 'Town',
        state: 'State',
        country: 'GB',
        zip: 'E16 2QU',
        isActive,
      })
      .returning({ id: sites.id });
    return row!.id;
  });
}

async function addCategory(
  orgId: string,
  module: 'actions' | 'observations',
  type: 'corrective' | 'unsafe_act',
  name: string,
  active = true,
): Promise<string> {
  return inTenant(t.deps.db.app, orgId, async (tx) => {
    const [row] = await tx.insert(categories).values({ module, type, name, active }).returning({ id: categories.id });
    return row!.id;
  });
}

const right = (name: 'Action' | 'Observation' | 'Site', view: boolean, add: boolean, edit: boolean) => ({
  name,
  rAdd: add,
  rEdit: edit,
  rView: view,
  rDestroy: false,
  isRevoke: false,
  isExtend: false,
  isClose: false,
  isReject: false,
  isApprove: false,
});

beforeAll(async () => {
  t = await createTestApp();
  a = await createOrg(t, 'acta');
  b = await createOrg(t, 'actb');
  await asPlatform(t.deps.db.app, async (tx) => {
    await tx.execute(sql`select set_config('app.organization_id', ${a.id}, true)`);
    await createRole(tx, 'Action manager', [right('Action', true, true, true)]);
    // A site supervisor-like person: sees observations only; their own actions reach them as the responsible person.
    await createRole(tx, 'Doer', [right('Observation', true, false, false)]);
    await createRole(tx, 'Nobody', [right('Site', true, false, false)]);
  });
  const orgs = createOrganizationService(t.deps.db.app);
  ids.manager = (
    await orgs.createUser('acta', { email: 'manager@acta.test', fullName: 'Priya Manager', password: PASSWORD, roleName: 'Action manager' })
  ).id;
  ids.doer = (await orgs.createUser('acta', { email: 'doer@acta.test', fullName: 'Tomasz Doer', password: PASSWORD, roleName: 'Doer' })).id;
  ids.nobody = (
    await orgs.createUser('acta', { email: 'nobody@acta.test', fullName: 'Nora Nobody', password: PASSWORD, roleName: 'Nobody' })
  ).id;
  ids.inactive = (
    await orgs.createUser('acta', { email: 'gone@acta.test', fullName: 'Gone Person', password: PASSWORD, roleName: 'Doer' })
  ).id;
  await inTenant(t.deps.db.app, a.id, (tx) => tx.update(users).set({ status: 'Inactive' }).where(eq(users.id, ids.inactive)));
  site.london = await addSite(a.id, 'London Works', 'Europe/London');
  site.kiritimati = await addSite(a.id, 'Line Islands Depot', 'Pacific/Kiritimati');
  site.honolulu = await addSite(a.id, 'Honolulu Yard', 'Pacific/Honolulu');
  site.inactive = await addSite(a.id, 'Closed Plant', 'Europe/London', false);
  site.other = await addSite(b.id, 'Other Org Site', 'Europe/London');
  cat.corrective = await addCategory(a.id, 'actions', 'corrective', 'Guarding');
  cat.inactive = await addCategory(a.id, 'actions', 'corrective', 'Retired', false);
  cat.observation = await addCategory(a.id, 'observations', 'unsafe_act', 'Unsafe act');
  adminA = await signIn(t, 'acta', a.adminEmail);
  readerA = await signIn(t, 'acta', a.userEmail);
  managerA = await signIn(t, 'acta', 'manager@acta.test');
  doerA = await signIn(t, 'acta', 'doer@acta.test');
  nobodyA = await signIn(t, 'acta', 'nobody@acta.test');
  adminB = await signIn(t, 'actb', b.adminEmail);
}, 60_000);

afterAll(async () => {
  await t?.close();
});

describe('POST /api/actions/ (an action of its own)', () => {
  it('raises it with the next serial of the organisation, its history, and tells the responsible person in the app and by mail', async () => {
    const pushed = vi.spyOn(t.deps.push, 'toOrganization');
    const first = await raise(managerA);
    const second = await raise(managerA, { description: 'Second one' });
    expect(second.serial).toBe(first.serial + 1);
    expect(first).toMatchObject({
      status: 'open',
      source_type: 'other',
      source_id: null,
      control_type: 'engineering',
      responsible: { id: ids.doer, full_name: 'Tomasz Doer' },
      site: { id: site.london, name: 'London Works', time_zone: 'Europe/London' },
      category: { id: cat.corrective, name: 'Guarding' },
      created_by: { id: ids.manager, full_name: 'Priya Manager' },
      remarks: null,
      attachments: [],
      source: { type: 'other', id: null, serial: null, label: null },
    });
    expect(first.history.map((h) => h.event)).toEqual(['action_create']);
    expect(first.history[0]!.actor).toEqual({ id: ids.manager, full_name: 'Priya Manager' });
    expect(pushed).toHaveBeenCalledWith(a.id, { channel: 'actions', change: 'created', id: first.id });
    pushed.mockRestore();

    const [mail] = (await mailsTo(a.id, 'doer@acta.test')).filter((m) => m.body.includes(`#${second.serial} Second one`));
    expect(mail?.subject).toBe(`Action assigned to you: #${second.serial} Second one`);
    expect(mail?.body).toContain(`/actions/summary/${second.id}`);
    expect(mail?.body).toContain('Priya Manager');
    const note = (await notificationsOf(a.id, ids.doer)).find((n) => n.link === `/actions/summary/${second.id}`);
    expect(note?.title).toContain('Priya Manager');

    // Another organisation counts from 1.
    const inB = await call(
      t,
      adminB,
      'POST',
      '/api/actions/',
      actionBody({ responsible_id: b.userId, site_id: site.other, category_id: null }),
    );
    expect(inB.statusCode, inB.body).toBe(201);
    expect(inB.json().serial).toBe(1);
  });

  it('does not tell people about the action they gave themselves', async () => {
    const before = (await notificationsOf(a.id, ids.manager)).length;
    await raise(managerA, { responsible_id: ids.manager });
    expect((await notificationsOf(a.id, ids.manager)).length).toBe(before);
  });

  const cases: Array<[string, Record<string, unknown>, string, string]> = [
    ['description missing', { description: '  ' }, 'description', 'validation.required'],
    ['description too long', { description: 'x'.repeat(2001) }, 'description', 'validation.tooLong'],
    ['control type unknown', { control_type: 'prayer' }, 'control_type', 'actions.validation.controlType'],
    ['control type missing', { control_type: undefined }, 'control_type', 'actions.validation.controlType'],
    ['responsible missing', { responsible_id: undefined }, 'responsible_id', 'actions.validation.responsible'],
    ['responsible not an id', { responsible_id: 'tomasz' }, 'responsible_id', 'actions.validation.responsible'],
    ['due date missing', { due_date: undefined }, 'due_date', 'actions.validation.dueDate'],
    ['due date malformed', { due_date: '12/03/2030' }, 'due_date', 'actions.validation.dueDate'],
    ['due date impossible', { due_date: '2030-02-30' }, 'due_date', 'actions.validation.dueDate'],
    ['category not an id', { category_id: 'guarding' }, 'category_id', 'actions.validation.category'],
    ['site missing', { site_id: undefined }, 'site_id', 'actions.validation.site'],
    ['remarks too long', { remarks: 'r'.repeat(2001) }, 'remarks', 'validation.tooLong'],
    ['image description too long', { image_description: 'i'.repeat(2001) }, 'image_description', 'validation.tooLong'],
    // Checked against the organisation's data:
    [
      'responsible of another organisation',
      { responsible_id: 'OTHER_ORG_USER' },
      'responsible_id',
      'actions.validation.responsibleUnknown',
    ],
    ['responsible unknown', { responsible_id: NIL }, 'responsible_id', 'actions.validation.responsibleUnknown'],
    ['due date before today at the site', { due_date: '2020-01-01' }, 'due_date', 'actions.validation.dueDatePast'],
    ['category of another module', { category_id: 'observation' }, 'category_id', 'actions.validation.categoryUnknown'],
    ['inactive category', { category_id: 'inactive' }, 'category_id', 'actions.validation.categoryUnknown'],
    ['inactive site', { site_id: 'inactive' }, 'site_id', 'actions.validation.siteUnknown'],
    ['site of another organisation', { site_id: 'other' }, 'site_id', 'actions.validation.siteUnknown'],
  ];
  it.each(cases)('refuses %s with a translated field error and writes nothing', async (_name, over, field, key) => {
    // Values that depend on the setup are named here and resolved now.
    const resolved = Object.fromEntries(
      Object.entries(over).map(([k, v]) => [
        k,
        k === 'responsible_id' && v === 'OTHER_ORG_USER'
          ? b.userId
          : k === 'category_id' && typeof v === 'string' && v in cat
            ? cat[v as keyof typeof cat]
            : k === 'site_id' && typeof v === 'string' && v in site
              ? site[v as keyof typeof site]
              : v,
      ]),
    );
    const before = await actionCount(a.id);
    const res = await call(t, managerA, 'POST', '/api/actions/', actionBody(resolved));
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json().code).toBe('validation_failed');
    expect(res.json().fields[field]).toBe(en(key));
    expect(await actionCount(a.id)).toBe(before);
  });

  it('refuses an inactive responsible person', async () => {
    const res = await call(t, managerA, 'POST', '/api/actions/', actionBody({ responsible_id: ids.inactive }));
    expect(res.json().fields.responsible_id).toBe(en('actions.validation.responsibleUnknown'));
  });

  it('says the errors in the reader’s language (es)', async () => {
    const res = await call(t, managerA, 'POST', '/api/actions/', actionBody({ control_type: 'x', due_date: '2020-01-01' }), {
      'accept-language': 'es',
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().fields.control_type).toBe(translate('es', 'actions.validation.controlType'));
    expect(res.json().fields.control_type).toBe('Elija un tipo de control.');
    expect(res.json().errors[0]).toBe(translate('es', 'errors.validation_failed'));
    const past = await call(t, managerA, 'POST', '/api/actions/', actionBody({ due_date: '2020-01-01' }), { 'accept-language': 'es' });
    expect(past.json().fields.due_date).toBe('La fecha límite no puede ser anterior a hoy en el centro.');
  });

  it('checks "today" in the site’s time zone: Kiritimati is a day ahead of Honolulu', async () => {
    const kiritimatiToday = actionDateIn('Pacific/Kiritimati');
    const honoluluToday = actionDateIn('Pacific/Honolulu');
    // Kiritimati (UTC+14) and Honolulu (UTC-10) are always on different dates.
    expect(kiritimatiToday > honoluluToday).toBe(true);
    const atKiritimati = await call(
      t,
      managerA,
      'POST',
      '/api/actions/',
      actionBody({ site_id: site.kiritimati, due_date: honoluluToday }),
    );
    expect(atKiritimati.json().fields?.due_date).toBe(en('actions.validation.dueDatePast'));
    await raise(managerA, { site_id: site.honolulu, due_date: honoluluToday });
  });

  it('needs Action create', async () => {
    for (const s of [readerA, doerA, nobodyA]) {
      expect((await call(t, s, 'POST', '/api/actions/', actionBody())).statusCode).toBe(403);
    }
  });
});

describe('the lists (spec 001 §7, page size 50)', () => {
  let listed: ActionDetail[];
  beforeAll(async () => {
    listed = [];
    listed.push(
      await raise(adminA, {
        description: 'Fit a machine guard to press 4',
        control_type: 'engineering',
        site_id: site.honolulu,
        due_date: inDays(3, 'Pacific/Honolulu'),
      }),
    );
    listed.push(
      await raise(adminA, {
        description: 'Issue cut-resistant gloves',
        control_type: 'ppe',
        responsible_id: ids.manager,
        due_date: inDays(20),
      }),
    );
    listed.push(await raise(adminA, { description: 'Toolbox talk on ladders', control_type: 'administrative', due_date: inDays(40) }));
  });

  it('pages with 50 by default, newest first, and counts each status tab', async () => {
    const res = await call(t, adminA, 'GET', '/api/actions/all');
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json() as ActionListResponse;
    expect(body.pagination.per_page).toBe(50);
    expect(body.actions[0]!.id).toBe(listed[2]!.id);
    expect(body.counts.all).toBe(body.pagination.total);
    expect(body.counts.open).toBe(body.pagination.total);
    const paged = (await call(t, adminA, 'GET', '/api/actions/all?per_page=2&page=2')).json() as ActionListResponse;
    expect(paged.actions).toHaveLength(2);
    expect(paged.pagination).toMatchObject({ page: 2, per_page: 2, total: body.pagination.total });
  });

  it('filters by site, responsible person, control type, due dates, status and search', async () => {
    const get = async (q: string) =>
      ((await call(t, adminA, 'GET', `/api/actions/other_action_datas?${q}`)).json() as ActionListResponse).actions.map((x) => x.id);
    expect(await get(`site_id=${site.honolulu}&control_type=engineering&search=press`)).toEqual([listed[0]!.id]);
    expect(await get(`responsible_id=${ids.manager}&control_type=ppe`)).toEqual([listed[1]!.id]);
    expect(await get(`due_from=${inDays(35)}&due_to=${inDays(45)}`)).toEqual([listed[2]!.id]);
    expect(await get(`search=%23${listed[1]!.serial}`)).toEqual([listed[1]!.id]);
    expect(await get('search=Toolbox&status=closed')).toEqual([]);
    const counted = (
      await call(t, adminA, 'GET', '/api/actions/other_action_datas?search=Toolbox&status=closed')
    ).json() as ActionListResponse;
    // The tab counts ignore the status tab itself.
    expect(counted.counts).toMatchObject({ all: 1, open: 1, closed: 0 });
    // A source's list holds only that source.
    expect(((await call(t, adminA, 'GET', '/api/actions/observation_action_datas')).json() as ActionListResponse).actions).toEqual([]);
  });

  it('refuses bad filters with translated errors', async () => {
    const bad = await call(t, adminA, 'GET', '/api/actions/all?status=late&due_from=yesterday&control_type=x&per_page=500');
    expect(bad.statusCode).toBe(400);
    expect(bad.json().fields).toMatchObject({
      status: en('actions.validation.status'),
      due_from: en('actions.validation.date'),
      control_type: en('actions.validation.controlType'),
      per_page: en('validation.invalid'),
    });
    const range = await call(t, adminA, 'GET', `/api/actions/all?due_from=${inDays(5)}&due_to=${inDays(1)}`);
    expect(range.json().fields.due_to).toBe(en('actions.validation.dateRange'));
  });

  it('exports exactly the filtered rows as a workbook', async () => {
    const res = await call(t, adminA, 'GET', `/api/actions/all?export_to_excel=true&site_id=${site.london}&search=gloves`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('spreadsheetml');
    const sheet = await readWorkbookRows(res.rawPayload);
    expect(sheet.headers).toContain(en('actions.fields.description'));
    expect(sheet.rows.map((r) => r.values[en('actions.fields.description')])).toEqual(['Issue cut-resistant gloves']);
    expect(sheet.rows[0]!.values[en('actions.fields.controlType')]).toBe(en('actions.controlType.ppe'));
    expect(sheet.rows[0]!.values[en('actions.fields.responsible')]).toBe('Priya Manager');
    const all = await readWorkbookRows((await call(t, adminA, 'GET', '/api/actions/other_action_datas?export_to_excel=true')).rawPayload);
    const page = (await call(t, adminA, 'GET', '/api/actions/other_action_datas')).json() as ActionListResponse;
    expect(all.rows.map((r) => Number(r.values[en('actions.fields.serial')]))).toEqual(page.actions.map((x) => x.serial));
  });

  it('guards each list with the read right of its own source (DECISIONS.md), not Incident read for all', async () => {
    // The Reader role reads Observation and Incident: the observation, incident and SI lists, not the others.
    for (const path of ['observation_action_datas', 'incident_action_datas', 'si_observation_action_datas']) {
      expect((await call(t, readerA, 'GET', `/api/actions/${path}`)).statusCode).toBe(200);
    }
    for (const path of ['all', 'other_action_datas', 'audit_action_datas']) {
      expect((await call(t, readerA, 'GET', `/api/actions/${path}`)).statusCode).toBe(403);
    }
    // Observation read alone opens the observations' actions; Incident read is for incidents' actions.
    expect((await call(t, doerA, 'GET', '/api/actions/observation_action_datas')).statusCode).toBe(200);
    expect((await call(t, doerA, 'GET', '/api/actions/incident_action_datas')).statusCode).toBe(403);
    // Safety interactions are readable by every member (their screens need a session), so are their agreed actions.
    expect((await call(t, nobodyA, 'GET', '/api/actions/si_observation_action_datas')).statusCode).toBe(200);
    for (const path of ['all', 'other_action_datas', 'audit_action_datas', 'observation_action_datas', 'incident_action_datas']) {
      expect((await call(t, nobodyA, 'GET', `/api/actions/${path}`)).statusCode).toBe(403);
    }
    expect((await call(t, managerA, 'GET', '/api/actions/all')).statusCode).toBe(200);
  });

  it('lets whoever may open a source’s list open its actions, and nobody else', async () => {
    const heldAt = localDateTimeIn('Europe/London', new Date(Date.now() - 3_600_000));
    const agreed = {
      description: 'Sweep the swarf daily',
      control_type: 'administrative',
      responsible_id: ids.manager,
      due_date: inDays(5),
    };
    const obs = await call(t, adminA, 'POST', '/api/observations', {
      type: 'unsafe_condition',
      description: 'Swarf on the walkway by lathe 3',
      site_id: site.london,
      observed_at: heldAt,
      risk_level: 'low',
      action_required: true,
      comment: 'Seen on the morning walk',
      anonymous: false,
      attachment_ids: [],
      actions: [agreed],
    });
    expect(obs.statusCode, obs.body).toBe(201);
    const si = await call(t, adminA, 'POST', '/api/safety_interactions', {
      site_id: site.london,
      location: 'Lathe bay',
      held_at: heldAt,
      duration_minutes: 15,
      participants: [{ name: 'Ola Turner (contractor)' }],
      topics: ['housekeeping'],
      safe_behaviours: [],
      at_risk_behaviours: [],
      recognition_given: false,
      status: 'draft',
      actions: [agreed],
    });
    expect(si.statusCode, si.body).toBe(201);
    const all = (await call(t, adminA, 'GET', '/api/actions/all?search=Sweep%20the%20swarf')).json() as ActionListResponse;
    const of = (source: string) => all.actions.find((x) => x.source_type === source)!.id;
    const open = async (s: Session, source: string) =>
      (await call(t, s, 'GET', `/api/actions/${of(source)}?actionable_type=${source}`)).statusCode;
    expect(await open(doerA, 'observation')).toBe(200);
    expect(await open(nobodyA, 'observation')).toBe(403);
    expect(await open(nobodyA, 'safety_interaction')).toBe(200);
    expect(await open(doerA, 'safety_interaction')).toBe(200);
  });

  it('never shows another organisation’s actions', async () => {
    const listB = (await call(t, adminB, 'GET', '/api/actions/all')).json() as ActionListResponse;
    expect(listB.actions.every((x) => x.site.id === site.other)).toBe(true);
    expect(listB.actions.map((x) => x.id)).not.toContain(listed[0]!.id);
    const exportB = await readWorkbookRows((await call(t, adminB, 'GET', '/api/actions/all?export_to_excel=true')).rawPayload);
    expect(exportB.rows.length).toBe(listB.pagination.total);
  });
});

describe('GET /api/actions/{id}', () => {
  it('shows every field to Action read, checks actionable_type, and answers 403 without the right', async () => {
    const x = await raise(managerA, { image_description: 'Photo of the rail' });
    const res = await call(t, managerA, 'GET', `/api/actions/${x.id}?actionable_type=other`);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({
      id: x.id,
      image_description: 'Photo of the rail',
      can: { edit: true, report: true, move_to: ['in_progress', 'completed'] },
    });
    expect((await call(t, managerA, 'GET', `/api/actions/${x.id}?actionable_type=observation`)).statusCode).toBe(404);
    expect((await call(t, managerA, 'GET', `/api/actions/${x.id}?actionable_type=planet`)).statusCode).toBe(400);
    // Incident read opens the observation lists, not actions of their own.
    expect((await call(t, readerA, 'GET', `/api/actions/${x.id}`)).statusCode).toBe(403);
    expect((await call(t, nobodyA, 'GET', `/api/actions/${x.id}`)).statusCode).toBe(403);
    // The responsible person reads their own action without any Action right.
    const own = await call(t, doerA, 'GET', `/api/actions/${x.id}`);
    expect(own.statusCode).toBe(200);
    expect(own.json().can).toEqual({ edit: false, report: true, move_to: ['in_progress', 'completed'] });
    expect((await call(t, managerA, 'GET', `/api/actions/${NIL}`)).statusCode).toBe(404);
    expect((await call(t, managerA, 'GET', '/api/actions/not-an-id')).statusCode).toBe(400);
  });

  it('serves an action’s file to whoever may open the action, and to nobody else in the organisation', async () => {
    const x = await raise(managerA);
    const file = await upload(t, doerA, `/api/actions/${x.id}/attachments`, 'guard.png', PNG, 'image/png');
    expect(file.statusCode, file.body).toBe(201);
    const fileId = (file.json() as ActionDetail).attachments[0]!.id;
    expect((await call(t, managerA, 'GET', `/api/files/${fileId}`)).statusCode).toBe(200);
    expect((await call(t, doerA, 'GET', `/api/files/${fileId}`)).statusCode).toBe(200);
    // Readers of observations and incidents cannot open an action of source "other", nor its photo;
    // the answer is the same as for a file that does not exist.
    expect((await call(t, readerA, 'GET', `/api/files/${fileId}`)).statusCode).toBe(404);
    expect((await call(t, nobodyA, 'GET', `/api/files/${fileId}`)).statusCode).toBe(404);
  });

  it('hides another organisation’s action from every call (404, never 403)', async () => {
    const x = await raise(managerA);
    const file = await upload(t, doerA, `/api/actions/${x.id}/attachments`, 'rail.png', PNG, 'image/png');
    expect(file.statusCode, file.body).toBe(201);
    const fileId = (file.json() as ActionDetail).attachments[0]!.id;
    const attempts = [
      await call(t, adminB, 'GET', `/api/actions/${x.id}`),
      await call(t, adminB, 'GET', `/api/actions/${x.id}?actionable_type=other`),
      await call(t, adminB, 'PATCH', `/api/actions/${x.id}`, { status: 'in_progress' }),
      await call(t, adminB, 'PATCH', `/api/actions/${x.id}`, { description: 'Taken over' }),
      await upload(t, adminB, `/api/actions/${x.id}/attachments`, 'x.png', PNG, 'image/png'),
      await call(t, adminB, 'DELETE', `/api/actions/${x.id}/attachments/${fileId}`),
      await call(t, adminB, 'GET', `/api/files/${fileId}`),
    ];
    expect(attempts.map((r) => r.statusCode)).toEqual([404, 404, 404, 404, 404, 404, 404]);
    const still = (await call(t, managerA, 'GET', `/api/actions/${x.id}`)).json() as ActionDetail;
    expect(still).toMatchObject({ status: 'open', description: x.description });
    expect(still.attachments).toHaveLength(1);
  });
});

describe('attachments', () => {
  it('the responsible person attaches a photo (type read from the content), served to those who may open the action; removing it frees the quota', async () => {
    const x = await raise(managerA);
    const usedBefore = await storageUsed(a.id);
    const res = await upload(t, doerA, `/api/actions/${x.id}/attachments`, 'done.png', PNG, 'image/png');
    expect(res.statusCode, res.body).toBe(201);
    const att = (res.json() as ActionDetail).attachments[0]!;
    expect(att).toMatchObject({
      file_name: 'done.png',
      mime_type: 'image/png',
      size_bytes: PNG.length,
      uploaded_by: { id: ids.doer, full_name: 'Tomasz Doer' },
    });
    expect(await storageUsed(a.id)).toBe(usedBefore + PNG.length);
    const served = await call(t, managerA, 'GET', att.url);
    expect(served.statusCode).toBe(200);
    expect(served.rawPayload.equals(PNG)).toBe(true);
    const detail = (await call(t, managerA, 'GET', `/api/actions/${x.id}`)).json() as ActionDetail;
    expect(detail.history.map((h) => h.event)).toEqual(['action_create', 'action_attach']);

    // Someone neither responsible nor allowed to update cannot add or remove files.
    expect((await upload(t, readerA, `/api/actions/${x.id}/attachments`, 'x.png', PNG, 'image/png')).statusCode).toBe(403);
    expect((await call(t, readerA, 'DELETE', `/api/actions/${x.id}/attachments/${att.id}`)).statusCode).toBe(403);

    expect((await call(t, doerA, 'DELETE', `/api/actions/${x.id}/attachments/${NIL}`)).statusCode).toBe(404);
    const removed = await call(t, doerA, 'DELETE', `/api/actions/${x.id}/attachments/${att.id}`);
    expect(removed.statusCode, removed.body).toBe(200);
    expect(await storageUsed(a.id)).toBe(usedBefore);
    expect((await call(t, managerA, 'GET', att.url)).statusCode).toBe(404);
    const after = (await call(t, managerA, 'GET', `/api/actions/${x.id}`)).json() as ActionDetail;
    expect(after.attachments).toEqual([]);
    expect(after.history.at(-1)).toMatchObject({ event: 'action_detach', changes: { file_name: 'done.png' } });
  });

  it('refuses a file whose content is not an allowed type, whatever its name says, and a missing file', async () => {
    const x = await raise(managerA);
    const fake = await upload(
      t,
      managerA,
      `/api/actions/${x.id}/attachments`,
      'photo.png',
      Buffer.from('#!/bin/sh\necho hi\n'),
      'image/png',
    );
    expect(fake.statusCode).toBe(415);
    expect(fake.json().fields.file).toBe(en('storage.wrongType'));
    const none = await call(t, managerA, 'POST', `/api/actions/${x.id}/attachments`, { file: 'no' });
    expect(none.statusCode).toBe(400);
    expect(none.json().fields.file).toBe(en('storage.noFile'));
    const detail = (await call(t, managerA, 'GET', `/api/actions/${x.id}`)).json() as ActionDetail;
    expect(detail.attachments).toEqual([]);
    expect(detail.history.map((h) => h.event)).toEqual(['action_create']);
  });

  it('counts attachments against the storage quota', async () => {
    const x = await raise(managerA);
    const used = await storageUsed(a.id);
    await t.deps.db.owner
      .update(organizations)
      .set({ storageQuotaBytes: used + 10 })
      .where(eq(organizations.id, a.id));
    try {
      const res = await upload(t, doerA, `/api/actions/${x.id}/attachments`, 'big.png', PNG, 'image/png');
      expect(res.statusCode).toBe(403);
      expect(res.json().code).toBe('memory_exhausted');
      expect(await storageUsed(a.id)).toBe(used);
    } finally {
      await t.deps.db.owner
        .update(organizations)
        .set({ storageQuotaBytes: 100 * 1024 * 1024 })
        .where(eq(organizations.id, a.id));
    }
  });
});

async function storageUsed(orgId: string): Promise<number> {
  const [row] = await t.deps.db.owner
    .select({ used: organizations.storageUsedBytes })
    .from(organizations)
    .where(eq(organizations.id, orgId));
  return row!.used;
}

describe('GET /api/actions/categories', () => {
  it('lists the active action categories of the organisation only, to anyone signed in', async () => {
    const res = await call(t, doerA, 'GET', '/api/actions/categories');
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().categories).toEqual([{ id: cat.corrective, name: 'Guarding', type: 'corrective' }]);
    expect((await call(t, adminB, 'GET', '/api/actions/categories')).json().categories).toEqual([]);
  });
});

describe('push request get_actions', () => {
  it('answers the asker’s unfinished actions by status', async () => {
    const claims = await t.deps.tokens.verify(doerA.token);
    const principal = await inTenant(t.deps.db.app, a.id, (tx) => loadPrincipal(tx, claims!.sub, claims!.sid));
    const answer = (await pushRequestHandlers(t.deps).get_actions(principal!)) as {
      open: number;
      in_progress: number;
      overdue: number;
      total: number;
    };
    const [expected] = await inTenant(t.deps.db.app, a.id, (tx) =>
      tx
        .select({ n: count() })
        .from(actions)
        .where(and(eq(actions.responsibleId, ids.doer), eq(actions.status, 'open'))),
    );
    expect(answer.open).toBe(Number(expected!.n));
    expect(answer.open).toBeGreaterThan(0);
    expect(answer.total).toBe(answer.open + answer.in_progress + answer.overdue);
  });
});

describe('history', () => {
  it('is recorded in the audit log of the organisation only', async () => {
    const x = await raise(managerA);
    const rows = await inTenant(t.deps.db.app, b.id, (tx) => tx.select().from(auditLog).where(eq(auditLog.entityId, x.id)));
    expect(rows).toEqual([]);
  });
});

describe('demo seed', () => {
  it('gives the demo organisation one action of its own per status, raised by the safety manager for the supervisor', async () => {
    expect(await seedDemo(t.deps.db.app)).toBe(true);
    const priya = await signIn(t, 'demo', 'priya.nair@demo.test', 'Demo#2026!');
    const list = (await call(t, priya, 'GET', '/api/actions/other_action_datas')).json() as ActionListResponse;
    expect(list.counts).toMatchObject({ all: 5, open: 1, in_progress: 1, overdue: 1, completed: 1, closed: 1 });
    expect(list.actions.every((x) => x.responsible?.full_name === 'Tomasz Kowalski' && x.created_by?.full_name === 'Priya Nair')).toBe(
      true,
    );
    const tomasz = await signIn(t, 'demo', 'tomasz.kowalski@demo.test', 'Demo#2026!');
    const open = list.actions.find((x) => x.status === 'open')!;
    const detail = await call(t, tomasz, 'GET', `/api/actions/${open.id}?actionable_type=other`);
    expect(detail.statusCode, detail.body).toBe(200);
    expect((detail.json() as ActionDetail).can.move_to).toEqual(['in_progress', 'completed']);
  });
});
