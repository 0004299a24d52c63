import { afterAll, beforeAll } from 'vitest';
import type { Config } from '../src/platform/config.js';
import { createOrg, createTestApp, signIn, type Session, type TestApp } from './helpers.js';

/** An organisation of a test with its two people signed in: the admin (every right) and a reader. */
export type TestOrganization = Awaited<ReturnType<typeof createOrg>> & { admin: Session; user: Session };

export type TwoOrganizations = { t: TestApp; a: TestOrganization; b: TestOrganization };

async function organization(t: TestApp, subDomain: string): Promise<TestOrganization> {
  const org = await createOrg(t, subDomain);
  return { ...org, admin: await signIn(t, subDomain, org.adminEmail), user: await signIn(t, subDomain, org.userEmail) };
}

/**
 * The fixture most server test files need: the real app on a fresh database and two organisations,
 * A (the one the test works in) and B (the other tenant, whose people must never see A's records).
 * Call it at the top of a test file; its fields are filled before the first test runs.
 *
 *   const world = twoOrganizations('sites');
 *   it('…', () => call(world.t, world.a.admin, 'GET', '/api/sites'));
 */
export function twoOrganizations(prefix: string, overrides: Partial<Config> = {}): TwoOrganizations {
  const world = {} as TwoOrganizations;
  beforeAll(async () => {
    world.t = await createTestApp(overrides);
    world.a = await organization(world.t, `${prefix}a`);
    world.b = await organization(world.t, `${prefix}b`);
  });
  afterAll(async () => {
    await world.t?.close();
  });
  return world;
}
