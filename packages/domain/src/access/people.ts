/**
 * Who may change whom (issue 12): the rules the users and roles services enforce and the web uses to
 * show only the controls a person may use. "Administrator" is the same test as the session's: the
 * user's own admin flag, or a role that grants admin access.
 */

/** What decides whether a person is an active administrator. */
export type AdminStanding = { active: boolean; isAdmin: boolean; roleGrantsAdmin: boolean };

/** An active administrator, by their own flag or by their role. */
export function hasAdminAccess(s: AdminStanding): boolean {
  return s.active && (s.isAdmin || s.roleGrantsAdmin);
}

/** Whether a change takes a person's admin access away (demoted, or deactivated while an administrator). */
export function losesAdminAccess(before: AdminStanding, after: AdminStanding): boolean {
  return hasAdminAccess(before) && !hasAdminAccess(after);
}

/**
 * Only an administrator changes an administrator's role, status or admin flag: otherwise anyone holding
 * User update could demote or deactivate them and lock the organisation out of its administration.
 * `adminAccess` is the target's flag or role, whatever their status (reactivating one is a change too).
 */
export function mayChangeAdminStanding(actor: { isAdmin: boolean }, target: { admin_access: boolean }): boolean {
  return actor.isAdmin || !target.admin_access;
}

/**
 * Only an administrator grants or removes a role's admin access, or changes or deletes a role that
 * grants it: otherwise anyone holding Role create or update could make themself an administrator.
 */
export function mayManageRole(actor: { isAdmin: boolean }, role: { grants_admin: boolean }): boolean {
  return actor.isAdmin || !role.grants_admin;
}

/** What the users screens may offer on one person, for the signed-in actor. */
export function personControls(
  actor: { userId: string; isAdmin: boolean; mayUpdate: boolean },
  target: { id: string; status: string; admin_access: boolean; last_admin: boolean },
): { role: boolean; status: boolean } {
  const self = actor.userId === target.id;
  const standing = actor.mayUpdate && mayChangeAdminStanding(actor, target);
  return {
    // Changing one's own role is changing one's own rights: only an administrator may.
    role: standing && (!self || actor.isAdmin),
    // Nobody deactivates themself, and the last active administrator stays active.
    status: standing && !self && !(target.status === 'Active' && target.last_admin),
  };
}
