import { siLocalDateTime, translate } from '@bulwark/domain';
import { sql } from 'drizzle-orm';
import { expect } from 'vitest';
import { asPlatform, inTenant } from '../src/platform/db/db.js';
import { createOrganizationService, createRole } from '../src/modules/organizations/service.js';
import { call, type createOrg, PASSWORD, signIn, type Session, type TestApp } from './helpers.js';

export const en = (key: string) => translate('en', key);
export type Org = Awaited<ReturnType<typeof createOrg>>;

/** A site of the organisation through the sites API, in the given time zone. */
export async function createSite(
  t: TestApp,
  admin: Session,
  headOfSafety: string,
  name: string,
  timeZone = 'Europe/London',
): Promise<string> {
  const res = await call(t, admin, 'POST', '/api/sites', {
    name,
    time_zone: timeZone,
    head_of_safety_id: headOfSafety,
    emergency_phone: '020 7946 0958',
    address: '1 Dock Road',
    city: 'London',
    state: 'Greater London',
    country: 'GB',
    zip: 'E16 2QU',
  });
  expect(res.statusCode, res.body).toBe(201);
  return (res.json() as { id: string }).id;
}

export async function createDivision(t: TestApp, admin: Session, siteId: string, name: string): Promise<string> {
  const res = await call(t, admin, 'POST', `/api/sites/${siteId}/divisions`, { name });
  expect(res.statusCode, res.body).toBe(201);
  return (res.json() as { id: string }).id;
}

/** A role with the given Observation rights, and a member holding it. */
export async function memberWithObservationRights(
  t: TestApp,
  org: Org,
  roleName: string,
  email: string,
  fullName: string,
  rights: { add?: boolean; edit?: boolean; destroy?: boolean },
) {
  await asPlatform(t.deps.db.app, async (tx) => {
    await tx.execute(sql`select set_config('app.organization_id', ${org.id}, true)`);
    await createRole(tx, roleName, [
      {
        name: 'Observation',
        rAdd: !!rights.add,
        rEdit: !!rights.edit,
        rView: true,
        rDestroy: !!rights.destroy,
        isRevoke: false,
        isExtend: false,
        isClose: false,
        isReject: false,
        isApprove: false,
      },
    ]);
  });
  const user = await createOrganizationService(t.deps.db.app).createUser(org.subDomain, { email, fullName, password: PASSWORD, roleName });
  return { id: user.id, session: await signIn(t, org.subDomain, email) };
}

/** The local date-time at a time zone, `hoursAgo` before now. */
export function localAgo(timeZone: string, hoursAgo: number): string {
  return siLocalDateTime(timeZone, new Date(Date.now() - hoursAgo * 3_600_000));
}

/** 'YYYY-MM-DD' at a time zone, `days` from today. */
export function dayFromToday(timeZone: string, days: number): string {
  const today = siLocalDateTime(timeZone).slice(0, 10);
  return new Date(Date.parse(`${today}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);
}

export async function countRows(
  t: TestApp,
  orgId: string,
  table: 'safety_interactions' | 'si_participants' | 'si_behaviours' | 'si_schedules' | 'actions',
): Promise<number> {
  const rows = await inTenant(t.deps.db.app, orgId, (tx) => tx.execute(sql`select count(*)::int as n from ${sql.identifier(table)}`));
  return (rows.rows[0] as { n: number }).n;
}

export function fieldsOf(res: { json: () => unknown }): Record<string, string> {
  return (res.json() as { fields?: Record<string, string> }).fields ?? {};
}
