import type { LicenceModule, ModuleBasedUsers, RoleWiseUsers, Subject, UserBrief } from '@bulwark/domain';
import { and, asc, eq, inArray, sql, type SQL } from 'drizzle-orm';
import type { Tx } from '../../platform/db/db.js';
import { roleActions, roles, users } from '../../platform/db/schema.js';
import { administered } from './records.js';
import type { UserSiteLinks } from './site-links.js';
import { userDetails } from './tables.js';

/** The rights subject behind each licence module. */
export const LICENCE_SUBJECT: Record<LicenceModule, Subject> = {
  observations: 'Observation',
  incidents: 'Incident',
  permits: 'Permit',
  audits: 'Audit',
  hira: 'HIRA',
  library: 'Library',
  actions: 'Action',
};

const brief = {
  id: users.id,
  full_name: users.fullName,
  email: users.email,
  employee_id: userDetails.employeeId,
  role_name: roles.name,
  role_id: users.roleId,
};

/** Active users of the organisation, optionally narrowed; ordered by name. */
async function activeUsers(tx: Tx, where: SQL | undefined): Promise<Array<UserBrief & { role_id: string | null }>> {
  return tx
    .select(brief)
    .from(users)
    .leftJoin(roles, and(eq(roles.organizationId, users.organizationId), eq(roles.id, users.roleId)))
    .where(and(administered, eq(users.status, 'Active'), where))
    .orderBy(asc(sql`lower(${users.fullName})`), asc(users.id));
}

const strip = ({ role_id: _roleId, ...rest }: UserBrief & { role_id: string | null }): UserBrief => rest;

/** Users whose role may view the subject. */
function readsSubject(subject: Subject): SQL {
  return sql`exists (select 1 from ${roleActions} ra where ra.organization_id = ${users.organizationId}
    and ra.role_id = ${users.roleId} and ra.name = ${subject} and ra.r_view)`;
}

async function atSites(tx: Tx, links: UserSiteLinks, siteIds: string[] | null): Promise<SQL | undefined> {
  if (siteIds === null) return undefined;
  const ids = await links.userIdsAtSites(tx, siteIds);
  return ids.length > 0 ? inArray(users.id, ids) : sql`false`;
}

export function createUserGroups(links: UserSiteLinks) {
  async function allActive(tx: Tx): Promise<UserBrief[]> {
    return (await activeUsers(tx, undefined)).map(strip);
  }

  async function siTrained(tx: Tx): Promise<UserBrief[]> {
    return (await activeUsers(tx, eq(userDetails.siTrained, true))).map(strip);
  }

  /** Spec 000 §3: users, permit_users, inci_users, audit_users: active users whose role reads the module. */
  async function moduleBased(tx: Tx, siteIds: string[] | null = null): Promise<ModuleBasedUsers> {
    const site = await atSites(tx, links, siteIds);
    const of = async (subject: Subject) => (await activeUsers(tx, and(readsSubject(subject), site))).map(strip);
    return {
      users: await of('User'),
      permit_users: await of('Permit'),
      inci_users: await of('Incident'),
      audit_users: await of('Audit'),
    };
  }

  async function roleWise(tx: Tx): Promise<RoleWiseUsers> {
    const groups = new Map<string, RoleWiseUsers['roles'][number]>();
    for (const u of await activeUsers(tx, undefined)) {
      const key = u.role_id ?? '';
      const group = groups.get(key) ?? { role_id: u.role_id, role_name: u.role_name, users: [] };
      group.users.push(strip(u));
      groups.set(key, group);
    }
    return { roles: [...groups.values()].sort((a, b) => (a.role_name ?? '\uffff').localeCompare(b.role_name ?? '\uffff')) };
  }

  /** Active users of one site whose role reads the module. */
  async function moduleAtSite(tx: Tx, module: LicenceModule, siteId: string | null): Promise<UserBrief[]> {
    const site = await atSites(tx, links, siteId ? [siteId] : null);
    return (await activeUsers(tx, and(readsSubject(LICENCE_SUBJECT[module]), site))).map(strip);
  }

  return { allActive, siTrained, moduleBased, roleWise, moduleAtSite };
}
export type UserGroups = ReturnType<typeof createUserGroups>;
