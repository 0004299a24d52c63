import { sql } from 'drizzle-orm';
import { asPlatform, type Db } from './platform/db/db.js';
import { organizations } from './platform/db/schema.js';
import { createRole, createOrganizationService } from './modules/organizations/service.js';
import { eq } from 'drizzle-orm';
import { seedDemoActions } from './modules/actions/seed.js';
import { seedDemoAudits } from './modules/audits/seed.js';
import { seedDemoCategories, seedDemoRootCauses } from './modules/categories/seed.js';
import { seedDemoIncidents } from './modules/incidents/seed.js';
import { seedDemoObservations } from './modules/observations/seed.js';
import { seedDemoPermits } from './modules/permits/seed.js';
import { seedDemoRoles } from './modules/roles/seed.js';
import { seedDemoSafetyInteractions } from './modules/safety-interactions/seed.js';
import { seedDemoSites } from './modules/sites/seed.js';
import { seedDemoUsers } from './modules/users/seed.js';
import { seedDemoWorkflows } from './modules/workflows/seed.js';

/** Demo-only credentials, printed at start and documented in the README as such. */
export const DEMO = {
  subDomain: 'demo',
  name: 'Demo Manufacturing Ltd',
  admin: { email: 'admin@demo.test', fullName: 'Dana Admin' },
  user: { email: 'user@demo.test', fullName: 'Uri Observer' },
  password: 'Demo#2026!',
} as const;

export async function hasCustomerOrganizations(db: Db): Promise<boolean> {
  const rows = await asPlatform(db, (tx) =>
    tx.select({ id: organizations.id }).from(organizations).where(eq(organizations.isPlatform, false)).limit(1),
  );
  return rows.length > 0;
}

/** Creates the demo organisation: an admin with every right, and a user who reads only observations and incidents. */
export async function seedDemo(db: Db): Promise<boolean> {
  const exists = await asPlatform(db, (tx) =>
    tx.select({ id: organizations.id }).from(organizations).where(eq(organizations.subDomainName, DEMO.subDomain)),
  );
  if (exists.length > 0) return false;
  const orgs = createOrganizationService(db);
  const { organization } = await orgs.createOrganization({
    subDomain: DEMO.subDomain,
    name: DEMO.name,
    admin: { email: DEMO.admin.email, fullName: DEMO.admin.fullName, password: DEMO.password },
  });
  await asPlatform(db, async (tx) => {
    await tx.execute(sql`select set_config('app.organization_id', ${organization.id}, true)`);
    await createRole(
      tx,
      'Safety observer',
      (['Observation', 'Incident'] as const).map((name) => ({
        name,
        rAdd: false,
        rEdit: false,
        rView: true,
        rDestroy: false,
        isRevoke: false,
        isExtend: false,
        isClose: false,
        isReject: false,
        isApprove: false,
      })),
    );
  });
  await orgs.createUser(DEMO.subDomain, {
    email: DEMO.user.email,
    fullName: DEMO.user.fullName,
    password: DEMO.password,
    roleName: 'Safety observer',
  });
  // The settings masters a working organisation has, in dependency order: people need roles and sites,
  // workflows need people and sites.
  await asPlatform(db, async (tx) => {
    await tx.execute(sql`select set_config('app.organization_id', ${organization.id}, true)`);
    await seedDemoRoles(tx);
    await seedDemoSites(tx);
    await seedDemoUsers(tx, DEMO.password);
    await seedDemoCategories(tx);
    await seedDemoRootCauses(tx);
    await seedDemoWorkflows(tx);
    await seedDemoActions(tx);
    await seedDemoObservations(tx);
    await seedDemoIncidents(tx);
    await seedDemoPermits(tx);
    await seedDemoSafetyInteractions(tx);
    await seedDemoAudits(tx);
  });
  return true;
}
