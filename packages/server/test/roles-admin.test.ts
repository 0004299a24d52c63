import { translate } from '@bulwark/domain';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOrganizationService } from '../src/modules/organizations/service.js';
import { roles, users } from '../src/platform/db/schema.js';
import { PASSWORD, call, createOrg, createTestApp, signIn, type Session, type TestApp } from './helpers.js';

let t: TestApp;
let org: Awaited<ReturnType<typeof createOrg>>;

beforeAll(async () => {
  t = await createTestApp();
  org = await createOrg(t, 'grantadmin');
});
afterAll(() => t.close());

describe('a role that grants admin access (spec 001 §3 Role)', () => {
  it('makes its holders organisation admins while they hold it, and only then', async () => {
    const admin = await signIn(t, org.subDomain, org.adminEmail);
    const before = await signIn(t, org.subDomain, org.userEmail);
    expect((await call(t, before, 'GET', '/api/v2/users/user_profile')).json().user.is_admin).toBe(false);
    expect((await call(t, before, 'PUT', '/api/onboarding/timezone', { timezone: 'UTC' })).statusCode).toBe(403);

    const role = await call(t, admin, 'POST', '/api/roles', {
      name: 'Deputy admin',
      grants_admin: true,
      role_actions_attributes: [{ name: 'Observation', r_view: true }],
    });
    expect(role.statusCode, role.body).toBe(201);
    await t.deps.db.owner.update(users).set({ roleId: role.json().id }).where(eq(users.id, org.userId));
    const profile = await call(t, before, 'GET', '/api/v2/users/user_profile');
    expect(profile.json().user.is_admin).toBe(true);

    await call(t, admin, 'PATCH', `/api/roles/${role.json().id}`, { grants_admin: false });
    expect((await call(t, before, 'GET', '/api/v2/users/user_profile')).json().user.is_admin).toBe(false);
  });
});

/**
 * Issue 12, item 1: a non-admin holding Role create or update could make any role an admin role and so
 * make themself an organisation admin. Only an admin sets or clears "grants admin", and only an admin
 * changes or deletes a role that grants it.
 */
describe('only an administrator decides which roles grant admin access', () => {
  let manager: Session;
  let managerRole: string;
  let admin: Session;

  const roleRow = async (id: string) => (await t.deps.db.owner.select().from(roles).where(eq(roles.id, id)))[0];
  const en = (key: string) => translate('en', key);

  beforeAll(async () => {
    admin = await signIn(t, org.subDomain, org.adminEmail);
    const made = await call(t, admin, 'POST', '/api/roles', {
      name: 'Role manager',
      role_actions_attributes: [{ name: 'Role', r_view: true, r_add: true, r_edit: true, r_destroy: true }],
    });
    expect(made.statusCode, made.body).toBe(201);
    managerRole = made.json().id;
    const orgs = createOrganizationService(t.deps.db.app);
    await orgs.createUser(org.subDomain, {
      email: 'rolemanager@grantadmin.test',
      fullName: 'Rhea Roles',
      password: PASSWORD,
      roleName: 'Role manager',
    });
    manager = await signIn(t, org.subDomain, 'rolemanager@grantadmin.test');
  });

  it('refuses a non-admin creating an admin role, says why, and creates nothing', async () => {
    const res = await call(t, manager, 'POST', '/api/roles', { name: 'Backdoor', grants_admin: true, role_actions_attributes: [] });
    expect(res.statusCode, res.body).toBe(403);
    expect(res.json()).toMatchObject({
      code: 'forbidden',
      errors: [en('roles.errors.adminOnly')],
      fields: { grants_admin: en('roles.errors.adminOnly') },
    });
    expect(await t.deps.db.owner.select().from(roles).where(eq(roles.name, 'Backdoor'))).toEqual([]);
    for (const lang of ['es', 'tr', 'zh'] as const) {
      const again = await call(t, manager, 'POST', '/api/roles', { name: 'Backdoor', grants_admin: true }, { 'accept-language': lang });
      expect(again.json().errors).toEqual([translate(lang, 'roles.errors.adminOnly')]);
    }
  });

  it('refuses a non-admin making their own or any role an admin role; the holder stays a non-admin', async () => {
    const res = await call(t, manager, 'PATCH', `/api/roles/${managerRole}`, { grants_admin: true });
    expect(res.statusCode, res.body).toBe(403);
    expect(res.json().fields).toEqual({ grants_admin: en('roles.errors.adminOnly') });
    expect((await roleRow(managerRole))!.grantsAdmin).toBe(false);
    expect((await call(t, manager, 'GET', '/api/v2/users/user_profile')).json().user.is_admin).toBe(false);
  });

  it('lets a non-admin create and edit ordinary roles, sending grants_admin unchanged as the form does', async () => {
    const made = await call(t, manager, 'POST', '/api/roles', { name: 'Inspectors', grants_admin: false, role_actions_attributes: [] });
    expect(made.statusCode, made.body).toBe(201);
    const edited = await call(t, manager, 'PATCH', `/api/roles/${made.json().id}`, { name: 'Site inspectors', grants_admin: false });
    expect(edited.statusCode, edited.body).toBe(200);
    expect((await call(t, manager, 'DELETE', `/api/roles/${made.json().id}`)).statusCode).toBe(200);
  });

  it('refuses a non-admin changing or deleting a role that grants admin access', async () => {
    const made = await call(t, admin, 'POST', '/api/roles', { name: 'Site admins', grants_admin: true, role_actions_attributes: [] });
    expect(made.statusCode, made.body).toBe(201);
    const id = made.json().id as string;
    const before = await roleRow(id);
    for (const body of [
      { grants_admin: false },
      { name: 'Renamed admins' },
      { role_actions_attributes: [{ name: 'User', r_view: true, r_add: true, r_edit: true }] },
    ]) {
      const res = await call(t, manager, 'PATCH', `/api/roles/${id}`, body);
      expect(res.statusCode, `${JSON.stringify(body)}: ${res.body}`).toBe(403);
      expect(res.json().errors).toEqual([en('roles.errors.adminRole')]);
    }
    const del = await call(t, manager, 'DELETE', `/api/roles/${id}`);
    expect(del.statusCode).toBe(403);
    expect(del.json().errors).toEqual([en('roles.errors.adminRole')]);
    expect(await roleRow(id)).toEqual(before);
    // The administrator may.
    expect((await call(t, admin, 'PATCH', `/api/roles/${id}`, { grants_admin: false })).statusCode).toBe(200);
    expect((await call(t, admin, 'DELETE', `/api/roles/${id}`)).statusCode).toBe(200);
  });

  it('refuses anyone clearing "grants admin" of the role that makes the last active administrators', async () => {
    const lone = await createOrg(t, 'loneadmin');
    // The admin is an administrator through the Administrator role alone.
    await t.deps.db.owner.update(users).set({ isAdmin: false }).where(eq(users.id, lone.adminId));
    const s = await signIn(t, lone.subDomain, lone.adminEmail);
    const [adminRole] = await t.deps.db.owner
      .select()
      .from(roles)
      .where(and(eq(roles.organizationId, lone.id), eq(roles.name, 'Administrator')));
    const res = await call(t, s, 'PATCH', `/api/roles/${adminRole!.id}`, { grants_admin: false });
    expect(res.statusCode, res.body).toBe(409);
    expect(res.json()).toMatchObject({ errors: [en('roles.errors.lastAdmin')], fields: { grants_admin: en('roles.errors.lastAdmin') } });
    expect((await roleRow(adminRole!.id))!.grantsAdmin).toBe(true);
    expect((await call(t, s, 'GET', '/api/v2/users/user_profile')).json().user.is_admin).toBe(true);
  });
});
