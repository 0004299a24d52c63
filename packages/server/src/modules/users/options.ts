import { ROLE_SUBJECTS, isWorkflowSubject, type UserFormOptions, type UserPermissions } from '@bulwark/domain';
import { asc, eq, sql } from 'drizzle-orm';
import type { Principal } from '../../platform/auth/principal.js';
import type { Tx } from '../../platform/db/db.js';
import { roleActions, roles } from '../../platform/db/schema.js';
import { allSites } from '../sites/service.js';
import type { UsersService } from './service.js';

const WORKFLOW_RIGHTS = ['revoke', 'extend', 'close', 'reject', 'approve'] as const;

/** What the invite and profile forms offer: roles (admin roles for admins only) and active sites. */
export async function formOptions(tx: Tx, p: Principal): Promise<UserFormOptions> {
  const roleRows = await tx
    .select({ id: roles.id, name: roles.name, grants_admin: roles.grantsAdmin })
    .from(roles)
    .orderBy(asc(sql`lower(${roles.name})`));
  return {
    roles: roleRows.filter((role) => p.isAdmin || !role.grants_admin),
    sites: (await allSites(tx, { active: 'active' })).map((s) => ({ id: s.id, name: s.name })),
  };
}

/** A user's role matrix, read-only, with their special rights. */
export async function userPermissions(tx: Tx, service: UsersService, id: string): Promise<UserPermissions> {
  const row = await service.findRow(tx, id);
  const rows = row.roleId ? await tx.select().from(roleActions).where(eq(roleActions.roleId, row.roleId)) : [];
  return {
    user: { id: row.id, full_name: row.fullName, is_admin: row.isAdmin, can_issue_permit: row.canIssuePermit },
    role: row.roleId && row.roleName ? { id: row.roleId, name: row.roleName } : null,
    matrix: ROLE_SUBJECTS.map((subject) => {
      const ra = rows.find((x) => x.name === subject);
      return {
        subject,
        read: ra?.rView ?? false,
        create: ra?.rAdd ?? false,
        update: ra?.rEdit ?? false,
        delete: ra?.rDestroy ?? false,
        workflow: isWorkflowSubject(subject)
          ? WORKFLOW_RIGHTS.filter((a) => ra?.[`is${a[0]!.toUpperCase()}${a.slice(1)}` as 'isRevoke'] ?? false)
          : null,
      };
    }),
  };
}
