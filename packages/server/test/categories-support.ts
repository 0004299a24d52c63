import type { Subject } from '@bulwark/domain';
import { sql } from 'drizzle-orm';
import { asPlatform } from '../src/platform/db/db.js';
import { createOrganizationService, createRole } from '../src/modules/organizations/service.js';
import { PASSWORD, signIn, type Session, type TestApp } from './helpers.js';

type Grant = { subject: Subject; read?: boolean; create?: boolean; update?: boolean; delete?: boolean };

let roleCounter = 0;
/** A new user of the organisation holding a role with exactly these rights; signed in. */
export async function userWithRights(
  t: TestApp,
  org: { id: string; subDomain: string },
  grants: Grant[],
  isAdmin = false,
): Promise<{ id: string; session: Session }> {
  roleCounter += 1;
  const roleName = `Role ${roleCounter}`;
  await asPlatform(t.deps.db.app, async (tx) => {
    await tx.execute(sql`select set_config('app.organization_id', ${org.id}, true)`);
    await createRole(
      tx,
      roleName,
      grants.map((g) => ({
        name: g.subject,
        rAdd: !!g.create,
        rEdit: !!g.update,
        rView: !!g.read,
        rDestroy: !!g.delete,
        isRevoke: false,
        isExtend: false,
        isClose: false,
        isReject: false,
        isApprove: false,
      })),
    );
  });
  const email = `role${roleCounter}@${org.subDomain}.test`;
  const user = await createOrganizationService(t.deps.db.app).createUser(org.subDomain, {
    email,
    fullName: `Person ${roleCounter}`,
    password: PASSWORD,
    roleName,
    isAdmin,
  });
  return { id: user.id, session: await signIn(t, org.subDomain, email) };
}

/** Runs SQL as the owner inside one organisation (to look behind the API in assertions). */
export async function asOrg<T>(t: TestApp, orgId: string, query: ReturnType<typeof sql>): Promise<T[]> {
  return asPlatform(t.deps.db.app, async (tx) => {
    await tx.execute(sql`select set_config('app.organization_id', ${orgId}, true)`);
    const res = await tx.execute(query);
    return res.rows as T[];
  });
}
