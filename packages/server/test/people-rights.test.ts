import { translate, type Language } from '@bulwark/domain';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOrganizationService, createRole } from '../src/modules/organizations/service.js';
import { asPlatform, inTenant } from '../src/platform/db/db.js';
import { roles, sessions, users } from '../src/platform/db/schema.js';
import { PASSWORD, call, createOrg, createTestApp, signIn, type Session, type TestApp } from './helpers.js';

/**
 * Who may change whom (issue 12, item 2): a non-admin holding User update could demote or deactivate an
 * administrator and lock the organisation out of its administration. Only an administrator changes an
 * administrator's role, status or admin flag, and the last active administrator is never demoted or
 * deactivated, by anyone.
 */

let t: TestApp;
let org: Awaited<ReturnType<typeof createOrg>>;
let admin: Session;
let manager: Session;
const id = { manager: '', deputy: '', plain: '' };
const role = { admin: '', deputy: '', reader: '', manager: '' };

const none = {
  rAdd: false,
  rEdit: false,
  rView: false,
  rDestroy: false,
  isRevoke: false,
  isExtend: false,
  isClose: false,
  isReject: false,
};
const rights = (name: 'User' | 'Observation', add: boolean, edit: boolean) => ({
  ...none,
  isApprove: false,
  name,
  rView: true,
  rAdd: add,
  rEdit: edit,
});

async function inOrg<T>(orgId: string, fn: Parameters<typeof asPlatform<T>>[1]): Promise<T> {
  return asPlatform(t.deps.db.app, async (tx) => {
    await tx.execute(sql`select set_config('app.organization_id', ${orgId}, true)`);
    return fn(tx);
  });
}

const roleIdOf = async (orgId: string, name: string) =>
  (await inTenant(t.deps.db.app, orgId, (tx) => tx.select({ id: roles.id }).from(roles).where(eq(roles.name, name))))[0]!.id;

async function userRow(orgId: string, userId: string) {
  const [row] = await inTenant(t.deps.db.app, orgId, (tx) =>
    tx.select({ status: users.status, isAdmin: users.isAdmin, roleId: users.roleId }).from(users).where(eq(users.id, userId)),
  );
  return row!;
}

const en = (key: string) => translate('en', key);

beforeAll(async () => {
  t = await createTestApp();
  org = await createOrg(t, 'people');
  const orgs = createOrganizationService(t.deps.db.app);
  await inOrg(org.id, async (tx) => {
    await createRole(tx, 'User manager', [rights('User', true, true)]);
    // A deputy is an administrator through the role alone (no admin flag of their own).
    await createRole(tx, 'Deputy admin', [rights('User', true, true)], { grantsAdmin: true });
  });
  role.admin = await roleIdOf(org.id, 'Administrator');
  role.deputy = await roleIdOf(org.id, 'Deputy admin');
  role.reader = await roleIdOf(org.id, 'Reader');
  role.manager = await roleIdOf(org.id, 'User manager');
  id.manager = (
    await orgs.createUser('people', { email: 'manager@people.test', fullName: 'Uma Manager', password: PASSWORD, roleName: 'User manager' })
  ).id;
  id.deputy = (
    await orgs.createUser('people', { email: 'deputy@people.test', fullName: 'Dev Deputy', password: PASSWORD, roleName: 'Deputy admin' })
  ).id;
  id.plain = (
    await orgs.createUser('people', { email: 'plain@people.test', fullName: 'Pat Plain', password: PASSWORD, roleName: 'Reader' })
  ).id;
  admin = await signIn(t, 'people', org.adminEmail);
  manager = await signIn(t, 'people', 'manager@people.test');
});
afterAll(() => t.close());

describe('a non-admin holding User update, on an administrator', () => {
  it.each([
    ['the role of an admin by flag', () => org.adminId, () => ({ role_id: role.reader }), 'role_id'],
    ['the role of an admin by role', () => id.deputy, () => ({ role_id: role.reader }), 'role_id'],
    ['the status of an admin by flag', () => org.adminId, () => ({ status: 'Inactive' }), 'status'],
    ['the status of an admin by role', () => id.deputy, () => ({ status: 'Inactive' }), 'status'],
  ])('cannot change %s, and is told why; nothing changes', async (_, target, body, field) => {
    const before = await userRow(org.id, target());
    const res = await call(t, manager, 'PATCH', `/api/users/${target()}`, body());
    expect(res.statusCode, res.body).toBe(403);
    expect(res.json()).toMatchObject({ code: 'forbidden', fields: { [field]: en('users.validation.adminStanding') } });
    expect(res.json().errors).toEqual([en('users.validation.adminStanding')]);
    expect(await userRow(org.id, target())).toEqual(before);
  });

  it('leaves the admin signed in: a refused deactivation ends no session', async () => {
    await call(t, manager, 'PATCH', `/api/users/${org.adminId}`, { status: 'Inactive' });
    expect((await call(t, admin, 'GET', '/api/users/user_profile')).statusCode).toBe(200);
    const open = await inTenant(t.deps.db.app, org.id, (tx) => tx.select().from(sessions).where(eq(sessions.userId, org.adminId)));
    expect(open.some((s) => s.revokedAt === null)).toBe(true);
  });

  it('says it in the reader’s language', async () => {
    for (const lang of ['es', 'tr', 'zh'] as Language[]) {
      const res = await call(t, manager, 'PATCH', `/api/users/${id.deputy}`, { status: 'Inactive' }, { 'accept-language': lang });
      expect(res.json().errors).toEqual([translate(lang, 'users.validation.adminStanding')]);
      expect(translate(lang, 'users.validation.adminStanding')).not.toBe(en('users.validation.adminStanding'));
    }
  });

  it('may still change an admin’s other details, and a non-admin’s role and status', async () => {
    expect((await call(t, manager, 'PATCH', `/api/users/${id.deputy}`, { shift: 'second', role_id: role.deputy })).statusCode).toBe(200);
    expect((await call(t, manager, 'PATCH', `/api/users/${id.plain}`, { role_id: role.manager })).statusCode).toBe(200);
    expect((await call(t, manager, 'PATCH', `/api/users/${id.plain}`, { status: 'Inactive' })).statusCode).toBe(200);
    expect((await call(t, manager, 'PATCH', `/api/users/${id.plain}`, { status: 'Active', role_id: role.reader })).statusCode).toBe(200);
  });

  it('the user record says who is an administrator and whether they are the last one', async () => {
    const deputy = (await call(t, manager, 'GET', `/api/users/${id.deputy}`)).json();
    expect(deputy).toMatchObject({ is_admin: false, admin_access: true, last_admin: false });
    const plain = (await call(t, manager, 'GET', `/api/users/${id.plain}`)).json();
    expect(plain).toMatchObject({ admin_access: false, last_admin: false });
  });
});

describe('an administrator, on another administrator', () => {
  it('may change their role and status while another active admin remains', async () => {
    const deputy = await signIn(t, 'people', 'deputy@people.test');
    expect((await call(t, deputy, 'PATCH', `/api/users/${org.adminId}`, { shift: 'first' })).statusCode).toBe(200);
    expect((await call(t, admin, 'PATCH', `/api/users/${id.deputy}`, { role_id: role.reader })).statusCode).toBe(200);
    expect((await call(t, admin, 'PATCH', `/api/users/${id.deputy}`, { role_id: role.deputy })).statusCode).toBe(200);
  });
});

describe('the last active administrator (never demoted or deactivated, by anyone)', () => {
  let solo: Awaited<ReturnType<typeof createOrg>>;
  let soloAdmin: Session;
  let soloAdminRole: string;
  let soloReader: string;

  beforeAll(async () => {
    solo = await createOrg(t, 'solo');
    soloAdmin = await signIn(t, 'solo', solo.adminEmail);
    soloAdminRole = await roleIdOf(solo.id, 'Administrator');
    soloReader = await roleIdOf(solo.id, 'Reader');
  });

  it('is the last one, as the record says', async () => {
    expect((await call(t, soloAdmin, 'GET', `/api/users/${solo.adminId}`)).json()).toMatchObject({ admin_access: true, last_admin: true });
  });

  it('cannot lose admin access by a change of role, even when the admin flag goes with it', async () => {
    const res = await call(t, soloAdmin, 'PATCH', `/api/users/${solo.adminId}`, { is_admin: false, role_id: soloReader });
    expect(res.statusCode, res.body).toBe(409);
    expect(res.json()).toMatchObject({ errors: [en('users.validation.lastAdmin')], fields: { role_id: en('users.validation.lastAdmin') } });
    expect(await userRow(solo.id, solo.adminId)).toMatchObject({ isAdmin: true, roleId: soloAdminRole, status: 'Active' });
  });

  it('may drop the admin flag while the role still makes them an administrator, but not the role after it', async () => {
    expect((await call(t, soloAdmin, 'PATCH', `/api/users/${solo.adminId}`, { is_admin: false })).statusCode).toBe(200);
    const res = await call(t, soloAdmin, 'PATCH', `/api/users/${solo.adminId}`, { role_id: soloReader });
    expect(res.statusCode, res.body).toBe(409);
    expect(res.json().fields).toEqual({ role_id: en('users.validation.lastAdmin') });
    expect(await userRow(solo.id, solo.adminId)).toMatchObject({ isAdmin: false, roleId: soloAdminRole, status: 'Active' });
    expect((await call(t, soloAdmin, 'PATCH', `/api/users/${solo.adminId}`, { is_admin: true })).statusCode).toBe(200);
  });

  it('an admin by role alone, left the last one, cannot give up that role', async () => {
    const orgs = createOrganizationService(t.deps.db.app);
    const second = (
      await orgs.createUser('solo', { email: 'second@solo.test', fullName: 'Sam Second', password: PASSWORD, roleName: 'Administrator' })
    ).id;
    const secondSession = await signIn(t, 'solo', 'second@solo.test');
    // While two are active, one may deactivate the other.
    expect((await call(t, secondSession, 'PATCH', `/api/users/${solo.adminId}`, { status: 'Inactive' })).statusCode).toBe(200);
    const res = await call(t, secondSession, 'PATCH', `/api/users/${second}`, { role_id: soloReader });
    expect(res.statusCode, res.body).toBe(409);
    expect(res.json().errors).toEqual([en('users.validation.lastAdmin')]);
    expect(await userRow(solo.id, second)).toMatchObject({ roleId: soloAdminRole, status: 'Active' });
  });
});
