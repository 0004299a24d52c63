import type { HomeContacts, HomeResponse } from '@bulwark/domain';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { actions } from '../src/modules/actions/tables.js';
import { inTenant } from '../src/platform/db/db.js';
import { call, createOrg, createTestApp, signIn, type Session, type TestApp } from './helpers.js';
import { setUpOrganisation, siteDate, type Fixture } from './observations-support.js';

let t: TestApp;
let a: Awaited<ReturnType<typeof createOrg>>;
let b: Awaited<ReturnType<typeof createOrg>>;
let fa: Fixture;
let fb: Fixture;
const s = {} as Record<'adminA' | 'supervisorA' | 'reporterA' | 'nobodyA' | 'adminB', Session>;

const home = async (session: Session): Promise<HomeResponse> => {
  const res = await call(t, session, 'GET', '/api/home');
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as HomeResponse;
};

function observation(f: Fixture, month: string, over: Record<string, unknown> = {}) {
  return {
    type: 'unsafe_condition',
    category_id: f.housekeeping,
    description: 'Pallets stacked in front of the fire exit',
    site_id: f.tokyo,
    // The first minutes of the month at a site ahead of UTC: inside the organisation's month, never in the future.
    observed_at: `${month}-01T00:05`,
    risk_level: 'high',
    action_required: false,
    comment: 'Moved them.',
    anonymous: false,
    attachment_ids: [],
    actions: [],
    ...over,
  };
}

async function raiseAction(by: Session, f: Fixture, responsible: string, dueInDays: number, description: string) {
  const res = await call(t, by, 'POST', '/api/actions/', {
    description,
    control_type: 'engineering',
    responsible_id: responsible,
    due_date: siteDate('Asia/Tokyo', dueInDays),
    site_id: f.tokyo,
  });
  expect(res.statusCode, res.body).toBe(201);
  return (res.json() as { id: string }).id;
}

beforeAll(async () => {
  t = await createTestApp();
  a = await createOrg(t, 'homea');
  b = await createOrg(t, 'homeb');
  fa = await setUpOrganisation(t, a.id, 'homea');
  fb = await setUpOrganisation(t, b.id, 'homeb');
  s.adminA = await signIn(t, 'homea', a.adminEmail);
  s.supervisorA = await signIn(t, 'homea', 'supervisor@homea.test');
  s.reporterA = await signIn(t, 'homea', 'reporter@homea.test');
  s.nobodyA = await signIn(t, 'homea', 'nobody@homea.test');
  s.adminB = await signIn(t, 'homeb', b.adminEmail);
}, 120_000);

afterAll(async () => {
  await t?.close();
});

describe('GET /api/home (issue 15: the first screen)', () => {
  it('starts empty for a newcomer, with this month counted in the organisation’s time zone', async () => {
    const h = await home(s.reporterA);
    expect(h.today).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(h.my_actions).toEqual({ open: 0, in_progress: 0, overdue: 0, total: 0, items: [] });
    expect(h.my_reports).toEqual([]);
    expect(h.my_reviews).toEqual([]);
    expect(h.open_observations_by_risk).toEqual({
      month: h.today.slice(0, 7),
      total: 0,
      by_risk: { low: 0, medium: 0, high: 0, critical: 0 },
    });
  });

  it('shows my unfinished actions, overdue first, and what I reported with its status', async () => {
    const month = (await home(s.reporterA)).today.slice(0, 7);
    const later = await raiseAction(s.adminA, fa, fa.reporter, 9, 'Fit a ramp cover at door 3');
    const sooner = await raiseAction(s.adminA, fa, fa.reporter, 2, 'Mark the walkway');
    const late = await raiseAction(s.adminA, fa, fa.reporter, 20, 'Replace the broken light');
    await raiseAction(s.adminA, fa, fa.supervisor, 1, 'Somebody else’s action');
    // As if the sweep had found it overdue.
    await inTenant(t.deps.db.app, a.id, (tx) => tx.update(actions).set({ status: 'overdue' }).where(eq(actions.id, late)));

    const mine = await call(t, s.reporterA, 'POST', '/api/observations', observation(fa, month));
    expect(mine.statusCode, mine.body).toBe(201);
    const reported = mine.json() as { id: string; serial_label: string };
    const low = await call(t, s.supervisorA, 'POST', '/api/observations', observation(fa, month, { risk_level: 'low' }));
    expect(low.statusCode, low.body).toBe(201);

    const h = await home(s.reporterA);
    expect(h.my_actions).toMatchObject({ open: 2, in_progress: 0, overdue: 1, total: 3 });
    expect(h.my_actions.items.map((i) => i.id)).toEqual([late, sooner, later]);
    expect(h.my_actions.items[0]).toMatchObject({ status: 'overdue', site_name: 'Tokyo Works', path: `/actions/summary/${late}` });
    expect(h.my_reports).toEqual([
      expect.objectContaining({
        id: reported.id,
        serial_label: reported.serial_label,
        status: 'open',
        path: `/observations/summary/${reported.id}`,
      }),
    ]);
    // The organisation's open observations of the month: mine and the supervisor's.
    expect(h.open_observations_by_risk).toMatchObject({ total: 2, by_risk: { high: 1, low: 1, medium: 0, critical: 0 } });
  });

  it('leaves out the organisation’s observations for someone who may not read them', async () => {
    const h = await home(s.nobodyA);
    expect(h.open_observations_by_risk).toBeNull();
    expect(h.my_actions.total).toBe(0);
  });

  it('shows nothing of another organisation', async () => {
    const h = await home(s.adminB);
    expect(h.my_actions.total).toBe(0);
    expect(h.my_reports).toEqual([]);
    expect(h.open_observations_by_risk?.total).toBe(0);
    expect(fb.tokyo).not.toBe(fa.tokyo);
  });

  it('needs a session', async () => {
    const res = await call(t, null, 'GET', '/api/home', undefined, { 'x-tenant': 'homea' });
    expect(res.statusCode).toBe(401);
  });
});

describe('GET /api/home/contacts (whom the no-permission page names)', () => {
  it('names the organisation’s active administrators, and only its own', async () => {
    const res = await call(t, s.nobodyA, 'GET', '/api/home/contacts');
    expect(res.statusCode, res.body).toBe(200);
    const { administrators } = res.json() as HomeContacts;
    expect(administrators.map((x) => x.email)).toEqual([a.adminEmail]);
  });
});
