import { randomUUID } from 'node:crypto';
import { localDateTimeIn, translate, type ObservationListResponse } from '@bulwark/domain';
import { and, eq } from 'drizzle-orm';
import type { Socket } from 'socket.io-client';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createOrganizationService } from '../src/modules/organizations/service.js';
import { readWorkbookRows } from '../src/platform/export/excel.js';
import { roles, users } from '../src/platform/db/schema.js';
import type { RouteRecord } from '../src/platform/http/access.js';
import { createGuest } from './attack/actors.js';
import { call, createOrg, listeningTestApp, nextIp, PASSWORD, PNG, signIn, upload, type Session, type TestApp } from './helpers.js';
import { connectSocket } from './process-helpers.js';
import { createSite } from './safety-interactions-support.js';

/**
 * Issue 12, item 3: a self-registered guest read the observations with reporters' names, the staff list
 * with e-mails, employee ids and roles, safety interactions, the plan, exports and PDF reports. A guest
 * is now a principal of its own kind (from how the account was made): it creates observations and reads
 * its own reports, and every other route refuses it. This suite walks every registered route as a guest
 * and holds the answer to exactly this list, which the contracts declare (EndpointDef.guests).
 */
const ALLOW_LIST: Record<string, 'personal' | 'own'> = {
  // About the guest alone.
  'GET /api/auth': 'personal',
  'DELETE /api/v1/user_token': 'personal',
  'DELETE /api/v2/user_logout': 'personal',
  'PATCH /api/users/password': 'personal',
  'GET /api/users/user_profile': 'personal',
  'GET /api/v2/users/user_profile': 'personal',
  'PATCH /api/users/user_profile': 'personal',
  'GET /api/users/licences/mine': 'personal',
  'GET /api/v1/notifications': 'personal',
  'PATCH /api/v1/notifications/:id': 'personal',
  'POST /api/v1/notifications/mark_all_read': 'personal',
  // Reporting and following its own reports (the handlers narrow to them).
  'GET /api/v2/observations': 'own',
  'GET /api/v2/observations/period_status_counts': 'own',
  'GET /api/observations/obs_data': 'own',
  'GET /api/observations/:id': 'own',
  'POST /api/observations': 'own',
  'POST /api/observations/attachments': 'own',
  'DELETE /api/observations/attachments/:id': 'own',
  'GET /api/files/:id': 'own',
  // Incidents: reported like observations (the module narrows with platform/auth/guests.ts the same way).
  'GET /api/v2/incidents': 'own',
  'GET /api/v2/incidents/period_status_counts': 'own',
  'GET /api/incidents/incident_data': 'own',
  'GET /api/incidents/:id': 'own',
  'POST /api/incidents': 'own',
  'POST /api/incidents/attachments': 'own',
  'DELETE /api/incidents/attachments/:id': 'own',
};

type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
type Answer = { status: number; code?: string };

let t: TestApp;
let url: string;
let org: Awaited<ReturnType<typeof createOrg>>;
let admin: Session;
let routes: RouteRecord[];
const guests: Record<'vera' | 'otto' | 'max', { email: string; session: Session }> = {} as never;
const sockets: Socket[] = [];

const key = (r: { method: string; url: string }) => `${r.method} ${r.url}`;
const en = (k: string) => translate('en', k);

async function guestSession(name: keyof typeof guests): Promise<Session> {
  const g = guests[name];
  g.session = await signIn(t, org.subDomain, g.email);
  return g.session;
}

/** A request that gets past nothing but the guard: random ids, an empty body. */
async function probe(r: RouteRecord, s: Session): Promise<Answer> {
  const res = await t.app.inject({
    method: r.method as Method,
    url: r.url.replace(/:\w+/g, () => randomUUID()),
    remoteAddress: nextIp(),
    headers: { 'x-tenant': s.tenant, authorization: `Bearer ${s.token}`, 'x-csrf-token': s.csrf },
    ...(['POST', 'PUT', 'PATCH'].includes(r.method) ? { payload: {} } : {}),
  });
  const code = (res.headers['content-type'] ?? '').includes('json') ? (res.json() as { code?: string }).code : undefined;
  return { status: res.statusCode, code };
}

/** Every signed-in route as this guest: the keys it got past the guard at, and any answer that proves nothing. */
async function walk(name: keyof typeof guests): Promise<{ passed: string[]; broken: string[] }> {
  const passed: string[] = [];
  const broken: string[] = [];
  // Signing out ends the session that probes it: deletes go last, and a fresh session follows.
  const ordered = [...routes].sort((x, y) => Number(x.method === 'DELETE') - Number(y.method === 'DELETE'));
  for (const r of ordered) {
    let got = await probe(r, guests[name].session);
    if (got.code === 'session_expired') got = await probe(r, await guestSession(name));
    if (got.status >= 500 || got.code === 'session_expired' || got.code === 'csrf_invalid')
      broken.push(`${key(r)}: ${got.status} ${got.code}`);
    else if (!(got.status === 403 && got.code === 'forbidden')) passed.push(key(r));
  }
  return { passed: passed.sort(), broken };
}

const report = (siteId: string, description: string, extra: Record<string, unknown> = {}) => ({
  type: 'unsafe_condition',
  description,
  site_id: siteId,
  observed_at: localDateTimeIn('Europe/London', new Date(Date.now() - 3_600_000)),
  risk_level: 'low',
  action_required: false,
  comment: 'Seen on the way in',
  anonymous: false,
  attachment_ids: [],
  actions: [],
  ...extra,
});

let siteId: string;

beforeAll(async () => {
  ({ t, url } = await listeningTestApp());
  org = await createOrg(t, 'visitors');
  admin = await signIn(t, org.subDomain, org.adminEmail);
  for (const name of ['vera', 'otto', 'max'] as const) {
    const email = `${name}@visitors-guests.test`;
    await createGuest(t, admin, org.subDomain, email, PASSWORD);
    guests[name] = { email, session: await signIn(t, org.subDomain, email) };
  }
  siteId = await createSite(t, admin, org.adminId, 'Visitor Works');
  routes = t.app.registeredRoutes.filter((r) => !('public' in r.access) && !r.url.startsWith('/api/docs') && r.method !== 'HEAD');
});
afterEach(() => {
  for (const s of sockets.splice(0)) s.close();
});
afterAll(() => t?.close());

describe('a guest reaches exactly its allow-list (DECISIONS: guests are principals of their own kind)', () => {
  it('the contracts open exactly these routes to guests, and no public route is counted', () => {
    const declared = Object.fromEntries(routes.filter((r) => r.guests).map((r) => [key(r), r.guests]));
    expect(declared).toEqual(ALLOW_LIST);
    expect(routes.length).toBeGreaterThan(100);
  });

  it('every other signed-in route refuses a guest with 403', async () => {
    const { passed, broken } = await walk('vera');
    expect(broken).toEqual([]);
    expect(passed).toEqual(Object.keys(ALLOW_LIST).sort());
  });

  it('whatever its role holds: a guest given the Administrator role still reaches the allow-list only', async () => {
    const [adminRole] = await t.deps.db.owner
      .select({ id: roles.id })
      .from(roles)
      .where(and(eq(roles.organizationId, org.id), eq(roles.name, 'Administrator')));
    await t.deps.db.owner
      .update(users)
      .set({ roleId: adminRole!.id })
      .where(and(eq(users.organizationId, org.id), eq(users.email, guests.max.email)));
    const { passed, broken } = await walk('max');
    expect(broken).toEqual([]);
    expect(passed).toEqual(Object.keys(ALLOW_LIST).sort());
  });

  it('the people lists, the plan, safety interactions, exports of others and PDF reports are refused', async () => {
    const vera = await guestSession('vera');
    for (const path of [
      '/api/users/all_active_users',
      '/api/users/module_based_users',
      '/api/users/users_with_si_trained',
      `/api/site_based_module_based_users?sites[]=${siteId}`,
      `/api/site_based_module_based_users/${siteId}`,
      '/api/individual_module_site_based_all_users?module=observations',
      '/api/v2/sites/role_wise_users',
      '/api/sites/all_site_head_of_safety',
      '/api/safety_interactions',
      '/api/safety_interactions/people',
      '/api/v1/plan',
      '/api/actions/all',
      `/api/observations/${randomUUID()}/report.pdf`,
    ]) {
      const res = await call(t, vera, 'GET', path);
      expect({ path, status: res.statusCode, code: res.json().code }).toEqual({ path, status: 403, code: 'forbidden' });
    }
  });

  it('is a kind of account, not a role name: a member holding the Guest role reads as a member', async () => {
    await createOrganizationService(t.deps.db.app).createUser(org.subDomain, {
      email: 'gail@visitors.test',
      fullName: 'Gail Staff',
      password: PASSWORD,
      roleName: 'Guest',
    });
    const gail = await signIn(t, org.subDomain, 'gail@visitors.test');
    expect(gail.profile.user.is_guest).toBe(false);
    expect(guests.vera.session.profile.user.is_guest).toBe(true);
    expect((await call(t, gail, 'GET', '/api/users/all_active_users')).statusCode).toBe(200);
  });
});

describe('a guest follows its own reports only, and sees no other person', () => {
  let staffReport: string;
  let staffPhoto: string;
  let ownReport: string;
  let ownPhoto: string;
  let ottoReport: string;

  beforeAll(async () => {
    const photo = await upload(t, admin, '/api/observations/attachments', 'staff.png', PNG, 'image/png');
    staffPhoto = (photo.json() as { file: { id: string } }).file.id;
    const staff = await call(
      t,
      admin,
      'POST',
      '/api/observations',
      report(siteId, 'Oil by press 2, seen by staff', { attachment_ids: [staffPhoto] }),
    );
    expect(staff.statusCode, staff.body).toBe(201);
    staffReport = (staff.json() as { id: string }).id;

    const vera = await guestSession('vera');
    const mine = await upload(t, vera, '/api/observations/attachments', 'mine.png', PNG, 'image/png');
    expect(mine.statusCode, mine.body).toBe(201);
    ownPhoto = (mine.json() as { file: { id: string } }).file.id;
    const own = await call(
      t,
      vera,
      'POST',
      '/api/observations',
      report(siteId, 'Loose handrail at the gate', { attachment_ids: [ownPhoto] }),
    );
    expect(own.statusCode, own.body).toBe(201);
    ownReport = (own.json() as { id: string }).id;

    const otto = await call(t, await guestSession('otto'), 'POST', '/api/observations', report(siteId, 'Blocked fire exit'));
    expect(otto.statusCode, otto.body).toBe(201);
    ottoReport = (otto.json() as { id: string }).id;
  });

  it('lists, counts and exports its own reports, with no other reporter (search included)', async () => {
    const vera = guests.vera.session;
    const list = (await call(t, vera, 'GET', '/api/v2/observations')).json() as ObservationListResponse;
    expect(list.observations.map((o) => [o.id, o.reporter_name])).toEqual([[ownReport, 'Gus Guest']]);
    const searched = (await call(t, vera, 'GET', '/api/v2/observations?search=press')).json() as ObservationListResponse;
    expect(searched.observations).toEqual([]);
    const counts = (await call(t, vera, 'GET', '/api/v2/observations/period_status_counts')).json() as { counts: { all: number } };
    expect(counts.counts.all).toBe(1);
    const sheet = await readWorkbookRows((await call(t, vera, 'GET', '/api/v2/observations?export_to_excel=true')).rawPayload);
    expect(sheet.rows.map((r) => r.values[en('observations.fields.description')])).toEqual(['Loose handrail at the gate']);
    // Staff still see every report, the guest's with its reporter.
    const all = (await call(t, admin, 'GET', '/api/v2/observations')).json() as ObservationListResponse;
    expect(all.observations.map((o) => o.id).sort()).toEqual([staffReport, ownReport, ottoReport].sort());
  });

  it("opens its own report without anyone else in it; another's is not found", async () => {
    const vera = guests.vera.session;
    const own = await call(t, vera, 'GET', `/api/observations/${ownReport}`);
    expect(own.statusCode).toBe(200);
    const o = own.json().observation;
    expect(o.reporter).toMatchObject({ full_name: 'Gus Guest', guest: true });
    expect(o.source).toBe('guest');
    expect(o.actions).toEqual([]);
    expect(o.history.every((h: { actor: { id: string } | null }) => h.actor === null || h.actor.id === o.reporter.id)).toBe(true);
    for (const other of [staffReport, ottoReport]) {
      const res = await call(t, vera, 'GET', `/api/observations/${other}`);
      expect(res.statusCode).toBe(404);
    }
  });

  it('offers the form without the staff list', async () => {
    const form = (await call(t, guests.vera.session, 'GET', '/api/observations/obs_data')).json();
    expect(form.users).toEqual([]);
    expect(form.sites.map((s: { id: string }) => s.id)).toEqual([siteId]);
    expect((await call(t, admin, 'GET', '/api/observations/obs_data')).json().users.length).toBeGreaterThan(0);
  });

  it("downloads its own report's files, not a staff report's", async () => {
    const vera = guests.vera.session;
    expect((await call(t, vera, 'GET', `/api/files/${ownPhoto}`)).statusCode).toBe(200);
    expect((await call(t, vera, 'GET', `/api/files/${staffPhoto}`)).statusCode).toBe(404);
    expect((await call(t, guests.otto.session, 'GET', `/api/files/${ownPhoto}`)).statusCode).toBe(404);
  });

  it('reports, but raises no actions (it may not assign staff)', async () => {
    const vera = guests.vera.session;
    const withAction = report(siteId, 'Slippery ramp', {
      action_required: true,
      actions: [{ description: 'Grit the ramp', control_type: 'engineering', responsible_id: org.adminId, due_date: '2099-01-01' }],
    });
    expect((await call(t, vera, 'POST', '/api/observations', withAction)).statusCode).toBe(403);
  });

  it('asks over the socket only what its own screens need', async () => {
    const socket = await connectSocket(url, { token: guests.vera.session.token, tenant: org.subDomain });
    sockets.push(socket);
    expect(await socket.emitWithAck('get_user')).toMatchObject({ data: { email: guests.vera.email } });
    for (const name of ['get_role_wise_users', 'get_module_based_users', 'get_used_lincence_count', 'get_plan']) {
      expect({ name, answer: await socket.emitWithAck(name) }).toEqual({ name, answer: { error: 'forbidden' } });
    }
  });
});
