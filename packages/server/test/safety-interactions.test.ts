import { siLocalDateTime, translate, type SiResponse } from '@bulwark/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readWorkbookRows } from '../src/platform/export/excel.js';
import { call, createOrg, createTestApp, signIn, type Session, type TestApp } from './helpers.js';
import {
  countRows,
  createDivision,
  createSite,
  dayFromToday,
  en,
  fieldsOf,
  localAgo,
  memberWithObservationRights,
  type Org,
} from './safety-interactions-support.js';

let t: TestApp;
let a: Org;
let b: Org;
let adminA: Session;
let readerA: Session;
let adminB: Session;
let writer: { id: string; session: Session };
let siteA: string;
let otherSiteA: string;
let areaA: string;
let areaOther: string;
let siteB: string;
const TZ = 'Asia/Tokyo';

function body(overrides: Record<string, unknown> = {}) {
  return {
    site_id: siteA,
    area_id: areaA,
    location: 'Bay 4',
    held_at: localAgo(TZ, 2),
    duration_minutes: 25,
    participants: [{ user_id: a.userId }, { name: 'Jon Price (contractor)' }],
    crew: 'Scaffold crew',
    topics: ['working_at_height', 'ppe'],
    safe_behaviours: [{ topic: 'ppe', note: 'Chin straps worn' }],
    at_risk_behaviours: [{ topic: 'working_at_height', note: 'Toe board missing' }],
    recognition_given: true,
    comment: 'Fixed before restart.',
    status: 'completed',
    ...overrides,
  };
}

const action = (overrides: Record<string, unknown> = {}) => ({
  description: 'Fit toe boards on every lift',
  control_type: 'engineering',
  responsible_id: a.adminId,
  due_date: dayFromToday(TZ, 7),
  ...overrides,
});

async function record(s: Session, overrides: Record<string, unknown> = {}): Promise<SiResponse> {
  const res = await call(t, s, 'POST', '/api/safety_interactions', body(overrides));
  expect(res.statusCode, res.body).toBe(201);
  return res.json() as SiResponse;
}

beforeAll(async () => {
  t = await createTestApp();
  a = await createOrg(t, 'sia');
  b = await createOrg(t, 'sib');
  adminA = await signIn(t, 'sia', a.adminEmail);
  readerA = await signIn(t, 'sia', a.userEmail);
  adminB = await signIn(t, 'sib', b.adminEmail);
  siteA = await createSite(t, adminA, a.adminId, 'Tokyo Works', TZ);
  otherSiteA = await createSite(t, adminA, a.adminId, 'Osaka Works', TZ);
  areaA = await createDivision(t, adminA, siteA, 'Assembly');
  areaOther = await createDivision(t, adminA, otherSiteA, 'Dock');
  siteB = await createSite(t, adminB, b.adminId, 'Other Works', TZ);
  writer = await memberWithObservationRights(t, a, 'SI writer', 'writer@sia.test', 'Wren Writer', { add: true });
}, 90_000);

afterAll(async () => {
  await t?.close();
});

describe('recording an interaction', () => {
  it('records who, where, when, topics, behaviours and an agreed action, with a per-organisation serial', async () => {
    const held = localAgo(TZ, 3);
    const si = await record(adminA, { held_at: held, actions: [action()] });
    expect(si).toMatchObject({
      serial: 1,
      status: 'completed',
      observer: { id: a.adminId, full_name: 'Admin' },
      site: { id: siteA, name: 'Tokyo Works', time_zone: TZ },
      area: { id: areaA, full_name: 'Tokyo Works / Assembly' },
      location: 'Bay 4',
      held_at: held,
      duration_minutes: 25,
      crew: 'Scaffold crew',
      topics: ['working_at_height', 'ppe'],
      participants: [
        { user: { id: a.userId, full_name: 'User' }, name: 'User' },
        { user: null, name: 'Jon Price (contractor)' },
      ],
      safe_behaviours: [{ topic: 'ppe', note: 'Chin straps worn' }],
      at_risk_behaviours: [{ topic: 'working_at_height', note: 'Toe board missing' }],
      recognition_given: true,
      comment: 'Fixed before restart.',
      can_edit: true,
      can_delete: true,
    });
    expect(si.actions).toHaveLength(1);
    expect(si.actions[0]).toMatchObject({
      description: 'Fit toe boards on every lift',
      status: 'open',
      source_type: 'safety_interaction',
      source_id: si.id,
    });
    const again = await call(t, adminA, 'GET', `/api/safety_interactions/${si.id}`);
    expect(again.json()).toEqual(si);
    // The list names the same area and local time (its own read of the page's areas only).
    const listed = (await call(t, adminA, 'GET', '/api/safety_interactions')).json() as { safety_interactions: { id: string }[] };
    expect(listed.safety_interactions.find((x) => x.id === si.id)).toMatchObject({
      area: { id: areaA, full_name: 'Tokyo Works / Assembly' },
      held_at: held,
      safe_count: 1,
      at_risk_count: 1,
    });
    // Serials count per organisation: the other organisation starts at 1 too.
    const first = await call(
      t,
      adminB,
      'POST',
      '/api/safety_interactions',
      body({ site_id: siteB, area_id: null, participants: [{ user_id: b.userId }] }),
    );
    expect(first.statusCode, first.body).toBe(201);
    expect((first.json() as SiResponse).serial).toBe(1);
    expect((await record(adminA)).serial).toBe(2);
  });

  it('a draft may leave out people and topics; the observer is the signed-in user unless named', async () => {
    const draft = await record(writer.session, {
      status: 'draft',
      participants: [],
      crew: null,
      topics: [],
      safe_behaviours: [],
      at_risk_behaviours: [],
    });
    expect(draft).toMatchObject({ status: 'draft', observer: { id: writer.id }, participants: [], topics: [] });
    const onBehalf = await record(adminA, { observer_id: writer.id });
    expect(onBehalf.observer?.id).toBe(writer.id);
  });

  it('agreed actions appear in the safety-interaction action list and on the record', async () => {
    const si = await record(adminA, { actions: [action({ description: 'Repaint the crossing' })] });
    const list = await call(t, adminA, 'GET', '/api/actions/si_observation_action_datas?per_page=200');
    expect(list.statusCode, list.body).toBe(200);
    const found = (
      list.json() as { actions: Array<{ description: string; source: { type: string; id: string; serial: number } }> }
    ).actions.find((x) => x.description === 'Repaint the crossing');
    expect(found?.source).toMatchObject({ type: 'safety_interaction', id: si.id, serial: si.serial });
    // Adding one on an edit keeps the first.
    const edit = await call(
      t,
      adminA,
      'PATCH',
      `/api/safety_interactions/${si.id}`,
      body({ actions: [action({ description: 'Brief the night shift' })] }),
    );
    expect(edit.statusCode, edit.body).toBe(200);
    expect((edit.json() as SiResponse).actions.map((x) => x.description)).toEqual(['Repaint the crossing', 'Brief the night shift']);
  });
});

describe('validation: every field, translated, nothing written', () => {
  const cases: Array<[string, () => Record<string, unknown>, string, string]> = [
    ['site missing', () => ({ site_id: undefined }), 'site_id', 'safetyInteractions.validation.site'],
    ['site of another organisation', () => ({ site_id: siteB, area_id: null }), 'site_id', 'safetyInteractions.validation.siteUnknown'],
    ['area of another site', () => ({ area_id: areaOther }), 'area_id', 'safetyInteractions.validation.area'],
    ['area not an id', () => ({ area_id: 'north' }), 'area_id', 'safetyInteractions.validation.area'],
    ['location too long', () => ({ location: 'x'.repeat(201) }), 'location', 'validation.tooLong'],
    ['date-time missing', () => ({ held_at: '' }), 'held_at', 'safetyInteractions.validation.heldAt'],
    ['date-time malformed', () => ({ held_at: '2026-02-30T10:00' }), 'held_at', 'safetyInteractions.validation.heldAt'],
    ['date-time in the future at the site', () => ({ held_at: localAgo(TZ, -2) }), 'held_at', 'safetyInteractions.validation.heldInFuture'],
    ['duration zero', () => ({ duration_minutes: 0 }), 'duration_minutes', 'safetyInteractions.validation.duration'],
    ['duration above 8 hours', () => ({ duration_minutes: 481 }), 'duration_minutes', 'safetyInteractions.validation.duration'],
    ['duration not a number', () => ({ duration_minutes: 'long' }), 'duration_minutes', 'safetyInteractions.validation.duration'],
    ['observer of another organisation', () => ({ observer_id: b.adminId }), 'observer_id', 'safetyInteractions.validation.userUnknown'],
    [
      'participant both member and name',
      () => ({ participants: [{ user_id: a.userId, name: 'Someone' }] }),
      'participants.0',
      'safetyInteractions.validation.participant',
    ],
    [
      'participant neither member nor name',
      () => ({ participants: [{ name: ' ' }] }),
      'participants.0',
      'safetyInteractions.validation.participant',
    ],
    [
      'participant of another organisation',
      () => ({ participants: [{ user_id: b.userId }] }),
      'participants.0.user_id',
      'safetyInteractions.validation.userUnknown',
    ],
    [
      'participant listed twice',
      () => ({ participants: [{ user_id: a.userId }, { user_id: a.userId }] }),
      'participants',
      'safetyInteractions.validation.participantTwice',
    ],
    [
      'completed without people or crew',
      () => ({ participants: [], crew: '' }),
      'participants',
      'safetyInteractions.validation.whoRequired',
    ],
    ['crew too long', () => ({ crew: 'c'.repeat(201) }), 'crew', 'validation.tooLong'],
    [
      'completed without topics',
      () => ({ topics: [], safe_behaviours: [], at_risk_behaviours: [] }),
      'topics',
      'safetyInteractions.validation.topicsRequired',
    ],
    ['unknown topic', () => ({ topics: ['gossip'] }), 'topics.0', 'safetyInteractions.validation.topic'],
    ['topic twice', () => ({ topics: ['ppe', 'ppe', 'working_at_height'] }), 'topics', 'safetyInteractions.validation.topicTwice'],
    [
      'behaviour under a topic not discussed',
      () => ({ safe_behaviours: [{ topic: 'housekeeping', note: 'Tidy' }] }),
      'safe_behaviours.0.topic',
      'safetyInteractions.validation.topicNotDiscussed',
    ],
    [
      'behaviour without a note',
      () => ({ at_risk_behaviours: [{ topic: 'ppe', note: ' ' }] }),
      'at_risk_behaviours.0.note',
      'validation.required',
    ],
    [
      'behaviour note too long',
      () => ({ at_risk_behaviours: [{ topic: 'ppe', note: 'n'.repeat(501) }] }),
      'at_risk_behaviours.0.note',
      'validation.tooLong',
    ],
    ['recognition missing', () => ({ recognition_given: undefined }), 'recognition_given', 'safetyInteractions.validation.recognition'],
    ['comment too long', () => ({ comment: 'c'.repeat(2001) }), 'comment', 'validation.tooLong'],
    ['status unknown', () => ({ status: 'closed' }), 'status', 'safetyInteractions.validation.status'],
    [
      'plan unknown',
      () => ({ schedule_id: '01900000-0000-7000-8000-000000000000' }),
      'schedule_id',
      'safetyInteractions.validation.scheduleUnknown',
    ],
    ['action without description', () => ({ actions: [action({ description: '' })] }), 'actions.0.description', 'validation.required'],
    [
      'action responsible of another organisation',
      () => ({ actions: [action({ responsible_id: b.adminId })] }),
      'actions.0.responsible_id',
      'actions.validation.responsibleUnknown',
    ],
    [
      'action due in the past',
      () => ({ actions: [action({ due_date: dayFromToday(TZ, -1) })] }),
      'actions.0.due_date',
      'actions.validation.dueDatePast',
    ],
  ];

  it.each(cases)('%s: 400 with the field message', async (_label, change, field, key) => {
    const before = await Promise.all([
      countRows(t, a.id, 'safety_interactions'),
      countRows(t, a.id, 'si_behaviours'),
      countRows(t, a.id, 'actions'),
    ]);
    const res = await call(t, adminA, 'POST', '/api/safety_interactions', body(change()));
    expect(res.statusCode, res.body).toBe(400);
    expect((res.json() as { code: string }).code).toBe('validation_failed');
    expect(fieldsOf(res)[field], res.body).toBe(en(key));
    const after = await Promise.all([
      countRows(t, a.id, 'safety_interactions'),
      countRows(t, a.id, 'si_behaviours'),
      countRows(t, a.id, 'actions'),
    ]);
    expect(after).toEqual(before);
  });

  it('answers in the caller’s language', async () => {
    const res = await call(t, adminA, 'POST', '/api/safety_interactions', body({ duration_minutes: 0 }), { 'accept-language': 'tr' });
    expect(fieldsOf(res)['duration_minutes']).toBe(translate('tr', 'safetyInteractions.validation.duration'));
  });

  it('the same rules hold on an edit, and a completed interaction stays completed', async () => {
    const si = await record(adminA);
    const future = await call(t, adminA, 'PATCH', `/api/safety_interactions/${si.id}`, body({ held_at: localAgo(TZ, -5) }));
    expect(fieldsOf(future)['held_at']).toBe(en('safetyInteractions.validation.heldInFuture'));
    const back = await call(t, adminA, 'PATCH', `/api/safety_interactions/${si.id}`, body({ status: 'draft' }));
    expect(fieldsOf(back)['status']).toBe(en('safetyInteractions.validation.backToDraft'));
    const unchanged = await call(t, adminA, 'GET', `/api/safety_interactions/${si.id}`);
    expect(unchanged.json()).toEqual(si);
  });
});

describe('rights', () => {
  it('a member who reads observations reads interactions but cannot write them (403 before any field error)', async () => {
    const si = await record(adminA);
    expect((await call(t, readerA, 'GET', '/api/safety_interactions')).statusCode).toBe(200);
    const one = await call(t, readerA, 'GET', `/api/safety_interactions/${si.id}`);
    expect(one.statusCode).toBe(200);
    expect(one.json()).toMatchObject({ can_edit: false, can_delete: false });
    expect((await call(t, readerA, 'POST', '/api/safety_interactions', { nonsense: true })).statusCode).toBe(403);
    expect((await call(t, readerA, 'PATCH', `/api/safety_interactions/${si.id}`, { nonsense: true })).statusCode).toBe(403);
    expect((await call(t, readerA, 'DELETE', `/api/safety_interactions/${si.id}`)).statusCode).toBe(403);
    expect((await call(t, readerA, 'POST', '/api/safety_interactions/schedules', {})).statusCode).toBe(403);
  });

  it('an observer with Observation create edits their own interactions only, and cannot delete', async () => {
    const mine = await record(writer.session, { participants: [{ user_id: a.userId }] });
    const edit = await call(t, writer.session, 'PATCH', `/api/safety_interactions/${mine.id}`, body({ comment: 'Corrected' }));
    expect(edit.statusCode, edit.body).toBe(200);
    expect((edit.json() as SiResponse).comment).toBe('Corrected');
    const theirs = await record(adminA);
    const refused = await call(t, writer.session, 'PATCH', `/api/safety_interactions/${theirs.id}`, body({ comment: 'Mine now' }));
    expect(refused.statusCode).toBe(403);
    expect((await call(t, writer.session, 'GET', `/api/safety_interactions/${theirs.id}`)).json()).toMatchObject({
      can_edit: false,
      comment: 'Fixed before restart.',
    });
    expect((await call(t, writer.session, 'DELETE', `/api/safety_interactions/${mine.id}`)).statusCode).toBe(403);
  });

  it('deletes an interaction without agreed actions; one with actions is kept (409)', async () => {
    const plain = await record(adminA);
    const gone = await call(t, adminA, 'DELETE', `/api/safety_interactions/${plain.id}`);
    expect(gone.statusCode).toBe(200);
    expect((await call(t, adminA, 'GET', `/api/safety_interactions/${plain.id}`)).statusCode).toBe(404);
    const withAction = await record(adminA, { actions: [action()] });
    const kept = await call(t, adminA, 'DELETE', `/api/safety_interactions/${withAction.id}`);
    expect(kept.statusCode).toBe(409);
    expect((kept.json() as { errors: string[] }).errors[0]).toBe(en('safetyInteractions.validation.hasActions'));
  });
});

describe('tenant isolation through every call', () => {
  it('another organisation’s interaction and plan are not found, and never counted', async () => {
    const si = await record(adminA, { actions: [action()] });
    const plan = await call(t, adminA, 'POST', '/api/safety_interactions/schedules', {
      observer_id: a.adminId,
      site_id: siteA,
      planned_date: dayFromToday(TZ, 2),
    });
    expect(plan.statusCode, plan.body).toBe(201);
    const planId = (plan.json() as { id: string }).id;

    expect((await call(t, adminB, 'GET', `/api/safety_interactions/${si.id}`)).statusCode).toBe(404);
    expect(
      (
        await call(
          t,
          adminB,
          'PATCH',
          `/api/safety_interactions/${si.id}`,
          body({ site_id: siteB, area_id: null, participants: [{ user_id: b.userId }] }),
        )
      ).statusCode,
    ).toBe(404);
    expect((await call(t, adminB, 'DELETE', `/api/safety_interactions/${si.id}`)).statusCode).toBe(404);
    expect(
      (
        await call(t, adminB, 'PATCH', `/api/safety_interactions/schedules/${planId}`, {
          observer_id: b.adminId,
          site_id: siteB,
          planned_date: dayFromToday(TZ, 3),
        })
      ).statusCode,
    ).toBe(404);
    expect((await call(t, adminB, 'DELETE', `/api/safety_interactions/schedules/${planId}`)).statusCode).toBe(404);
    const usePlan = await call(
      t,
      adminB,
      'POST',
      '/api/safety_interactions',
      body({ site_id: siteB, area_id: null, participants: [{ user_id: b.userId }], schedule_id: planId }),
    );
    expect(fieldsOf(usePlan)['schedule_id']).toBe(en('safetyInteractions.validation.scheduleUnknown'));

    const list = (await call(t, adminB, 'GET', '/api/safety_interactions?per_page=200')).json() as {
      safety_interactions: Array<{ id: string; site: { id: string } }>;
    };
    expect(list.safety_interactions.every((x) => x.site.id === siteB)).toBe(true);
    const search = (await call(t, adminB, 'GET', `/api/safety_interactions?search=Tokyo`)).json() as { pagination: { total: number } };
    expect(search.pagination.total).toBe(0);
    const plans = (await call(t, adminB, 'GET', '/api/safety_interactions/schedules')).json() as { schedules: unknown[] };
    expect(plans.schedules).toEqual([]);
    const today = siLocalDateTime(TZ).slice(0, 10);
    const sum = (
      await call(t, adminB, 'GET', `/api/safety_interactions/summary?from=${dayFromToday(TZ, -30)}&to=${today}&site_id=${siteA}`)
    ).json() as { totals: { interactions: number } };
    expect(sum.totals.interactions).toBe(0);
    const dash = (await call(t, adminB, 'GET', '/api/safety_interactions/dashboard')).json() as {
      open_actions: number;
      planned_this_month: number;
    };
    expect(dash.open_actions).toBe(0);
    const options = (await call(t, adminB, 'GET', '/api/safety_interactions/options')).json() as { sites: Array<{ id: string }> };
    expect(options.sites.map((s) => s.id)).toEqual([siteB]);
    const people = (await call(t, adminB, 'GET', '/api/safety_interactions/people?search=Admin')).json() as {
      users: Array<{ id: string }>;
    };
    expect(people.users.map((u) => u.id)).toEqual([b.adminId]);
  });
});

describe('list', () => {
  it('filters by site, observer, topic, status, period and keyword, pages, and exports exactly the filtered rows', async () => {
    const osaka = await record(adminA, {
      site_id: otherSiteA,
      area_id: null,
      topics: ['housekeeping'],
      safe_behaviours: [],
      at_risk_behaviours: [{ topic: 'housekeeping', note: 'Pallet wrap on the walkway' }],
      held_at: localAgo(TZ, 30 * 24),
    });
    const bySite = (await call(t, adminA, 'GET', `/api/safety_interactions?site_id=${otherSiteA}`)).json() as {
      safety_interactions: Array<{ id: string; at_risk_count: number; people: string[] }>;
    };
    expect(bySite.safety_interactions.map((x) => x.id)).toEqual([osaka.id]);
    expect(bySite.safety_interactions[0]).toMatchObject({ at_risk_count: 1, people: ['User', 'Jon Price (contractor)'] });
    const byTopic = (await call(t, adminA, 'GET', '/api/safety_interactions?topic=housekeeping')).json() as {
      safety_interactions: Array<{ id: string }>;
    };
    expect(byTopic.safety_interactions.map((x) => x.id)).toEqual([osaka.id]);
    const byNote = (await call(t, adminA, 'GET', '/api/safety_interactions?search=pallet%20wrap')).json() as {
      safety_interactions: Array<{ id: string }>;
    };
    expect(byNote.safety_interactions.map((x) => x.id)).toEqual([osaka.id]);
    const bySerial = (
      await call(t, adminA, 'GET', `/api/safety_interactions?search=SI-${String(osaka.serial).padStart(6, '0')}`)
    ).json() as { safety_interactions: Array<{ id: string }> };
    expect(bySerial.safety_interactions.map((x) => x.id)).toEqual([osaka.id]);
    const recent = (await call(t, adminA, 'GET', `/api/safety_interactions?from=${dayFromToday(TZ, -7)}`)).json() as {
      safety_interactions: Array<{ id: string }>;
    };
    expect(recent.safety_interactions.map((x) => x.id)).not.toContain(osaka.id);
    const byObserver = (await call(t, adminA, 'GET', `/api/safety_interactions?observer_id=${writer.id}&status=draft`)).json() as {
      safety_interactions: Array<{ observer: { id: string }; status: string }>;
    };
    expect(byObserver.safety_interactions.length).toBeGreaterThan(0);
    expect(byObserver.safety_interactions.every((x) => x.observer.id === writer.id && x.status === 'draft')).toBe(true);

    const page = (await call(t, adminA, 'GET', '/api/safety_interactions?per_page=2&page=2')).json() as {
      safety_interactions: unknown[];
      pagination: { page: number; total: number; total_pages: number };
    };
    expect(page.safety_interactions).toHaveLength(2);
    expect(page.pagination.total_pages).toBe(Math.ceil(page.pagination.total / 2));

    const xl = await call(t, adminA, 'GET', '/api/safety_interactions?topic=housekeeping&export_to_excel=true', undefined, {
      'accept-language': 'es',
    });
    expect(xl.statusCode).toBe(200);
    const { headers, rows } = await readWorkbookRows(xl.rawPayload);
    expect(headers[0]).toBe(translate('es', 'safetyInteractions.fields.serial'));
    expect(rows.map((r) => r.values[headers[0]!])).toEqual([`SI-${String(osaka.serial).padStart(6, '0')}`]);
  });

  it('refuses a bad filter with a translated field error', async () => {
    const res = await call(t, adminA, 'GET', '/api/safety_interactions?from=2026-05-01&to=2026-04-01');
    expect(res.statusCode).toBe(400);
    expect(fieldsOf(res)['to']).toBe(en('safetyInteractions.validation.dateRange'));
    const topic = await call(t, adminA, 'GET', '/api/safety_interactions?topic=gossip');
    expect(fieldsOf(topic)['topic']).toBe(en('safetyInteractions.validation.topic'));
  });
});
