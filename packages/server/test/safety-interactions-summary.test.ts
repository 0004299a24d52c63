import type { SiDashboardResponse, SiResponse, SiScheduleListResponse, SiSummaryResponse } from '@bulwark/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inTenant } from '../src/platform/db/db.js';
import { siSchedules } from '../src/modules/safety-interactions/tables.js';
import { call, createOrg, createTestApp, signIn, type Session, type TestApp } from './helpers.js';
import { createSite, dayFromToday, en, fieldsOf, localAgo, memberWithObservationRights, type Org } from './safety-interactions-support.js';

let t: TestApp;
let org: Org;
let admin: Session;
let observer: { id: string; session: Session };
let north: string;
let south: string;
const TZ = 'Europe/London';

function body(overrides: Record<string, unknown>) {
  return {
    site_id: north,
    held_at: localAgo(TZ, 1),
    duration_minutes: 20,
    participants: [{ name: 'Crew lead' }],
    recognition_given: false,
    status: 'completed',
    topics: [],
    safe_behaviours: [],
    at_risk_behaviours: [],
    ...overrides,
  };
}

async function record(s: Session, overrides: Record<string, unknown>): Promise<SiResponse> {
  const res = await call(t, s, 'POST', '/api/safety_interactions', body(overrides));
  expect(res.statusCode, res.body).toBe(201);
  return res.json() as SiResponse;
}

async function plan(s: Session, siteId: string, date: string, observerId: string) {
  const res = await call(t, s, 'POST', '/api/safety_interactions/schedules', {
    observer_id: observerId,
    site_id: siteId,
    planned_date: date,
    note: 'Walk',
  });
  expect(res.statusCode, res.body).toBe(201);
  return (res.json() as { id: string }).id;
}

/** A plan dated in the past, which the API refuses to create: written straight into the table. */
async function pastPlan(siteId: string, date: string, observerId: string): Promise<string> {
  const [row] = await inTenant(t.deps.db.app, org.id, (tx) =>
    tx.insert(siSchedules).values({ observerId, siteId, plannedDate: date }).returning({ id: siSchedules.id }),
  );
  return row!.id;
}

async function statusOf(id: string) {
  const list = (
    await call(t, admin, 'GET', `/api/safety_interactions/schedules?from=${dayFromToday(TZ, -40)}&to=${dayFromToday(TZ, 40)}`)
  ).json() as SiScheduleListResponse;
  return list.schedules.find((s) => s.id === id)?.status;
}

beforeAll(async () => {
  t = await createTestApp();
  org = await createOrg(t, 'sisum');
  admin = await signIn(t, 'sisum', org.adminEmail);
  north = await createSite(t, admin, org.adminId, 'North Yard', TZ);
  south = await createSite(t, admin, org.adminId, 'South Yard', TZ);
  observer = await memberWithObservationRights(t, org, 'Leader', 'leader@sisum.test', 'Lee Leader', { add: true });
}, 90_000);

afterAll(async () => {
  await t?.close();
});

describe('plans: planned, done, missed (computed, never swept)', () => {
  it('a plan is planned until a completed interaction names it, missed once its date has passed', async () => {
    const upcoming = await plan(admin, north, dayFromToday(TZ, 3), observer.id);
    expect(await statusOf(upcoming)).toBe('planned');
    const missed = await pastPlan(north, dayFromToday(TZ, -3), observer.id);
    expect(await statusOf(missed)).toBe('missed');

    // A draft against a plan does not make it done; completing the interaction does.
    const today = await plan(admin, north, dayFromToday(TZ, 0), observer.id);
    const draft = await record(observer.session, { status: 'draft', schedule_id: today });
    expect(await statusOf(today)).toBe('planned');
    const completed = await call(
      t,
      observer.session,
      'PATCH',
      `/api/safety_interactions/${draft.id}`,
      body({ schedule_id: today, topics: ['ppe'] }),
    );
    expect(completed.statusCode, completed.body).toBe(200);
    expect(await statusOf(today)).toBe('done');
    const list = (await call(t, admin, 'GET', '/api/safety_interactions/schedules?status=done')).json() as SiScheduleListResponse;
    expect(list.schedules.map((s) => s.id)).toEqual([today]);
    expect(list.schedules[0]?.interaction).toEqual({ id: draft.id, serial: draft.serial });

    // One interaction per plan, of the plan's site.
    const second = await call(t, admin, 'POST', '/api/safety_interactions', body({ schedule_id: today, topics: ['ppe'] }));
    expect(fieldsOf(second)['schedule_id']).toBe(en('safetyInteractions.validation.scheduleTaken'));
    const otherSite = await call(
      t,
      admin,
      'POST',
      '/api/safety_interactions',
      body({ site_id: south, schedule_id: upcoming, topics: ['ppe'] }),
    );
    expect(fieldsOf(otherSite)['schedule_id']).toBe(en('safetyInteractions.validation.scheduleOtherSite'));

    // Deleting the plan keeps the interaction, no longer tied to a plan.
    expect((await call(t, admin, 'DELETE', `/api/safety_interactions/schedules/${today}`)).statusCode).toBe(200);
    const kept = (await call(t, admin, 'GET', `/api/safety_interactions/${draft.id}`)).json() as SiResponse;
    expect(kept.schedule).toBeNull();
  });

  it('validates a plan: date not before today at the site, an active observer and site', async () => {
    const cases: Array<[Record<string, unknown>, string, string]> = [
      [{ planned_date: dayFromToday(TZ, -1) }, 'planned_date', 'safetyInteractions.validation.plannedPast'],
      [{ planned_date: '2026-13-01' }, 'planned_date', 'safetyInteractions.validation.plannedDate'],
      [{ observer_id: 'nobody' }, 'observer_id', 'safetyInteractions.validation.observer'],
      [{ site_id: undefined }, 'site_id', 'safetyInteractions.validation.site'],
      [{ note: 'n'.repeat(501) }, 'note', 'validation.tooLong'],
    ];
    for (const [change, field, key] of cases) {
      const res = await call(t, admin, 'POST', '/api/safety_interactions/schedules', {
        observer_id: observer.id,
        site_id: north,
        planned_date: dayFromToday(TZ, 1),
        ...change,
      });
      expect(res.statusCode, res.body).toBe(400);
      expect(fieldsOf(res)[field]).toBe(en(key));
    }
    const reader = await signIn(t, 'sisum', org.userEmail);
    expect((await call(t, reader, 'POST', '/api/safety_interactions/schedules', {})).statusCode).toBe(403);
    expect(
      (
        await call(
          t,
          observer.session,
          'DELETE',
          `/api/safety_interactions/schedules/${await plan(admin, north, dayFromToday(TZ, 5), observer.id)}`,
        )
      ).statusCode,
    ).toBe(403);
  });
});

describe('summary and dashboard from known data', () => {
  it('counts completed interactions only, by topic, site and observer, with the safe share', async () => {
    const from = dayFromToday(TZ, -2);
    const to = dayFromToday(TZ, 0);
    const base = (await call(t, admin, 'GET', `/api/safety_interactions/summary?from=${from}&to=${to}`)).json() as SiSummaryResponse;

    await record(observer.session, {
      topics: ['ppe', 'line_of_fire'],
      recognition_given: true,
      safe_behaviours: [
        { topic: 'ppe', note: 'Glasses on' },
        { topic: 'ppe', note: 'Gloves on' },
      ],
      at_risk_behaviours: [{ topic: 'line_of_fire', note: 'Under the load' }],
    });
    await record(admin, {
      site_id: south,
      topics: ['line_of_fire', 'housekeeping'],
      safe_behaviours: [{ topic: 'housekeeping', note: 'Walkway clear' }],
      at_risk_behaviours: [
        { topic: 'line_of_fire', note: 'Behind the reversing truck' },
        { topic: 'housekeeping', note: 'Cables across the floor' },
      ],
    });
    // A draft is not counted.
    await record(admin, { status: 'draft', topics: ['ppe'], at_risk_behaviours: [{ topic: 'ppe', note: 'No helmet' }] });

    const s = (await call(t, admin, 'GET', `/api/safety_interactions/summary?from=${from}&to=${to}`)).json() as SiSummaryResponse;
    expect(s.totals.interactions - base.totals.interactions).toBe(2);
    expect(s.totals.safe - base.totals.safe).toBe(3);
    expect(s.totals.at_risk - base.totals.at_risk).toBe(3);
    expect(s.totals.recognition - base.totals.recognition).toBe(1);
    const topic = (x: SiSummaryResponse, name: string) => x.by_topic.find((r) => r.topic === name)!;
    expect(topic(s, 'line_of_fire')).toEqual({
      topic: 'line_of_fire',
      discussed: topic(base, 'line_of_fire').discussed + 2,
      safe: topic(base, 'line_of_fire').safe,
      at_risk: topic(base, 'line_of_fire').at_risk + 2,
    });
    expect(topic(s, 'housekeeping')).toMatchObject({ discussed: 1, safe: 1, at_risk: 1 });

    // South Yard holds only the second interaction: exact figures.
    const southOnly = (
      await call(t, admin, 'GET', `/api/safety_interactions/summary?from=${from}&to=${to}&site_id=${south}`)
    ).json() as SiSummaryResponse;
    expect(southOnly.totals).toMatchObject({ interactions: 1, safe: 1, at_risk: 2, recognition: 0 });
    expect(southOnly.totals.safe_share).toBeCloseTo(1 / 3);
    expect(southOnly.by_site).toEqual([{ site: { id: south, name: 'South Yard' }, interactions: 1, safe: 1, at_risk: 2 }]);
    expect(southOnly.by_observer).toEqual([
      { observer: { id: org.adminId, full_name: 'Admin' }, interactions: 1, recognition: 0, safe: 1, at_risk: 2 },
    ]);
    const lee = s.by_observer.find((o) => o.observer.id === observer.id)!;
    const leeBefore = base.by_observer.find((o) => o.observer.id === observer.id);
    expect(lee.interactions - (leeBefore?.interactions ?? 0)).toBe(1);
    expect(lee.safe - (leeBefore?.safe ?? 0)).toBe(2);

    // A period without data says so with zeros, not an error.
    const empty = (
      await call(t, admin, 'GET', '/api/safety_interactions/summary?from=2020-01-01&to=2020-01-31')
    ).json() as SiSummaryResponse;
    expect(empty.totals).toMatchObject({ interactions: 0, safe: 0, at_risk: 0, safe_share: null });

    const bad = await call(t, admin, 'GET', '/api/safety_interactions/summary?from=2020-01-01&to=2024-01-31');
    expect(fieldsOf(bad)['from']).toBe(en('safetyInteractions.validation.periodTooLong'));
  });

  it('the dashboard shows the month against the plan, the trend, the top at-risk topics and open agreed actions', async () => {
    const d = (await call(t, admin, 'GET', '/api/safety_interactions/dashboard')).json() as SiDashboardResponse;
    expect(d.trend).toHaveLength(6);
    expect(d.trend[5]!.month).toBe(d.month);
    const all = (
      await call(t, admin, 'GET', `/api/safety_interactions/summary?from=${d.trend[0]!.month}-01&to=${dayFromToday(TZ, 0)}`)
    ).json() as SiSummaryResponse;
    expect(d.trend.reduce((a, m) => a + m.at_risk, 0)).toBe(all.totals.at_risk);
    expect(d.trend.reduce((a, m) => a + m.interactions, 0)).toBe(all.totals.interactions);
    expect(d.top_at_risk_topics[0]).toEqual({ topic: 'line_of_fire', at_risk: 2 });

    const before = d.open_actions;
    await record(admin, {
      topics: ['ppe'],
      actions: [
        {
          description: 'Helmet check at the gate',
          control_type: 'administrative',
          responsible_id: observer.id,
          due_date: dayFromToday(TZ, 3),
        },
      ],
    });
    const after = (await call(t, admin, 'GET', '/api/safety_interactions/dashboard')).json() as SiDashboardResponse;
    expect(after.open_actions).toBe(before + 1);
    expect(after.done_this_month).toBe(d.done_this_month + (after.month === dayFromToday(TZ, 0).slice(0, 7) ? 1 : 0));
    expect(after.upcoming.every((p) => p.status === 'planned')).toBe(true);
  });
});
