import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO, seedDemo } from '../src/seed.js';
import { call, createTestApp, signIn, type TestApp } from './helpers.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

describe('the demo organisation', () => {
  it('is seeded once, with the settings masters a working organisation has', async () => {
    expect(await seedDemo(t.deps.db.app)).toBe(true);
    expect(await seedDemo(t.deps.db.app)).toBe(false);
    const admin = await signIn(t, DEMO.subDomain, DEMO.admin.email, DEMO.password);
    const count = async (url: string, key: string) => ((await call(t, admin, 'GET', url)).json() as Record<string, unknown[]>)[key]!.length;
    expect(await count('/api/sites', 'sites')).toBeGreaterThanOrEqual(3);
    expect(await count('/api/roles', 'roles')).toBeGreaterThanOrEqual(4);
    expect(await count('/api/users', 'users')).toBeGreaterThanOrEqual(6);
    expect(await count('/api/categories', 'categories')).toBeGreaterThan(0);
    const profile = await call(t, admin, 'GET', '/api/v2/users/user_profile');
    expect(profile.json().organization.onboarding_pending).toBe(false);
    // A seeded colleague can sign in with the demo password.
    const priya = await signIn(t, DEMO.subDomain, 'priya.nair@demo.test', DEMO.password);
    expect((await call(t, priya, 'GET', '/api/v2/users/user_profile')).json().user.role_name).toBe('Safety manager');
    const tomasz = await signIn(t, DEMO.subDomain, 'tomasz.kowalski@demo.test', DEMO.password);
    expect((await call(t, tomasz, 'GET', '/api/v2/users/user_profile')).json().user.role_name).toBe('Site supervisor');
  });
});
