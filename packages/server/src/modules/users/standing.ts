import { losesAdminAccess, mayChangeAdminStanding, type UserUpdateInput } from '@bulwark/domain';
import { activeAdminCount } from '../../platform/auth/admins.js';
import type { Principal } from '../../platform/auth/principal.js';
import type { Tx } from '../../platform/db/db.js';
import { AppError } from '../../platform/errors.js';
import { adminByFlagOrRole, type UserRow } from './records.js';

/**
 * Issue 12: only an administrator changes an administrator's role, status or admin flag; otherwise
 * anyone holding User update could demote or deactivate them and lock the organisation out of its
 * administration. The rule is the domain's (access/people.ts), which the users screens use too.
 */
export function checkAdminStanding(p: Principal, row: UserRow, body: UserUpdateInput): void {
  if (mayChangeAdminStanding(p, { admin_access: adminByFlagOrRole(row) })) return;
  const changed = (
    [
      ['role_id', body.role_id !== undefined && body.role_id !== row.roleId],
      ['status', body.status !== undefined && body.status !== row.status],
      ['is_admin', body.is_admin !== undefined && body.is_admin !== row.isAdmin],
    ] as const
  ).find(([, yes]) => yes)?.[0];
  if (changed) {
    throw new AppError('forbidden', {
      fields: { [changed]: 'users.validation.adminStanding' },
      messageKey: 'users.validation.adminStanding',
    });
  }
}

/**
 * The last active administrator is never demoted or deactivated, by anyone: refuses a change that
 * takes this user's admin access away (status, admin flag, or a role that no longer grants it) when
 * no other active administrator would remain. `newRoleGrantsAdmin` is the admin access of the role the
 * change gives (the current role's when the role does not change).
 */
export async function checkLastAdmin(tx: Tx, row: UserRow, body: UserUpdateInput, newRoleGrantsAdmin: boolean): Promise<void> {
  const before = { active: row.status === 'Active', isAdmin: row.isAdmin, roleGrantsAdmin: row.roleGrantsAdmin === true };
  const after = {
    active: (body.status ?? row.status) === 'Active',
    isAdmin: body.is_admin ?? row.isAdmin,
    roleGrantsAdmin: newRoleGrantsAdmin,
  };
  if (!losesAdminAccess(before, after)) return;
  if ((await activeAdminCount(tx, { userId: row.id }, true)) > 0) return;
  const field = !after.active ? 'status' : body.role_id !== undefined && body.role_id !== row.roleId ? 'role_id' : 'is_admin';
  throw new AppError('conflict', { fields: { [field]: 'users.validation.lastAdmin' }, messageKey: 'users.validation.lastAdmin' });
}
