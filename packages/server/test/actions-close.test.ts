import { translate, type ActionDetail } from '@bulwark/domain';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOrganizationService, createRole } from '../src/modules/organizations/service.js';
import { sites } from '../src/modules/sites/tables.js';
import { asPlatform, inTenant } from '../src/platform/db/db.js';
import { call, createOrg, createTestApp, PASSWORD, signIn, type Session, type TestApp } from './helpers.js';

/** Issue 15 item 8: closing (verifying) an action needs someone other than the person who completed it. */
let t: TestApp;
let a: Awaited<ReturnType<typeof createOrg>>;
let adminA: Session;
let managerA: Session;
let supervisorA: Session;
const ids = { supervisor: '' };
let siteId = '';

const en = (key: string) => translate('en', key);

const patch = (s: Session, id: string, body: Record<string, unknown>, lang = 'en') =>
  call(t, s, 'PATCH', `/api/actions/${id}`, body, { 'accept-language': lang });

/** The manager raises an action for the supervisor; `by` completes it. */
async function completed(by: Session): Promise<ActionDetail> {
  const raised = await call(t, managerA, 'POST', '/api/actions/', {
    description: 'Guard the conveyor nip point',
    control_type: 'engineering',
    responsible_id: ids.supervisor,
    due_date: '2099-01-01',
    site_id: siteId,
  });
  expect(raised.statusCode, raised.body).toBe(201);
  const done = await patch(by, (raised.json() as ActionDetail).id, { status: 'completed', remarks: 'Guard fitted' });
  expect(done.statusCode, done.body).toBe(200);
  return done.json() as ActionDetail;
}

async function setCloseByOther(on: boolean) {
  const res = await call(t, adminA, 'PUT', '/api/action_settings', { close_by_other: on });
  expect(res.statusCode, res.body).toBe(200);
  expect(res.json()).toEqual({ close_by_other: on });
}

beforeAll(async () => {
  t = await createTestApp();
  a = await createOrg(t, 'closea');
  await asPlatform(t.deps.db.app, async (tx) => {
    await tx.execute(sql`select set_config('app.organization_id', ${a.id}, true)`);
    await createRole(tx, 'Action updater', [
      {
        name: 'Action',
        rAdd: true,
        rEdit: true,
        rView: true,
        rDestroy: false,
        isRevoke: false,
        isExtend: false,
        isClose: false,
        isReject: false,
        isApprove: false,
      },
    ]);
  });
  const orgs = createOrganizationService(t.deps.db.app);
  await orgs.createUser('closea', {
    email: 'manager@closea.test',
    fullName: 'Priya Manager',
    password: PASSWORD,
    roleName: 'Action updater',
  });
  ids.supervisor = (
    await orgs.createUser('closea', {
      email: 'supervisor@closea.test',
      fullName: 'Sam Supervisor',
      password: PASSWORD,
      roleName: 'Action updater',
    })
  ).id;
  siteId = await inTenant(t.deps.db.app, a.id, async (tx) => {
    const [row] = await tx
      .insert(sites)
      .values({
        name: 'Close Works',
        timeZone: 'Europe/London',
        emergencyPhone: '020 7946 0958',
        address: '1 Dock Road',
        city: 'Town',
        state: 'State',
        country: 'GB',
        zip: 'E16 2QU',
      })
      .returning({ id: sites.id });
    return row!.id;
  });
  adminA = await signIn(t, 'closea', a.adminEmail);
  managerA = await signIn(t, 'closea', 'manager@closea.test');
  supervisorA = await signIn(t, 'closea', 'supervisor@closea.test');
}, 60_000);

afterAll(async () => {
  await t?.close();
});

describe('the organisation setting', () => {
  it('is on by default, and only the admin reads or changes it', async () => {
    const read = await call(t, adminA, 'GET', '/api/action_settings');
    expect(read.statusCode, read.body).toBe(200);
    expect(read.json()).toEqual({ close_by_other: true });
    expect((await call(t, managerA, 'GET', '/api/action_settings')).statusCode).toBe(403);
    expect((await call(t, managerA, 'PUT', '/api/action_settings', { close_by_other: false })).statusCode).toBe(403);
    expect((await call(t, adminA, 'PUT', '/api/action_settings', { close_by_other: 'no' })).statusCode).toBe(400);
    expect((await call(t, adminA, 'GET', '/api/action_settings')).json()).toEqual({ close_by_other: true });
  });
});

describe('closing an action someone completed', () => {
  it('refuses the person who completed it, with a clear message in their language, and is not offered to them', async () => {
    const x = await completed(supervisorA);
    expect(x.completed_by?.id).toBe(ids.supervisor);
    expect(x.can.move_to).toEqual(['in_progress']);

    const refused = await patch(supervisorA, x.id, { status: 'closed' });
    expect(refused.statusCode).toBe(403);
    expect(refused.json().fields.status).toBe(en('actions.validation.closeByOther'));
    expect(refused.json().errors).toContain(en('actions.validation.closeByOther'));
    const inSpanish = await patch(supervisorA, x.id, { status: 'closed' }, 'es');
    expect(inSpanish.json().fields.status).toBe(translate('es', 'actions.validation.closeByOther'));

    const seen = (await call(t, managerA, 'GET', `/api/actions/${x.id}`)).json() as ActionDetail;
    expect(seen.can.move_to).toEqual(['closed', 'in_progress']);
    const closed = await patch(managerA, x.id, { status: 'closed' });
    expect(closed.statusCode, closed.body).toBe(200);
    expect(closed.json()).toMatchObject({ status: 'closed', completed_by: { id: ids.supervisor }, closed_by: { id: x.created_by!.id } });
  });

  it('binds the admin too while the rule is on', async () => {
    const x = await completed(adminA);
    expect(x.can.move_to).not.toContain('closed');
    const refused = await patch(adminA, x.id, { status: 'closed' });
    expect(refused.statusCode).toBe(403);
    expect(refused.json().fields.status).toBe(en('actions.validation.closeByOther'));
    expect((await patch(supervisorA, x.id, { status: 'closed' })).statusCode).toBe(200);
  });

  it('lets the person who completed it close it once the organisation turns the rule off', async () => {
    await setCloseByOther(false);
    try {
      const x = await completed(supervisorA);
      expect(x.can.move_to).toEqual(['closed', 'in_progress']);
      const closed = await patch(supervisorA, x.id, { status: 'closed' });
      expect(closed.statusCode, closed.body).toBe(200);
      expect(closed.json()).toMatchObject({ status: 'closed', closed_by: { id: ids.supervisor } });
    } finally {
      await setCloseByOther(true);
    }
    const again = await completed(supervisorA);
    expect((await patch(supervisorA, again.id, { status: 'closed' })).statusCode).toBe(403);
  });
});

describe('an action in progress', () => {
  it('is not reopened by hand', async () => {
    const raised = await call(t, managerA, 'POST', '/api/actions/', {
      description: 'Label the isolation valves',
      control_type: 'administrative',
      responsible_id: ids.supervisor,
      due_date: '2099-01-01',
      site_id: siteId,
    });
    const id = (raised.json() as ActionDetail).id;
    const started = await patch(supervisorA, id, { status: 'in_progress' });
    expect(started.json().can.move_to).toEqual(['completed']);
    expect((await patch(managerA, id, { status: 'open' })).statusCode).toBe(403);
  });
});
