import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { users } from '../src/platform/db/schema.js';
import { call, createOrg, createTestApp, signIn, type TestApp } from './helpers.js';

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
