import type { LicenceModule, UserGender, UserShift } from '@bulwark/domain';
import { asc, eq, sql } from 'drizzle-orm';
import { hashPassword } from '../../platform/auth/passwords.js';
import type { Tx } from '../../platform/db/db.js';
import { roles, users } from '../../platform/db/schema.js';
import { allSites, setUserSites } from '../sites/service.js';
import { userDetails, userLicences } from './tables.js';

type DemoPerson = {
  email: string;
  fullName: string;
  employeeId: string;
  phone: string;
  gender: UserGender;
  shift: UserShift;
  roles: string[];
  canIssuePermit?: boolean;
  siTrained?: boolean;
  activated: boolean;
  licences: LicenceModule[];
};

/** Realistic staff of a manufacturing site: managers, supervisors, technicians, one invitation pending. */
const DEMO_PEOPLE: DemoPerson[] = [
  {
    email: 'priya.nair@demo.test',
    fullName: 'Priya Nair',
    employeeId: 'EMP-1002',
    phone: '+44 20 7946 0102',
    gender: 'female',
    shift: 'general',
    roles: ['Safety manager', 'Administrator'],
    canIssuePermit: true,
    siTrained: true,
    activated: true,
    licences: ['observations', 'incidents', 'permits', 'audits', 'hira', 'actions'],
  },
  {
    email: 'tomasz.kowalski@demo.test',
    fullName: 'Tomasz Kowalski',
    employeeId: 'EMP-1017',
    phone: '+44 161 496 0733',
    gender: 'male',
    shift: 'first',
    roles: ['Site supervisor', 'Safety observer'],
    canIssuePermit: true,
    siTrained: true,
    activated: true,
    licences: ['observations', 'permits', 'actions'],
  },
  {
    email: 'aisha.bello@demo.test',
    fullName: 'Aisha Bello',
    employeeId: 'EMP-1031',
    phone: '+44 113 496 0458',
    gender: 'female',
    shift: 'second',
    roles: ['Safety observer'],
    siTrained: true,
    activated: true,
    licences: ['observations', 'incidents'],
  },
  {
    email: 'li.wei@demo.test',
    fullName: 'Li Wei',
    employeeId: 'EMP-1046',
    phone: '+65 6123 4567',
    gender: 'male',
    shift: 'third',
    roles: ['Safety observer'],
    activated: true,
    licences: ['observations'],
  },
  {
    email: 'carmen.ruiz@demo.test',
    fullName: 'Carmen Ruiz',
    employeeId: 'EMP-1052',
    phone: '+34 912 345 678',
    gender: 'female',
    shift: 'general',
    roles: ['Auditor', 'Safety observer'],
    activated: false,
    licences: [],
  },
];

/**
 * Demo staff for the organisation of the transaction, each with a role (the first of its preferred
 * names that exists, else the organisation's first role), the organisation's first two active sites,
 * licences, and the password given for the activated ones (without one, all stay invitations); the last stays an invitation not yet
 * accepted (it shows on /newusers). People already present are left alone. Returns the new ids.
 */
export async function seedDemoUsers(tx: Tx, password?: string): Promise<string[]> {
  const roleRows = await tx.select({ id: roles.id, name: roles.name }).from(roles).orderBy(asc(roles.createdAt));
  if (roleRows.length === 0) return [];
  const siteIds = (await allSites(tx, { active: 'active' })).slice(0, 2).map((s) => s.id);
  const hash = password ? await hashPassword(password) : null;
  const ids: string[] = [];
  for (const person of DEMO_PEOPLE) {
    const [present] = await tx
      .select({ id: users.id })
      .from(users)
      .where(sql`lower(${users.email}) = ${person.email}`);
    if (present) continue;
    const role = person.roles.map((n) => roleRows.find((r) => r.name.toLowerCase() === n.toLowerCase())).find(Boolean) ?? roleRows[0]!;
    const [created] = await tx
      .insert(users)
      .values({
        // Without a demo password every person stays an invitation.
        email: person.email,
        fullName: person.fullName,
        passwordHash: person.activated ? hash : null,
        status: 'Active',
        roleId: role.id,
        canIssuePermit: person.canIssuePermit ?? false,
      })
      .returning({ id: users.id });
    const id = created!.id;
    await tx
      .update(userDetails)
      .set({
        employeeId: person.employeeId,
        phone: person.phone,
        gender: person.gender,
        shift: person.shift,
        siTrained: person.siTrained ?? false,
        invitedAt: new Date(),
      })
      .where(eq(userDetails.id, id));
    if (siteIds.length > 0) await setUserSites(tx, id, siteIds);
    if (person.licences.length > 0) await tx.insert(userLicences).values(person.licences.map((module) => ({ userId: id, module })));
    ids.push(id);
  }
  return ids;
}
