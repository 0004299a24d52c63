import { defineApi, okResponse } from '@bulwark/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp, pushRequestHandlers } from '../src/app.js';
import { loadPrincipal } from '../src/platform/auth/principal.js';
import { inTenant } from '../src/platform/db/db.js';
import { createRouter } from '../src/platform/http/route.js';
import { sendTrialReminders } from '../src/modules/registration/trial.js';
import { createOrganizationService } from '../src/modules/organizations/service.js';
import { call, createOrg, freshDatabase, PASSWORD, signIn, testDeps, type Session, type TestApp } from './helpers.js';

let t: TestApp;
let a: Awaited<ReturnType<typeof createOrg>>;
let b: Awaited<ReturnType<typeof createOrg>>;

/**
 * The app with a few probe routes, one per kind of access, so the trial rule of the access guard is
 * tested on its own and not through whichever module routes exist today.
 */
beforeAll(async () => {
  const database = await freshDatabase();
  const deps = testDeps(database.appUrl, database.ownerUrl);
  const app = await buildApp(deps, { logger: false });
  const probes = defineApi('probe', {
    siteCreate: {
      method: 'POST',
      path: '/api/probe/site-create',
      access: { subject: 'Site', action: 'create' },
      summary: 'Probe',
      response: okResponse,
    },
    siteUpdate: {
      method: 'PATCH',
      path: '/api/probe/site-update',
      access: { subject: 'Site', action: 'update' },
      summary: 'Probe',
      response: okResponse,
    },
    siteSearch: {
      method: 'POST',
      path: '/api/probe/site-search',
      access: { subject: 'Site', action: 'read' },
      summary: 'Probe',
      response: okResponse,
    },
    siteDelete: {
      method: 'DELETE',
      path: '/api/probe/site-delete',
      access: { subject: 'Site', action: 'delete' },
      summary: 'Probe',
      response: okResponse,
    },
    incidentApprove: {
      method: 'POST',
      path: '/api/probe/incident-approve',
      access: { subject: 'Incident', action: 'approve' },
      summary: 'Probe',
      response: okResponse,
    },
    adminWrite: { method: 'POST', path: '/api/probe/admin-write', access: { admin: true }, summary: 'Probe', response: okResponse },
    adminRead: { method: 'GET', path: '/api/probe/admin-read', access: { admin: true }, summary: 'Probe', response: okResponse },
    personal: { method: 'POST', path: '/api/probe/personal', access: { session: true }, summary: 'Probe', response: okResponse },
  });
  const router = createRouter(app, deps);
  for (const probe of Object.values(probes)) router.route(probe, () => ({ ok: true as const }));
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
  a = await createOrg(t, 'alpha');
  b = await createOrg(t, 'bravo');
  await createOrganizationService(t.deps.db.app).createPlatformAdmin({ email: 'root@platform.test', password: PASSWORD, fullName: 'Root' });
});
afterAll(() => t.close());

async function owner(text: string, values: unknown[] = []) {
  return (await t.deps.db.ownerPool.query(text, values)).rows;
}
const setTrialEnd = (orgId: string, interval: string) =>
  owner(`update organizations set trial_ends_at = now() + $2::interval where id = $1`, [orgId, interval]);

async function notificationsOf(orgId: string, userId: string): Promise<Array<{ title: string; body: string }>> {
  return owner(`select title, body from notifications where organization_id = $1 and user_id = $2 order by created_at, id`, [
    orgId,
    userId,
  ]);
}
async function mailsTo(address: string): Promise<Array<{ subject: string; body: string }>> {
  return owner(`select subject, body from mail_outbox where to_address = $1 order by created_at, id`, [address]);
}

describe('free-trial expiry: writes refused, reads and sign-in go on (spec 001 §4/§8)', () => {
  let admin: Session;
  beforeAll(async () => {
    await setTrialEnd(a.id, '-1 minute');
    admin = await signIn(t, 'alpha', a.adminEmail);
  });
  afterAll(() => setTrialEnd(a.id, '14 days'));

  it('signing in still works and the plan says the trial expired', async () => {
    const plan = await call(t, admin, 'GET', '/api/v1/plan');
    expect(plan.statusCode).toBe(200);
    expect(plan.json()).toMatchObject({
      status: 'trial',
      subscription_type: 'free_trial',
      trial_expired: true,
      trial_days_left: 0,
      user_limit: 50,
      storage_quota_bytes: 104857600,
    });
  });

  it.each([
    ['POST', '/api/probe/site-create'],
    ['PATCH', '/api/probe/site-update'],
    ['POST', '/api/probe/incident-approve'],
    ['POST', '/api/probe/admin-write'],
  ] as const)('%s %s is refused with free_trial_expired', async (method, url) => {
    const res = await call(t, admin, method, url, {});
    expect(res.statusCode).toBe(403);
    expect(res.json()).toMatchObject({ code: 'free_trial_expired', errors: ['Your free trial has expired.'] });
  });

  it.each([
    ['POST', '/api/probe/site-search'],
    ['DELETE', '/api/probe/site-delete'],
    ['GET', '/api/probe/admin-read'],
    ['POST', '/api/probe/personal'],
    ['GET', '/api/users/user_profile'],
  ] as const)('%s %s (a read, a delete or a personal call) still works', async (method, url) => {
    const res = await call(t, admin, method, url, method === 'GET' || method === 'DELETE' ? undefined : {});
    expect(res.statusCode, res.body).toBe(200);
  });

  it('still refuses first what the rights refuse: the reader gets forbidden, not free_trial_expired', async () => {
    const reader = await signIn(t, 'alpha', a.userEmail);
    expect((await call(t, reader, 'POST', '/api/probe/site-create', {})).json().code).toBe('forbidden');
  });

  it('touches no other organisation: bravo writes as usual', async () => {
    const other = await signIn(t, 'bravo', b.adminEmail);
    expect((await call(t, other, 'POST', '/api/probe/site-create', {})).statusCode).toBe(200);
  });

  it('an active or cancelled subscription with a past trial date is not an expired trial', async () => {
    await owner(`update organizations set subscription_type = 'active' where id = $1`, [a.id]);
    expect((await call(t, admin, 'POST', '/api/probe/site-create', {})).statusCode).toBe(200);
    await owner(`update organizations set subscription_type = 'free_trial' where id = $1`, [a.id]);
    expect((await call(t, admin, 'POST', '/api/probe/site-create', {})).statusCode).toBe(403);
  });

  it('the admin may still ask for an extension', async () => {
    const res = await call(t, admin, 'POST', `/api/organizations/${a.id}/org_free_trial_extend_requests`, {
      reason: 'Our pilot site opens late.',
    });
    expect(res.statusCode, res.body).toBe(201);
    await owner(`delete from org_free_trial_extend_requests where organization_id = $1`, [a.id]);
  });
});

describe('extension requests', () => {
  let adminA: Session;
  let readerA: Session;
  let adminB: Session;
  let root: Session;
  const own = (orgId: string) => `/api/organizations/${orgId}/org_free_trial_extend_requests`;

  beforeAll(async () => {
    adminA = await signIn(t, 'alpha', a.adminEmail);
    readerA = await signIn(t, 'alpha', a.userEmail);
    adminB = await signIn(t, 'bravo', b.adminEmail);
    root = await signIn(t, 'public', 'root@platform.test');
  });

  it('needs a reason', async () => {
    const res = await call(t, adminA, 'POST', own(a.id), { reason: '   ' });
    expect(res.statusCode).toBe(400);
    expect(res.json().fields.reason).toBe('This field is required.');
  });

  it('only the organisation admin may ask or list; another organisation’s id is not found', async () => {
    expect((await call(t, readerA, 'POST', own(a.id), { reason: 'x' })).statusCode).toBe(403);
    expect((await call(t, readerA, 'GET', own(a.id))).statusCode).toBe(403);
    expect((await call(t, adminB, 'POST', own(a.id), { reason: 'x' })).statusCode).toBe(404);
    expect((await call(t, adminB, 'GET', own(a.id))).statusCode).toBe(404);
    expect((await call(t, root, 'GET', own(a.id))).statusCode).toBe(403);
  });

  it('one waiting request at a time; the admin lists their own, never another organisation’s', async () => {
    const first = await call(t, adminA, 'POST', own(a.id), { reason: 'We need two more weeks.' });
    expect(first.statusCode).toBe(201);
    expect(first.json()).toMatchObject({ status: 'pending', reason: 'We need two more weeks.', requested_by: { email: a.adminEmail } });
    const second = await call(t, adminA, 'POST', own(a.id), { reason: 'Again' });
    expect(second.statusCode).toBe(409);
    expect(second.json().errors[0]).toBe('An extension request is already waiting for a decision.');
    expect((await call(t, adminB, 'POST', own(b.id), { reason: 'Bravo needs time.' })).statusCode).toBe(201);

    const listA = (await call(t, adminA, 'GET', own(a.id))).json().requests;
    expect(listA.map((r: { reason: string }) => r.reason)).toEqual(['We need two more weeks.']);
    expect((await call(t, adminA, 'GET', '/api/v1/plan')).json().extension_request_pending).toBe(true);
  });

  it('the provider-wide list is the platform admin’s only', async () => {
    for (const s of [adminA, readerA]) {
      expect((await call(t, s, 'GET', '/api/v1/org_free_trial_extend_requests')).statusCode).toBe(403);
    }
    const list = await call(t, root, 'GET', '/api/v1/org_free_trial_extend_requests?status=pending');
    expect(list.statusCode).toBe(200);
    const requests = list.json().requests as Array<{ organization: { sub_domain_name: string }; requested_by: { email: string } }>;
    expect(requests.map((r) => r.organization.sub_domain_name).sort()).toEqual(['alpha', 'bravo']);
    expect(requests.find((r) => r.organization.sub_domain_name === 'alpha')?.requested_by.email).toBe(a.adminEmail);
  });

  it('approving adds the days (default 14) from the later of now and the trial end, and tells the admins', async () => {
    await setTrialEnd(a.id, '-2 days');
    const [pending] = (await call(t, root, 'GET', '/api/v1/org_free_trial_extend_requests?status=pending'))
      .json()
      .requests.filter((r: { organization_id: string }) => r.organization_id === a.id);
    expect((await call(t, adminA, 'POST', `/api/v1/org_free_trial_extend_requests/${pending.id}/approve`, {})).statusCode).toBe(403);
    expect(
      (await call(t, root, 'POST', `/api/v1/org_free_trial_extend_requests/${pending.id}/approve`, { days: 0 })).json().fields.days,
    ).toBe('Choose between 1 and 90 days.');

    const res = await call(t, root, 'POST', `/api/v1/org_free_trial_extend_requests/${pending.id}/approve`, {});
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ status: 'approved', days_granted: 14 });
    const days = (Date.parse(res.json().organization.trial_ends_at) - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThan(13.9);
    expect(days).toBeLessThanOrEqual(14);

    const plan = (await call(t, adminA, 'GET', '/api/v1/plan')).json();
    expect(plan).toMatchObject({ trial_expired: false, trial_days_left: 14, extension_request_pending: false });
    expect((await call(t, adminA, 'POST', '/api/probe/site-create', {})).statusCode).toBe(200);
    expect((await notificationsOf(a.id, a.adminId)).map((x) => x.title)).toContain('Free trial extended');
    expect((await mailsTo(a.adminEmail)).map((m) => m.subject)).toContain('Your Bulwark EHS free trial has been extended');
    // Decided requests stay decided.
    expect((await call(t, root, 'POST', `/api/v1/org_free_trial_extend_requests/${pending.id}/reject`, { reason: 'x' })).statusCode).toBe(
      409,
    );
    // A new request may follow once the first is decided.
    expect((await call(t, adminA, 'POST', own(a.id), { reason: 'One more week please.' })).statusCode).toBe(201);
  });

  it('an extension of a running trial counts from its current end', async () => {
    await setTrialEnd(a.id, '5 days');
    const [pending] = (await call(t, root, 'GET', '/api/v1/org_free_trial_extend_requests?status=pending'))
      .json()
      .requests.filter((r: { organization_id: string }) => r.organization_id === a.id);
    const res = await call(t, root, 'POST', `/api/v1/org_free_trial_extend_requests/${pending.id}/approve`, { days: 7 });
    const days = (Date.parse(res.json().organization.trial_ends_at) - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThan(11.9);
    expect(days).toBeLessThanOrEqual(12);
  });

  it('rejecting needs a reason and tells the admins why', async () => {
    const [pending] = (await call(t, root, 'GET', '/api/v1/org_free_trial_extend_requests?status=pending'))
      .json()
      .requests.filter((r: { organization_id: string }) => r.organization_id === b.id);
    expect(
      (await call(t, root, 'POST', `/api/v1/org_free_trial_extend_requests/${pending.id}/reject`, { reason: '' })).json().fields.reason,
    ).toBe('This field is required.');
    const res = await call(t, root, 'POST', `/api/v1/org_free_trial_extend_requests/${pending.id}/reject`, { reason: 'Please subscribe.' });
    expect(res.json()).toMatchObject({ status: 'rejected', decision_reason: 'Please subscribe.' });
    expect(await notificationsOf(b.id, b.adminId)).toContainEqual({
      title: 'Extension request declined',
      body: 'Reason: Please subscribe.',
    });
    expect((await notificationsOf(a.id, a.adminId)).map((x) => x.title)).not.toContain('Extension request declined');
    expect((await call(t, adminB, 'GET', own(b.id))).json().requests[0]).toMatchObject({
      status: 'rejected',
      decision_reason: 'Please subscribe.',
    });
  });

  it('an unknown request is not found', async () => {
    expect(
      (await call(t, root, 'POST', '/api/v1/org_free_trial_extend_requests/0190a5a0-0000-7000-8000-000000000000/approve', {})).statusCode,
    ).toBe(404);
  });
});

describe('trial reminders: 3 days and 1 day before, and once at the end (hourly job)', () => {
  it('tells every admin in the app and by e-mail, each notice once per trial end', async () => {
    const c = await createOrg(t, 'charlie');
    const titles = async () => (await notificationsOf(c.id, c.adminId)).map((x) => x.title).filter((x) => x !== 'Welcome to Bulwark EHS');

    await setTrialEnd(c.id, '10 days');
    await sendTrialReminders(t.deps);
    expect(await titles()).toEqual([]);

    await setTrialEnd(c.id, '2 days 23 hours');
    await sendTrialReminders(t.deps);
    await sendTrialReminders(t.deps);
    expect(await titles()).toEqual(['Free trial ends in 3 days']);
    expect((await mailsTo(c.adminEmail)).map((m) => m.subject)).toEqual(['Your Bulwark EHS free trial ends in 3 days']);
    // The reader is no admin and hears nothing.
    expect(await notificationsOf(c.id, c.userId)).toEqual([]);

    await owner(`update organizations set trial_ends_at = trial_ends_at - interval '2 days' where id = $1`, [c.id]);
    await sendTrialReminders(t.deps);
    expect(await titles()).toEqual(['Free trial ends in 3 days', 'Free trial ends tomorrow']);
    expect((await mailsTo(c.adminEmail)).at(-1)?.subject).toBe('Your Bulwark EHS free trial ends tomorrow');

    await setTrialEnd(c.id, '-1 minute');
    await sendTrialReminders(t.deps);
    await sendTrialReminders(t.deps);
    const after = await titles();
    expect(after.filter((x) => x === 'Free trial expired')).toHaveLength(1);
    expect((await mailsTo(c.adminEmail)).at(-1)?.subject).toBe('Your Bulwark EHS free trial has ended');
  });

  it('says nothing to subscribed organisations', async () => {
    const d = await createOrg(t, 'delta');
    await owner(`update organizations set subscription_type = 'active', trial_ends_at = now() + interval '1 day' where id = $1`, [d.id]);
    await sendTrialReminders(t.deps);
    expect((await notificationsOf(d.id, d.adminId)).map((x) => x.title)).toEqual(['Welcome to Bulwark EHS']);
  });
});

describe('push requests: get_plan, get_subscription_plan, get_saas_additional_features', () => {
  it('answer the plan of the asker’s organisation and every module enabled', async () => {
    const s = await signIn(t, 'bravo', b.adminEmail);
    const claims = await t.deps.tokens.verify(s.token);
    const principal = await inTenant(t.deps.db.app, b.id, (tx) => loadPrincipal(tx, claims!.sub, claims!.sid));
    const handlers = pushRequestHandlers(t.deps);
    const plan = await handlers.get_plan(principal!);
    expect(plan).toMatchObject({ status: 'trial', user_limit: 50, users_count: 2, storage_quota_bytes: 104857600, storage_used_bytes: 0 });
    expect(await handlers.get_subscription_plan(principal!)).toEqual(plan);
    const features = (await handlers.get_saas_additional_features(principal!)) as { features: Array<{ key: string; enabled: boolean }> };
    expect(features.features.length).toBeGreaterThanOrEqual(10);
    expect(features.features.every((f) => f.enabled)).toBe(true);
  });
});
