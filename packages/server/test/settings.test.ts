import { KPI_DEFAULTS, MAILER_SCENARIO_IDS } from '@bulwark/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ehsOcps, kpiSettings } from '../src/modules/settings/tables.js';
import { sites } from '../src/modules/sites/tables.js';
import { inTenant } from '../src/platform/db/db.js';
import { call, createOrg, createTestApp, signIn, type Session, type TestApp } from './helpers.js';

let t: TestApp;
let a: Awaited<ReturnType<typeof createOrg>>;
let b: Awaited<ReturnType<typeof createOrg>>;
let adminA: Session;
let userA: Session;
let adminB: Session;
let siteA: string;
let siteA2: string;
let siteB: string;

async function addSite(orgId: string, name: string): Promise<string> {
  const [row] = await inTenant(t.deps.db.app, orgId, (tx) =>
    tx
      .insert(sites)
      .values({
        name,
        timeZone: 'UTC',
        emergencyPhone: '+14155550100',
        address: '1 Main St',
        city: 'Springfield',
        state: 'IL',
        country: 'US',
        zip: '62701',
      })
      .returning({ id: sites.id }),
  );
  return row!.id;
}

beforeAll(async () => {
  t = await createTestApp();
  a = await createOrg(t, 'setalpha');
  b = await createOrg(t, 'setbravo');
  adminA = await signIn(t, a.subDomain, a.adminEmail);
  userA = await signIn(t, a.subDomain, a.userEmail);
  adminB = await signIn(t, b.subDomain, b.adminEmail);
  siteA = await addSite(a.id, 'North Plant');
  siteA2 = await addSite(a.id, 'Harbour Depot');
  siteB = await addSite(b.id, 'Bravo Works');
});
afterAll(() => t.close());

const kpi = {
  ltifr_target: 0.5,
  observations_per_employee_month: 2,
  critical_closure_rate_target: 100,
  serious_closure_rate_target: 85,
  training_hours_per_employee: 24,
};

describe('KPI settings', () => {
  it('answers the defaults for a year without saved targets', async () => {
    const res = await call(t, adminA, 'GET', '/api/kpi_settings?year=2026');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ year: 2026, is_default: true, updated_at: null, ...KPI_DEFAULTS });
  });

  it.each([
    [{ critical_closure_rate_target: 120 }, 'critical_closure_rate_target', 'Enter a percentage between 0 and 100.'],
    [{ serious_closure_rate_target: -1 }, 'serious_closure_rate_target', 'Enter a percentage between 0 and 100.'],
    [{ ltifr_target: -0.1 }, 'ltifr_target', 'Enter a number of zero or more.'],
    [{ observations_per_employee_month: 5000 }, 'observations_per_employee_month', 'This number is too large.'],
    [{ training_hours_per_employee: 'ten' }, 'training_hours_per_employee', 'This field is required.'],
    [{ training_hours_per_employee: undefined }, 'training_hours_per_employee', 'This field is required.'],
  ])("refuses %j with the field's message and writes nothing", async (change, field, text) => {
    const res = await call(t, adminA, 'PUT', '/api/kpi_settings?year=2026', { ...kpi, ...change });
    expect(res.statusCode).toBe(400);
    expect((res.json() as { fields: Record<string, string> }).fields[field]).toBe(text);
    expect(await inTenant(t.deps.db.app, a.id, (tx) => tx.select().from(kpiSettings))).toEqual([]);
  });

  it('refuses a year outside 2000-2100 or missing', async () => {
    for (const q of ['year=1999', 'year=2101', 'year=abc', '']) {
      const res = await call(t, adminA, 'GET', `/api/kpi_settings?${q}`);
      expect(res.statusCode, q).toBe(400);
    }
    const es = await call(t, adminA, 'GET', '/api/kpi_settings?year=1999', undefined, { 'accept-language': 'es' });
    expect((es.json() as { fields: Record<string, string> }).fields['year']).toBe('Elija un año entre 2000 y 2100.');
  });

  it("saves a year's targets, updates them, and keeps years apart", async () => {
    const res = await call(t, adminA, 'PUT', '/api/kpi_settings?year=2026', kpi);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ year: 2026, is_default: false, ...kpi });
    await call(t, adminA, 'PUT', '/api/kpi_settings?year=2026', { ...kpi, serious_closure_rate_target: 92.5 });
    expect((await call(t, adminA, 'GET', '/api/kpi_settings?year=2026')).json()).toMatchObject({
      serious_closure_rate_target: 92.5,
      ltifr_target: 0.5,
    });
    expect((await call(t, adminA, 'GET', '/api/kpi_settings?year=2025')).json()).toMatchObject({ is_default: true });
    expect(await inTenant(t.deps.db.app, a.id, (tx) => tx.select().from(kpiSettings))).toHaveLength(1);
  });

  it('is admin only and per organisation', async () => {
    expect((await call(t, userA, 'GET', '/api/kpi_settings?year=2026')).statusCode).toBe(403);
    expect((await call(t, userA, 'PUT', '/api/kpi_settings?year=2026', kpi)).statusCode).toBe(403);
    expect((await call(t, adminB, 'GET', '/api/kpi_settings?year=2026')).json()).toMatchObject({ is_default: true, ...KPI_DEFAULTS });
  });
});

type Ocp = { id: string; code: string; title: string; description: string; active: boolean; sites: Array<{ id: string; name: string }> };

describe('EHS OCP', () => {
  let ocp: Ocp;

  it('adds a procedure with its sites', async () => {
    const res = await call(t, adminA, 'POST', '/api/v2/ehs_ocps', {
      code: 'OCP-01',
      title: 'Hot work control',
      description: 'Permits and fire watch',
      site_ids: [siteA, siteA2, siteA],
    });
    expect(res.statusCode).toBe(201);
    ocp = res.json() as Ocp;
    expect(ocp).toMatchObject({ code: 'OCP-01', title: 'Hot work control', active: true });
    expect(ocp.sites.map((s) => s.name)).toEqual(['Harbour Depot', 'North Plant']);
  });

  it.each([
    [{ code: '' }, 'code', 'This field is required.'],
    [{ code: '-bad' }, 'code', 'Use letters, digits and . _ / - only, starting with a letter or digit.'],
    [{ code: 'X'.repeat(31) }, 'code', 'This is too long.'],
    [{ title: '   ' }, 'title', 'This field is required.'],
    [{ site_ids: ['not-a-uuid'] }, 'site_ids.0', 'This value is not valid.'],
  ])('refuses %j', async (change, field, text) => {
    const res = await call(t, adminA, 'POST', '/api/v2/ehs_ocps', { code: 'OCP-09', title: 'T', ...change });
    expect(res.statusCode).toBe(400);
    expect((res.json() as { fields: Record<string, string> }).fields[field]).toBe(text);
  });

  it("refuses a code already used (any case) and another organisation's site, writing nothing", async () => {
    const dup = await call(t, adminA, 'POST', '/api/v2/ehs_ocps', { code: 'ocp-01', title: 'Other' });
    expect(dup.statusCode).toBe(409);
    expect((dup.json() as { fields: Record<string, string> }).fields['code']).toBe('Another procedure already uses this code.');
    const foreign = await call(t, adminA, 'POST', '/api/v2/ehs_ocps', { code: 'OCP-02', title: 'Other', site_ids: [siteB] });
    expect(foreign.statusCode).toBe(400);
    expect((foreign.json() as { fields: Record<string, string> }).fields['site_ids']).toBe('One of the chosen sites does not exist.');
    expect(await inTenant(t.deps.db.app, a.id, (tx) => tx.select().from(ehsOcps))).toHaveLength(1);
  });

  it('lists by code with search and active filter; every signed-in user may read', async () => {
    await call(t, adminA, 'POST', '/api/v2/ehs_ocps', { code: 'OCP-03', title: 'Confined space entry' });
    const all = await call(t, userA, 'GET', '/api/v2/ehs_ocps');
    expect(all.statusCode).toBe(200);
    const body = all.json() as { ehs_ocps: Ocp[]; pagination: { total: number } };
    expect(body.ehs_ocps.map((o) => o.code)).toEqual(['OCP-01', 'OCP-03']);
    expect(body.pagination.total).toBe(2);
    const found = (await call(t, userA, 'GET', '/api/v2/ehs_ocps?search=confined')).json() as { ehs_ocps: Ocp[] };
    expect(found.ehs_ocps.map((o) => o.code)).toEqual(['OCP-03']);
    const literal = (await call(t, userA, 'GET', '/api/v2/ehs_ocps?search=%25')).json() as { ehs_ocps: Ocp[] };
    expect(literal.ehs_ocps).toEqual([]);
  });

  it('changes and deactivates a procedure (admin only)', async () => {
    expect((await call(t, userA, 'PATCH', `/api/v2/ehs_ocps/${ocp.id}`, { active: false })).statusCode).toBe(403);
    expect((await call(t, userA, 'POST', '/api/v2/ehs_ocps', { code: 'OCP-04', title: 'X' })).statusCode).toBe(403);
    const res = await call(t, adminA, 'PATCH', `/api/v2/ehs_ocps/${ocp.id}`, { active: false, site_ids: [siteA], title: 'Hot work' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ active: false, title: 'Hot work', code: 'OCP-01', sites: [{ id: siteA, name: 'North Plant' }] });
    const active = (await call(t, adminA, 'GET', '/api/v2/ehs_ocps?active=true')).json() as { ehs_ocps: Ocp[] };
    expect(active.ehs_ocps.map((o) => o.code)).toEqual(['OCP-03']);
    const rename = await call(t, adminA, 'PATCH', `/api/v2/ehs_ocps/${ocp.id}`, { code: 'OCP-03' });
    expect(rename.statusCode).toBe(409);
    // Its own code is not a clash.
    expect((await call(t, adminA, 'PATCH', `/api/v2/ehs_ocps/${ocp.id}`, { code: 'ocp-01' })).statusCode).toBe(200);
  });

  it("keeps organisations apart: B gets 404 for A's procedure and never lists it", async () => {
    expect((await call(t, adminB, 'GET', `/api/v2/ehs_ocps/${ocp.id}`)).statusCode).toBe(404);
    const patch = await call(t, adminB, 'PATCH', `/api/v2/ehs_ocps/${ocp.id}`, { title: 'Hijacked' });
    expect(patch.statusCode).toBe(404);
    expect((await call(t, adminB, 'GET', '/api/v2/ehs_ocps')).json()).toMatchObject({ ehs_ocps: [], pagination: { total: 0 } });
    expect((await call(t, adminA, 'GET', `/api/v2/ehs_ocps/${ocp.id}`)).json()).toMatchObject({ code: 'ocp-01' });
    // B may use A's code for its own procedure.
    expect((await call(t, adminB, 'POST', '/api/v2/ehs_ocps', { code: 'OCP-01', title: 'B hot work', site_ids: [siteB] })).statusCode).toBe(
      201,
    );
  });
});

type Sub = { scenario_id: string; module: string; email: boolean; mandatory: boolean };

describe('e-mail subscriptions', () => {
  it('starts with every scenario subscribed', async () => {
    const res = await call(t, userA, 'GET', '/api/email_subscriptions');
    expect(res.statusCode).toBe(200);
    const subs = (res.json() as { subscriptions: Sub[] }).subscriptions;
    expect(subs.map((s) => s.scenario_id).sort()).toEqual([...MAILER_SCENARIO_IDS].sort());
    expect(subs.every((s) => s.email)).toBe(true);
    expect(subs.find((s) => s.scenario_id === 'user_invited')).toMatchObject({ mandatory: true, module: 'users' });
  });

  it("saves the user's own choices; mandatory ones stay on; other users are not affected", async () => {
    const res = await call(t, userA, 'PUT', '/api/email_subscriptions', {
      subscriptions: [
        { scenario_id: 'action_overdue', email: false },
        { scenario_id: 'free_trial_otp', email: false },
      ],
    });
    expect(res.statusCode).toBe(200);
    const subs = (res.json() as { subscriptions: Sub[] }).subscriptions;
    expect(subs.find((s) => s.scenario_id === 'action_overdue')?.email).toBe(false);
    expect(subs.find((s) => s.scenario_id === 'free_trial_otp')?.email).toBe(true);
    const admin = (await call(t, adminA, 'GET', '/api/email_subscriptions')).json() as { subscriptions: Sub[] };
    expect(admin.subscriptions.every((s) => s.email)).toBe(true);
  });

  it('refuses an unknown scenario', async () => {
    const res = await call(t, userA, 'PUT', '/api/email_subscriptions', { subscriptions: [{ scenario_id: 'nope', email: false }] });
    expect(res.statusCode).toBe(400);
  });

  it('needs a signed-in user', async () => {
    expect((await call(t, null, 'GET', '/api/email_subscriptions', undefined, { 'x-tenant': a.subDomain })).statusCode).toBe(401);
  });
});
