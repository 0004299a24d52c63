import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOrganizationService } from '../src/modules/organizations/service.js';
import { call, createOrg, createTestApp, PASSWORD, signIn, type TestApp } from './helpers.js';

let t: TestApp;
let a: Awaited<ReturnType<typeof createOrg>>;

beforeAll(async () => {
  t = await createTestApp();
  a = await createOrg(t, 'alpha');
  await createOrganizationService(t.deps.db.app).createPlatformAdmin({ email: 'root@platform.test', password: PASSWORD, fullName: 'Root' });
});
afterAll(() => t.close());

describe('the platform super admin', () => {
  it('signs in on the public tenant and acts only on Organization', async () => {
    const root = await signIn(t, 'public', 'root@platform.test');
    expect(root.profile.user.is_platform_admin).toBe(true);
    expect(root.profile.rules).toEqual([{ subject: 'Organization', actions: ['read', 'create', 'update', 'delete'] }]);
    expect(root.profile.organization).toBeNull();
    const list = await call(t, root, 'GET', '/api/organizations');
    expect(list.statusCode).toBe(200);
    expect(list.json().organizations.map((o: { sub_domain_name: string }) => o.sub_domain_name)).toContain('alpha');
    expect(list.body).not.toContain('"public"');
  });

  it('cannot sign in at an organisation’s address', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/v1/authorize',
      headers: { 'x-tenant': 'alpha' },
      payload: { email: 'root@platform.test', password: PASSWORD },
    });
    // The same answer as any failed sign-in (DECISIONS.md): the platform admin is unknown there.
    expect(res.json().code).toBe('sign_in_failed');
  });

  it('is the only one who may use the platform routes', async () => {
    const admin = await signIn(t, 'alpha', a.adminEmail);
    for (const [method, url] of [
      ['GET', '/api/organizations'],
      ['GET', `/api/organizations/${a.id}`],
      ['PATCH', `/api/organizations/${a.id}`],
      ['DELETE', `/api/organizations/${a.id}`],
    ] as const) {
      const res = await call(t, admin, method, url, method === 'PATCH' ? { organization_status: 'Inactive' } : undefined);
      expect(res.statusCode, `${method} ${url}`).toBe(403);
      expect(res.json().code).toBe('forbidden');
    }
  });

  it('deactivating an organisation ends its users’ sessions; reactivating lets them back', async () => {
    const root = await signIn(t, 'public', 'root@platform.test');
    const user = await signIn(t, 'alpha', a.userEmail);
    const off = await call(t, root, 'PATCH', `/api/organizations/${a.id}`, { organization_status: 'Inactive' });
    expect(off.json().organization_status).toBe('Inactive');
    const refused = await call(t, user, 'GET', '/api/users/user_profile');
    expect(refused.statusCode).toBe(403);
    expect(refused.json().code).toBe('organization_inactive');
    const signInNow = await t.app.inject({
      method: 'POST',
      url: '/api/v1/authorize',
      headers: { 'x-tenant': 'alpha' },
      payload: { email: a.userEmail, password: PASSWORD },
    });
    expect(signInNow.json().code).toBe('organization_inactive');
    await call(t, root, 'PATCH', `/api/organizations/${a.id}`, { organization_status: 'Active' });
    expect((await call(t, user, 'GET', '/api/users/user_profile')).statusCode).toBe(200);
  });

  it('a removed organisation disappears: its address is unknown and its sessions end', async () => {
    const doomed = await createOrg(t, 'doomed');
    const root = await signIn(t, 'public', 'root@platform.test');
    const user = await signIn(t, 'doomed', doomed.userEmail);
    expect((await call(t, root, 'DELETE', `/api/organizations/${doomed.id}`)).statusCode).toBe(200);
    const res = await call(t, user, 'GET', '/api/users/user_profile');
    expect(res.statusCode).toBe(404);
    expect(res.json().code).toBe('tenant_not_found');
    const lookup = await t.app.inject({ method: 'GET', url: '/api/v1/organizations/lookup?sub_domain=doomed' });
    expect(lookup.json()).toEqual({ found: false });
    expect((await call(t, root, 'GET', `/api/organizations/${doomed.id}`)).statusCode).toBe(404);
  });

  it('the organisation finder knows live organisations only', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/api/v1/organizations/lookup?sub_domain=ALPHA' })).json()).toEqual({ found: true });
    expect((await t.app.inject({ method: 'GET', url: '/api/v1/organizations/lookup?sub_domain=public' })).json()).toEqual({ found: false });
    expect((await t.app.inject({ method: 'GET', url: '/api/v1/organizations/lookup?sub_domain=' })).statusCode).toBe(400);
  });
});
