import type { PushEvent, RoleDetail, RolesListResponse } from '@bulwark/domain';
import { sql } from 'drizzle-orm';
import type { Socket } from 'socket.io-client';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createOrganizationService } from '../src/modules/organizations/service.js';
import { DEMO_ROLES, seedDemoRoles } from '../src/modules/roles/seed.js';
import { inTenant } from '../src/platform/db/db.js';
import { call, createOrg, listeningTestApp, signIn, type Session, type TestApp } from './helpers.js';
import { connectSocket, record, waitForItem } from './process-helpers.js';

let t: TestApp;
let url: string;
let a: Awaited<ReturnType<typeof createOrg>>;
let b: Awaited<ReturnType<typeof createOrg>>;
let adminA: Session;
let adminB: Session;
let userA: Session;
const open: Socket[] = [];

/** The real server on an ephemeral port (push needs a listening server); requests still use inject. */
beforeAll(async () => {
  ({ t, url } = await listeningTestApp());
  a = await createOrg(t, 'roles-a');
  b = await createOrg(t, 'roles-b');
  adminA = await signIn(t, a.subDomain, a.adminEmail);
  adminB = await signIn(t, b.subDomain, b.adminEmail);
  userA = await signIn(t, a.subDomain, a.userEmail);
});
afterEach(() => {
  for (const s of open.splice(0)) s.close();
});
afterAll(() => t?.close());

const list = async (s: Session, query = '') => {
  const res = await call(t, s, 'GET', `/api/roles${query}`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as RolesListResponse;
};
const roleByName = async (s: Session, name: string) =>
  (await list(s, `?search=${encodeURIComponent(name)}`)).roles.find((r) => r.name === name)!;
const rowsOf = (orgId: string, query: ReturnType<typeof sql>) =>
  inTenant(t.deps.db.app, orgId, async (tx) => (await tx.execute(query)).rows as Array<Record<string, unknown>>);
const roleCount = async (orgId: string) => Number((await rowsOf(orgId, sql`select count(*)::int as n from roles`))[0]!['n']);

async function create(s: Session, body: Record<string, unknown>) {
  return call(t, s, 'POST', '/api/roles', body);
}

describe('GET /api/roles', () => {
  it('lists the organisation’s roles with user counts, system roles first', async () => {
    const { roles, pagination } = await list(adminA);
    expect(roles.map((r) => [r.name, r.is_system, r.grants_admin, r.users_count])).toEqual([
      ['Administrator', true, true, 1],
      ['Reader', false, false, 1],
    ]);
    expect(pagination).toEqual({ page: 1, per_page: 25, total: 2, total_pages: 1 });
  });

  it('searches by name (case-insensitive, literal) and pages', async () => {
    expect((await list(adminA, '?search=READ')).roles.map((r) => r.name)).toEqual(['Reader']);
    expect((await list(adminA, '?search=%25')).roles).toEqual([]);
    const page2 = await list(adminA, '?per_page=1&page=2');
    expect(page2.roles.map((r) => r.name)).toEqual(['Reader']);
    expect(page2.pagination).toEqual({ page: 2, per_page: 1, total: 2, total_pages: 2 });
    const bad = await call(t, adminA, 'GET', '/api/roles?per_page=0');
    expect(bad.statusCode).toBe(400);
  });
});

describe('GET /api/roles/{id}', () => {
  it('answers the full matrix in the spec’s shape', async () => {
    const admin = await roleByName(adminA, 'Administrator');
    const res = await call(t, adminA, 'GET', `/api/roles/${admin.id}`);
    expect(res.statusCode).toBe(200);
    const role = res.json() as RoleDetail;
    expect(role.organization_id).toBe(a.id);
    expect(role.role_actions_attributes.map((r) => r.name)).toEqual([
      'User',
      'Site',
      'Role',
      'WorkFlow',
      'Category',
      'RC Master',
      'Audit Template',
      'Permit Form Setting',
      'Permit',
      'HIRA',
      'Library',
      'Observation',
      'Incident',
      'Action',
      'Audit',
    ]);
    const permit = role.role_actions_attributes.find((r) => r.name === 'Permit')!;
    expect(permit).toMatchObject({
      key: 'permit',
      status: 'Active',
      workflow: true,
      r_add: true,
      r_view: true,
      is_revoke: true,
      is_approve: true,
    });
    expect(permit.permit_rules).toEqual(['Revoke', 'Extend', 'Close', 'Reject', 'Approve'].map((name) => ({ name, is_allow: true })));
    const pfs = role.role_actions_attributes.find((r) => r.name === 'Permit Form Setting')!;
    expect(pfs).toMatchObject({ key: 'permit_form_setting', workflow: false, is_revoke: false, permit_rules: [] });
  });

  it('answers 404 for an unknown id and 400 for a malformed one', async () => {
    expect((await call(t, adminA, 'GET', '/api/roles/0190f000-0000-7000-8000-000000000000')).statusCode).toBe(404);
    expect((await call(t, adminA, 'GET', '/api/roles/not-a-uuid')).statusCode).toBe(400);
  });
});

describe('POST /api/roles', () => {
  it('creates a role; every right implies view; modules left out get nothing', async () => {
    const res = await create(adminA, {
      name: '  Site   supervisor ',
      is_power_user: true,
      role_actions_attributes: [
        { name: 'Observation', r_add: true },
        { name: 'Permit', is_close: true },
      ],
    });
    expect(res.statusCode, res.body).toBe(201);
    const role = res.json() as RoleDetail;
    expect(role).toMatchObject({ name: 'Site supervisor', is_power_user: true, grants_admin: false, is_system: false, users_count: 0 });
    const obs = role.role_actions_attributes.find((r) => r.name === 'Observation')!;
    expect(obs).toMatchObject({ r_add: true, r_view: true, r_edit: false, r_destroy: false });
    const permit = role.role_actions_attributes.find((r) => r.name === 'Permit')!;
    expect(permit).toMatchObject({ r_view: true, is_close: true, is_revoke: false });
    expect(permit.permit_rules.find((p) => p.name === 'Close')!.is_allow).toBe(true);
    expect(role.role_actions_attributes.filter((r) => r.r_view).map((r) => r.name)).toEqual(['Permit', 'Observation']);
    // What was stored is what GET answers.
    const again = (await call(t, adminA, 'GET', `/api/roles/${role.id}`)).json() as RoleDetail;
    expect(again).toEqual(role);
    const audit = await rowsOf(a.id, sql`select action, actor_user_id from audit_log where entity = 'Role' and entity_id = ${role.id}`);
    expect(audit).toEqual([{ action: 'create', actor_user_id: a.adminId }]);
  });

  it('validates each field with a translated message and writes nothing', async () => {
    const before = await roleCount(a.id);
    const cases: Array<[Record<string, unknown>, string, string]> = [
      [{}, 'name', 'This field is required.'],
      [{ name: '   ' }, 'name', 'This field is required.'],
      [{ name: 'Lead!' }, 'name', 'Use letters, digits, spaces and hyphens only.'],
      [{ name: 'x'.repeat(61) }, 'name', 'This is too long.'],
      [{ name: 'Ok', is_power_user: 'yes' }, 'is_power_user', 'This value is not valid.'],
      [{ name: 'Ok', grants_admin: 1 }, 'grants_admin', 'This value is not valid.'],
      [
        { name: 'Ok', role_actions_attributes: [{ name: 'Site' }, { name: 'Site' }] },
        'role_actions_attributes.1.name',
        'This module is listed twice.',
      ],
      [
        { name: 'Ok', role_actions_attributes: [{ name: 'Organization', r_view: true }] },
        'role_actions_attributes.0.name',
        'Unknown module.',
      ],
      [
        { name: 'Ok', role_actions_attributes: [{ name: 'Library', is_approve: true }] },
        'role_actions_attributes.0.is_approve',
        'This right exists only for incidents, observations, permits and audits.',
      ],
      [
        { name: 'Ok', role_actions_attributes: [{ name: 'Site', r_view: 'true' }] },
        'role_actions_attributes.0.r_view',
        'This value is not valid.',
      ],
    ];
    for (const [body, field, text] of cases) {
      const res = await create(adminA, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json().fields?.[field], `${JSON.stringify(body)} -> ${res.body}`).toBe(text);
    }
    const es = await call(t, adminA, 'POST', '/api/roles', { name: 'Jefe!' }, { 'accept-language': 'es' });
    expect(es.json().fields.name).toBe('Use solo letras, dígitos, espacios y guiones.');
    expect(await roleCount(a.id)).toBe(before);
  });

  it('refuses a name already used in the organisation, whatever its case', async () => {
    const before = await roleCount(a.id);
    const res = await create(adminA, { name: 'reader' });
    expect(res.statusCode).toBe(409);
    expect(res.json()).toMatchObject({ code: 'conflict', fields: { name: 'A role with this name already exists.' } });
    expect(await roleCount(a.id)).toBe(before);
    // Another organisation may use the same name.
    expect((await create(adminB, { name: 'Site supervisor' })).statusCode).toBe(201);
  });

  it('keeps letters of any script', async () => {
    const res = await create(adminA, { name: 'Güvenlik şefi 2' });
    expect(res.statusCode, res.body).toBe(201);
  });
});

describe('PATCH /api/roles/{id}', () => {
  it('renames and changes only the listed modules', async () => {
    const created = (
      await create(adminA, {
        name: 'Patch me',
        role_actions_attributes: [
          { name: 'Site', r_edit: true },
          { name: 'Audit', is_approve: true },
        ],
      })
    ).json() as RoleDetail;
    const res = await call(t, adminA, 'PATCH', `/api/roles/${created.id}`, {
      name: 'Patched',
      grants_admin: true,
      role_actions_attributes: [
        { name: 'Audit', r_view: false },
        { name: 'Library', r_destroy: true },
      ],
    });
    expect(res.statusCode, res.body).toBe(200);
    const role = res.json() as RoleDetail;
    expect(role).toMatchObject({ name: 'Patched', grants_admin: true });
    const on = role.role_actions_attributes.filter((r) => r.r_view).map((r) => [r.name, r.r_edit, r.r_destroy]);
    expect(on).toEqual([
      ['Site', true, false],
      ['Library', false, true],
    ]);
    expect(role.role_actions_attributes.find((r) => r.name === 'Audit')!.is_approve).toBe(false);
    const audit = await rowsOf(
      a.id,
      sql`select changes from audit_log where entity = 'Role' and entity_id = ${created.id} and action = 'update'`,
    );
    expect(audit).toHaveLength(1);
    const changes = audit[0]!['changes'] as { name: unknown; grants_admin: unknown; rights: unknown[] };
    expect(changes.name).toEqual({ from: 'Patch me', to: 'Patched' });
    expect(changes.grants_admin).toEqual({ from: false, to: true });
    expect(changes.rights).toContainEqual({ module: 'Audit', right: 'is_approve', from: true, to: false });
    expect(changes.rights).toContainEqual({ module: 'Library', right: 'r_destroy', from: false, to: true });
  });

  it('records nothing when nothing changes', async () => {
    const reader = await roleByName(adminA, 'Reader');
    const res = await call(t, adminA, 'PATCH', `/api/roles/${reader.id}`, {
      name: 'Reader',
      role_actions_attributes: [{ name: 'Incident', r_view: true }],
    });
    expect(res.statusCode).toBe(200);
    const audit = await rowsOf(a.id, sql`select 1 from audit_log where entity = 'Role' and entity_id = ${reader.id}`);
    expect(audit).toEqual([]);
  });

  it('refuses renaming a system role, but allows changing its rights', async () => {
    const admin = await roleByName(adminA, 'Administrator');
    const res = await call(t, adminA, 'PATCH', `/api/roles/${admin.id}`, { name: 'Boss' });
    expect(res.statusCode).toBe(409);
    expect(res.json()).toMatchObject({ code: 'system_record', fields: { name: 'A system role cannot be renamed.' } });
    expect((await roleByName(adminA, 'Administrator')).id).toBe(admin.id);
    const same = await call(t, adminA, 'PATCH', `/api/roles/${admin.id}`, {
      name: 'Administrator',
      role_actions_attributes: [{ name: 'Library', r_destroy: false, r_view: true, r_add: true, r_edit: true }],
    });
    expect(same.statusCode, same.body).toBe(200);
    const lib = (same.json() as RoleDetail).role_actions_attributes.find((r) => r.name === 'Library')!;
    expect(lib.r_destroy).toBe(false);
  });

  it('refuses a name taken by another role, and validates like create', async () => {
    const reader = await roleByName(adminA, 'Reader');
    const taken = await call(t, adminA, 'PATCH', `/api/roles/${reader.id}`, { name: 'ADMINISTRATOR' });
    expect(taken.statusCode).toBe(409);
    expect(taken.json().fields.name).toBe('A role with this name already exists.');
    const bad = await call(t, adminA, 'PATCH', `/api/roles/${reader.id}`, { name: 'Read*er' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().fields.name).toBe('Use letters, digits, spaces and hyphens only.');
    expect((await roleByName(adminA, 'Reader')).id).toBe(reader.id);
  });

  it('refuses removing one’s own right to view and edit roles', async () => {
    const admin = await roleByName(adminA, 'Administrator');
    const res = await call(t, adminA, 'PATCH', `/api/roles/${admin.id}`, { role_actions_attributes: [{ name: 'Role', r_view: true }] });
    expect(res.statusCode).toBe(409);
    expect(res.json()).toMatchObject({
      code: 'conflict',
      fields: { role_actions_attributes: 'You cannot remove your own right to view and edit roles.' },
    });
    const role = (await call(t, adminA, 'GET', `/api/roles/${admin.id}`)).json() as RoleDetail;
    expect(role.role_actions_attributes.find((r) => r.name === 'Role')).toMatchObject({ r_edit: true, r_view: true });
  });
});

describe('DELETE /api/roles/{id}', () => {
  it('deletes a role no one holds, with its rights and a history entry', async () => {
    const created = (
      await create(adminA, { name: 'Temporary', role_actions_attributes: [{ name: 'Site', r_view: true }] })
    ).json() as RoleDetail;
    const res = await call(t, adminA, 'DELETE', `/api/roles/${created.id}`);
    expect(res.statusCode, res.body).toBe(200);
    expect((await call(t, adminA, 'GET', `/api/roles/${created.id}`)).statusCode).toBe(404);
    expect(await rowsOf(a.id, sql`select 1 from role_actions where role_id = ${created.id}`)).toEqual([]);
    const audit = await rowsOf(
      a.id,
      sql`select action from audit_log where entity = 'Role' and entity_id = ${created.id} order by created_at`,
    );
    expect(audit.map((r) => r['action'])).toEqual(['create', 'delete']);
    expect((await call(t, adminA, 'DELETE', `/api/roles/${created.id}`)).statusCode).toBe(404);
  });

  it('refuses deleting a system role', async () => {
    const admin = await roleByName(adminA, 'Administrator');
    const res = await call(t, adminA, 'DELETE', `/api/roles/${admin.id}`);
    expect(res.statusCode).toBe(409);
    expect(res.json()).toMatchObject({ code: 'system_record', errors: ['A system role cannot be deleted.'] });
  });

  it('refuses deleting a role users hold, saying how many', async () => {
    const held = (await create(adminA, { name: 'Held twice' })).json() as RoleDetail;
    const orgs = createOrganizationService(t.deps.db.app);
    for (const n of [1, 2]) {
      await orgs.createUser(a.subDomain, {
        email: `held${n}@roles-a.test`,
        fullName: `Held ${n}`,
        password: 'Test#Pass1',
        roleName: 'Held twice',
      });
    }
    const res = await call(t, adminA, 'DELETE', `/api/roles/${held.id}`);
    expect(res.statusCode).toBe(409);
    expect(res.json()).toEqual({
      code: 'conflict',
      errors: ['This role is still held by users (2). Give them another role before deleting it.'],
    });
    const tr = await call(t, adminA, 'DELETE', `/api/roles/${held.id}`, undefined, { 'accept-language': 'tr' });
    expect(tr.json().errors[0]).toContain('(2)');
    expect((await roleByName(adminA, 'Held twice')).users_count).toBe(2);
  });
});

describe('rights', () => {
  it('a user without Role rights gets 403 on every call', async () => {
    const reader = await roleByName(adminA, 'Reader');
    expect((await call(t, userA, 'GET', '/api/roles')).statusCode).toBe(403);
    expect((await call(t, userA, 'GET', `/api/roles/${reader.id}`)).statusCode).toBe(403);
    expect((await call(t, userA, 'POST', '/api/roles', { name: 'Mine' })).statusCode).toBe(403);
    expect((await call(t, userA, 'PATCH', `/api/roles/${reader.id}`, { name: 'Mine' })).statusCode).toBe(403);
    expect((await call(t, userA, 'DELETE', `/api/roles/${reader.id}`)).statusCode).toBe(403);
    expect((await roleByName(adminA, 'Reader')).id).toBe(reader.id);
  });

  it('each call needs its own right: read only may list and view, nothing more', async () => {
    await create(adminA, { name: 'Role viewer', role_actions_attributes: [{ name: 'Role', r_view: true }] });
    const orgs = createOrganizationService(t.deps.db.app);
    await orgs.createUser(a.subDomain, {
      email: 'viewer@roles-a.test',
      fullName: 'Viewer',
      password: 'Test#Pass1',
      roleName: 'Role viewer',
    });
    const viewer = await signIn(t, a.subDomain, 'viewer@roles-a.test');
    const reader = await roleByName(adminA, 'Reader');
    expect((await call(t, viewer, 'GET', '/api/roles')).statusCode).toBe(200);
    expect((await call(t, viewer, 'GET', `/api/roles/${reader.id}`)).statusCode).toBe(200);
    expect((await call(t, viewer, 'POST', '/api/roles', { name: 'Nope' })).statusCode).toBe(403);
    expect((await call(t, viewer, 'PATCH', `/api/roles/${reader.id}`, { name: 'Nope' })).statusCode).toBe(403);
    expect((await call(t, viewer, 'DELETE', `/api/roles/${reader.id}`)).statusCode).toBe(403);
  });
});

describe('tenant isolation', () => {
  it('another organisation’s role is not found on GET, PATCH and DELETE, and never listed', async () => {
    const other = (await create(adminB, { name: 'Bravo only' })).json() as RoleDetail;
    const bravoReader = await roleByName(adminB, 'Reader');
    for (const id of [other.id, bravoReader.id]) {
      expect((await call(t, adminA, 'GET', `/api/roles/${id}`)).statusCode).toBe(404);
      expect((await call(t, adminA, 'PATCH', `/api/roles/${id}`, { name: 'Taken over' })).statusCode).toBe(404);
      expect((await call(t, adminA, 'DELETE', `/api/roles/${id}`)).statusCode).toBe(404);
    }
    expect((await list(adminA, '?per_page=200')).roles.map((r) => r.id)).not.toContain(other.id);
    expect((await call(t, adminB, 'GET', `/api/roles/${other.id}`)).json()).toMatchObject({ name: 'Bravo only' });
    expect((await list(adminB, '?search=reader')).roles[0]).toMatchObject({ id: bravoReader.id, name: 'Reader' });
    // The other way round too.
    const alphaReader = await roleByName(adminA, 'Reader');
    expect((await call(t, adminB, 'GET', `/api/roles/${alphaReader.id}`)).statusCode).toBe(404);
  });
});

describe('live rules', () => {
  it('a role change reaches its signed-in users at once, and only them', async () => {
    const userSocket = await connectSocket(url, { token: userA.token, tenant: userA.tenant });
    const adminSocket = await connectSocket(url, { token: adminA.token, tenant: adminA.tenant });
    open.push(userSocket, adminSocket);
    const userEvents = record<PushEvent>(userSocket, 'rules');
    const adminEvents = record<PushEvent>(adminSocket, 'rules');
    const before = (await call(t, userA, 'GET', '/api/users/user_profile')).json() as { rules: Array<{ subject: string }> };
    expect(before.rules.map((r) => r.subject)).not.toContain('Site');

    const reader = await roleByName(adminA, 'Reader');
    const res = await call(t, adminA, 'PATCH', `/api/roles/${reader.id}`, { role_actions_attributes: [{ name: 'Site', r_add: true }] });
    expect(res.statusCode, res.body).toBe(200);

    const event = await waitForItem(userEvents, (e) => e.channel === 'rules', 'rules event for the role holder');
    expect(event).toMatchObject({ channel: 'rules', change: 'updated' });
    // What the client reloads on that event now carries the new rights.
    const after = (await call(t, userA, 'GET', '/api/users/user_profile')).json() as {
      rules: Array<{ subject: string; actions: string[] }>;
    };
    expect(after.rules).toContainEqual({ subject: 'Site', actions: ['read', 'create'] });
    expect((await call(t, userA, 'GET', '/api/roles')).statusCode).toBe(403);
    // The admin holds another role: no rules event reaches them (events to one room are emitted together).
    await new Promise((r) => setTimeout(r, 200));
    expect(adminEvents).toEqual([]);
  });
});

describe('seedDemoRoles', () => {
  it('creates realistic roles once, with normalised rights', async () => {
    const first = await inTenant(t.deps.db.app, b.id, (tx) => seedDemoRoles(tx));
    const again = await inTenant(t.deps.db.app, b.id, (tx) => seedDemoRoles(tx));
    expect(again).toEqual(first);
    expect(Object.keys(first).sort()).toEqual(DEMO_ROLES.map((r) => r.name).sort());
    // "Site supervisor" already existed in bravo (created above): it was kept, not duplicated.
    const names = (await list(adminB, '?per_page=200')).roles.map((r) => r.name);
    expect(names.filter((n) => n === 'Site supervisor')).toHaveLength(1);
    const manager = (await call(t, adminB, 'GET', `/api/roles/${first['Safety manager']}`)).json() as RoleDetail;
    expect(manager.is_power_user).toBe(true);
    expect(manager.role_actions_attributes.find((r) => r.name === 'Permit')).toMatchObject({ r_add: true, is_approve: true, r_view: true });
    const contractor = (await call(t, adminB, 'GET', `/api/roles/${first['Contractor']}`)).json() as RoleDetail;
    expect(contractor.role_actions_attributes.find((r) => r.name === 'Observation')).toMatchObject({
      r_add: true,
      r_view: true,
      r_destroy: false,
    });
    expect(contractor.role_actions_attributes.find((r) => r.name === 'User')!.r_view).toBe(false);
  });
});
