import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ONBOARDING_ROLE_PRESETS } from '@bulwark/domain';
import { organizations } from '../src/platform/db/schema.js';
import { call, createOrg, createTestApp, signIn, type Session, type TestApp } from './helpers.js';

let t: TestApp;
let org: Awaited<ReturnType<typeof createOrg>>;
let admin: Session;
let user: Session;

const site = (headId: string | null) => ({
  name: 'North Plant',
  time_zone: 'Europe/Madrid',
  head_of_safety_id: headId,
  emergency_phone: '+34 912 345 678',
  address: 'Calle Mayor 1',
  city: 'Madrid',
  state: 'Madrid',
  country: 'ES',
  zip: '28001',
});

beforeAll(async () => {
  t = await createTestApp();
  org = await createOrg(t, 'onboard');
  // A new organisation from sign-up starts with onboarding pending.
  await t.deps.db.owner.update(organizations).set({ onboardingCompletedAt: null }).where(eq(organizations.id, org.id));
  admin = await signIn(t, org.subDomain, org.adminEmail);
  user = await signIn(t, org.subDomain, org.userEmail);
});
afterAll(() => t.close());

describe('onboarding wizard (spec 000 §2 /onboarding)', () => {
  it('starts at the time zone and refuses to finish while required steps are open', async () => {
    const status = await call(t, admin, 'GET', '/api/onboarding');
    expect(status.json()).toMatchObject({
      pending: true,
      next: 'timezone',
      steps: { timezone: false, site: false, headOfSafety: false, invite: false },
    });
    const done = await call(t, admin, 'POST', '/api/onboarding/complete');
    expect(done.statusCode).toBe(400);
    expect(Object.keys(done.json().fields).sort()).toEqual(['headOfSafety', 'site', 'timezone']);
    // Roles: the test organisation already has the "Reader" role, so that step counts as done.
  });

  it('lets only the admin act; a plain member waits', async () => {
    expect((await call(t, user, 'GET', '/api/onboarding')).statusCode).toBe(200);
    expect((await call(t, user, 'PUT', '/api/onboarding/timezone', { timezone: 'Europe/Madrid' })).statusCode).toBe(403);
    expect((await call(t, user, 'POST', '/api/onboarding/complete')).statusCode).toBe(403);
  });

  it('refuses an unknown time zone with a translated field message, and saves a real one', async () => {
    const bad = await call(t, admin, 'PUT', '/api/onboarding/timezone', { timezone: 'Mars/Olympus' }, { 'accept-language': 'es' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().fields.timezone).toBe('Seleccione una zona horaria.');
    const ok = await call(t, admin, 'PUT', '/api/onboarding/timezone', { timezone: 'Europe/Madrid' });
    expect(ok.json()).toMatchObject({ timezone: 'Europe/Madrid', steps: { timezone: true }, next: 'site' });
    const profile = await call(t, admin, 'GET', '/api/v2/users/user_profile');
    expect(profile.json().organization.timezone).toBe('Europe/Madrid');
  });

  it('cannot confirm a head of safety before a site exists', async () => {
    const res = await call(t, admin, 'POST', '/api/onboarding/steps/headOfSafety');
    expect(res.statusCode).toBe(400);
    expect(res.json().fields.site).toBeTruthy();
  });

  it('counts the first site, then the confirmed head of safety, then finishes for everyone', async () => {
    const created = await call(t, admin, 'POST', '/api/sites', site(org.adminId));
    expect(created.statusCode, created.body).toBe(201);
    expect((await call(t, admin, 'GET', '/api/onboarding')).json()).toMatchObject({
      steps: { site: true, headOfSafety: false },
      next: 'headOfSafety',
    });

    const confirmed = await call(t, admin, 'POST', '/api/onboarding/steps/headOfSafety');
    expect(confirmed.statusCode).toBe(200);
    expect(confirmed.json().steps.headOfSafety).toBe(true);

    const role = await call(t, admin, 'POST', '/api/roles', {
      name: 'Safety manager',
      role_actions_attributes: ONBOARDING_ROLE_PRESETS.safetyManager,
    });
    expect(role.statusCode, role.body).toBe(201);
    expect((await call(t, admin, 'POST', '/api/onboarding/steps/invite')).json().next).toBeNull();

    const done = await call(t, admin, 'POST', '/api/onboarding/complete');
    expect(done.statusCode).toBe(200);
    expect(done.json().pending).toBe(false);
    const profile = await call(t, user, 'GET', '/api/v2/users/user_profile');
    expect(profile.json().organization.onboarding_pending).toBe(false);
    // Finished is finished: the steps cannot be replayed.
    expect((await call(t, admin, 'PUT', '/api/onboarding/timezone', { timezone: 'UTC' })).statusCode).toBe(409);
  });
});
