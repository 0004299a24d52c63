import { defineApi, okResponse, translate, type Action, type Endpoint, type Subject } from '@bulwark/domain';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app.js';
import { createOrganizationService, createRole } from '../src/modules/organizations/service.js';
import { asPlatform } from '../src/platform/db/db.js';
import { organizations } from '../src/platform/db/schema.js';
import { createRouter } from '../src/platform/http/route.js';
import { PASSWORD, call, createOrg, freshDatabase, signIn, testDeps, type Session, type TestApp } from './helpers.js';

/**
 * Licences (issue 12, item 19; DECISIONS.md "Rights, licences, plans"): on a paid plan, creating or
 * editing records of a licensed module needs the user's licence for it; reading and reporting
 * observations and incidents never do; during the free trial every user holds every licence; an
 * administrator is not exempt but may assign themself a licence. No route of the licensed modules exists
 * yet, so probe routes, one per kind of right, are mounted here as a module would mount them.
 */

const probe = (method: Endpoint['method'], name: string, access: { subject: Subject; action: Action }) => ({
  method,
  path: `/api/probe/${name}` as const,
  access,
  summary: 'Probe',
  response: okResponse,
});

const probes = defineApi('licence-probe', {
  permitCreate: probe('POST', 'permit-create', { subject: 'Permit', action: 'create' }),
  permitUpdate: probe('PATCH', 'permit-update', { subject: 'Permit', action: 'update' }),
  permitApprove: probe('POST', 'permit-approve', { subject: 'Permit', action: 'approve' }),
  permitRead: probe('GET', 'permit-read', { subject: 'Permit', action: 'read' }),
  permitDelete: probe('DELETE', 'permit-delete', { subject: 'Permit', action: 'delete' }),
  incidentReport: probe('POST', 'incident-report', { subject: 'Incident', action: 'create' }),
  incidentUpdate: probe('PATCH', 'incident-update', { subject: 'Incident', action: 'update' }),
  auditCreate: probe('POST', 'audit-create', { subject: 'Audit', action: 'create' }),
  hiraUpdate: probe('PATCH', 'hira-update', { subject: 'HIRA', action: 'update' }),
  libraryCreate: probe('POST', 'library-create', { subject: 'Library', action: 'create' }),
  observationCreate: probe('POST', 'observation-create', { subject: 'Observation', action: 'create' }),
  templateCreate: probe('POST', 'template-create', { subject: 'Audit Template', action: 'create' }),
});
type Probe = keyof typeof probes;

let t: TestApp;
let org: Awaited<ReturnType<typeof createOrg>>;
let admin: Session;
let worker: Session;
let workerId: string;
let bystander: Session;

const en = (key: string) => translate('en', key);
const setPlan = (type: 'free_trial' | 'active' | 'cancelled') =>
  t.deps.db.owner.update(organizations).set({ subscriptionType: type }).where(eq(organizations.id, org.id));

async function hit(s: Session, name: Probe, lang?: string) {
  const p = probes[name];
  const res = await call(
    t,
    s,
    p.method,
    p.path,
    p.method === 'GET' || p.method === 'DELETE' ? undefined : {},
    lang ? { 'accept-language': lang } : {},
  );
  return { status: res.statusCode, code: (res.json() as { code?: string }).code, errors: (res.json() as { errors?: string[] }).errors };
}

async function outcomes(s: Session, names: readonly Probe[]) {
  const out: Record<string, string> = {};
  for (const name of names) {
    const r = await hit(s, name);
    out[name] = r.status === 200 ? 'passes' : `${r.status} ${r.code}`;
  }
  return out;
}

const licence = (s: Session, userId: string, module: string, on: boolean) =>
  on
    ? call(t, s, 'POST', '/api/users/licences', { user_id: userId, module })
    : call(t, s, 'DELETE', `/api/users/licences/${userId}/${module}`);

const WRITES: Probe[] = ['permitCreate', 'permitUpdate', 'permitApprove', 'incidentUpdate', 'auditCreate', 'hiraUpdate', 'libraryCreate'];
const NEVER: Probe[] = ['permitRead', 'permitDelete', 'incidentReport', 'observationCreate', 'templateCreate'];

beforeAll(async () => {
  const database = await freshDatabase();
  const deps = testDeps(database.appUrl, database.ownerUrl);
  const app = await buildApp(deps, { logger: false });
  const router = createRouter(app, deps);
  for (const p of Object.values(probes)) router.route(p, () => ({ ok: true as const }));
  await app.ready();
  t = {
    app,
    deps,
    ownerUrl: database.ownerUrl,
    appUrl: database.appUrl,
    close: async () => {
      await app.close();
      await deps.db.close();
      await database.drop();
    },
  };
  org = await createOrg(t, 'licensed');
  const every = {
    rAdd: true,
    rEdit: true,
    rView: true,
    rDestroy: true,
    isRevoke: true,
    isExtend: true,
    isClose: true,
    isReject: true,
    isApprove: true,
  };
  await asPlatform(t.deps.db.app, async (tx) => {
    await tx.execute(sql`select set_config('app.organization_id', ${org.id}, true)`);
    await createRole(tx, 'Permit officer', [{ name: 'Permit', ...every }]);
  });
  const orgs = createOrganizationService(t.deps.db.app);
  workerId = (
    await orgs.createUser('licensed', {
      email: 'officer@licensed.test',
      fullName: 'Omar Officer',
      password: PASSWORD,
      roleName: 'Permit officer',
    })
  ).id;
  admin = await signIn(t, 'licensed', org.adminEmail);
  worker = await signIn(t, 'licensed', 'officer@licensed.test');
  bystander = await signIn(t, 'licensed', org.userEmail);
});
afterAll(() => t.close());

describe('during the free trial', () => {
  it('every user holds every licence: writes need only the role’s right', async () => {
    const all = await outcomes(admin, [...WRITES, ...NEVER]);
    expect(Object.entries(all).filter(([, v]) => v !== 'passes')).toEqual([]);
    expect((await hit(worker, 'permitCreate')).status).toBe(200);
  });
});

describe('on a paid plan', () => {
  beforeAll(() => setPlan('active'));
  afterAll(() => setPlan('free_trial'));

  it('refuses creating and editing licensed records without the licence, even to an administrator', async () => {
    const got = await outcomes(admin, WRITES);
    expect(got).toEqual(Object.fromEntries(WRITES.map((w) => [w, '403 licence_required'])));
  });

  it('tells the user to ask the administrator, in their language', async () => {
    expect((await hit(worker, 'permitCreate')).errors).toEqual([en('errors.licence_required')]);
    for (const lang of ['es', 'tr', 'zh'] as const) {
      const text = translate(lang, 'errors.licence_required');
      expect(text).not.toBe(en('errors.licence_required'));
      expect((await hit(worker, 'permitCreate', lang)).errors).toEqual([text]);
    }
  });

  it('never needs one to read, to report an incident or an observation, or outside the licensed modules', async () => {
    const got = await outcomes(admin, NEVER);
    expect(got).toEqual(Object.fromEntries(NEVER.map((w) => [w, 'passes'])));
  });

  it('says "forbidden", not "licence", to someone without the right at all', async () => {
    expect(await hit(bystander, 'permitCreate')).toMatchObject({ status: 403, code: 'forbidden' });
  });

  it('lets a user with the licence work, from the next request on, and stops them when it is taken back', async () => {
    expect((await licence(admin, workerId, 'permits', true)).statusCode).toBe(200);
    expect(await outcomes(worker, ['permitCreate', 'permitUpdate', 'permitApprove'])).toEqual({
      permitCreate: 'passes',
      permitUpdate: 'passes',
      permitApprove: 'passes',
    });
    const profile = (await call(t, worker, 'GET', '/api/users/user_profile')).json();
    expect(profile.user.licences).toEqual(['permits']);
    expect((await licence(admin, workerId, 'permits', false)).statusCode).toBe(200);
    expect(await hit(worker, 'permitCreate')).toMatchObject({ status: 403, code: 'licence_required' });
  });

  it('a licence is for its own module only', async () => {
    expect((await licence(admin, org.adminId, 'audits', true)).statusCode).toBe(200);
    expect((await hit(admin, 'auditCreate')).status).toBe(200);
    expect(await hit(admin, 'permitCreate')).toMatchObject({ status: 403, code: 'licence_required' });
  });

  it('an administrator may assign themself a licence, and then works in the module', async () => {
    expect((await licence(admin, org.adminId, 'permits', true)).statusCode).toBe(200);
    expect((await hit(admin, 'permitCreate')).status).toBe(200);
    expect((await call(t, admin, 'GET', '/api/users/user_profile')).json().user.licences).toEqual(['permits', 'audits']);
  });

  it('a cancelled plan is not a paid plan: licences are not asked (permits stay closed by the cancellation)', async () => {
    await setPlan('cancelled');
    try {
      expect((await hit(admin, 'hiraUpdate')).status).toBe(200);
    } finally {
      await setPlan('active');
    }
  });
});
