import { LICENCE_MODULES, type LicenceModule, type UserRecord } from '@bulwark/domain';
import { and, eq, inArray, ne } from 'drizzle-orm';
import type { Tx } from '../../platform/db/db.js';
import { roles, users } from '../../platform/db/schema.js';
import { fileUrl } from '../../platform/storage/storage.js';
import { userDetails, userLicences } from './tables.js';

/** The columns of one user row as this module reads them. */
export const userColumns = {
  id: users.id,
  email: users.email,
  fullName: users.fullName,
  status: users.status,
  isAdmin: users.isAdmin,
  canIssuePermit: users.canIssuePermit,
  roleId: users.roleId,
  roleName: roles.name,
  roleGrantsAdmin: roles.grantsAdmin,
  passwordHash: users.passwordHash,
  createdAt: users.createdAt,
  employeeId: userDetails.employeeId,
  phone: userDetails.phone,
  gender: userDetails.gender,
  shift: userDetails.shift,
  photoFileId: userDetails.photoFileId,
  siTrained: userDetails.siTrained,
  verifiedAt: userDetails.verifiedAt,
  invitedAt: userDetails.invitedAt,
};

/** users with this module's columns of the same row (userDetails names them) and the role's name. */
export function selectUsers(tx: Tx) {
  return tx
    .select(userColumns)
    .from(users)
    .leftJoin(roles, and(eq(roles.organizationId, users.organizationId), eq(roles.id, users.roleId)));
}
export type UserRow = Awaited<ReturnType<ReturnType<typeof selectUsers>['where']>>[number];

/**
 * Users the organisation administers: everyone but platform accounts, removed users and service accounts
 * (managed on the integrations screen, modules/api-tokens: they take no seat and no screen here may give
 * them a password or an e-mail).
 */
export const administered = and(eq(users.isPlatformAdmin, false), ne(users.status, 'Deleted'), eq(users.isIntegration, false))!;

/** An administrator by own flag or by role, whatever the status (the session's test, less "active"). */
export function adminByFlagOrRole(row: Pick<UserRow, 'isAdmin' | 'roleGrantsAdmin'>): boolean {
  return row.isAdmin || row.roleGrantsAdmin === true;
}

/** `lastAdmin`: this is the organisation's only active administrator (nobody may demote or deactivate them). */
export function toRecord(row: UserRow, siteIds: string[], licences: LicenceModule[], lastAdmin: boolean): UserRecord {
  return {
    id: row.id,
    email: row.email,
    full_name: row.fullName,
    employee_id: row.employeeId,
    phone: row.phone,
    gender: row.gender,
    shift: row.shift,
    role_id: row.roleId,
    role_name: row.roleName,
    site_ids: siteIds,
    status: row.status,
    is_admin: row.isAdmin,
    admin_access: adminByFlagOrRole(row),
    last_admin: lastAdmin,
    can_issue_permit: row.canIssuePermit,
    si_trained: row.siTrained,
    verified: row.verifiedAt !== null,
    photo_url: row.photoFileId ? fileUrl(row.photoFileId) : null,
    licences: [...licences].sort((a, b) => LICENCE_MODULES.indexOf(a) - LICENCE_MODULES.indexOf(b)),
    invited_at: row.invitedAt?.toISOString() ?? null,
    created_at: row.createdAt.toISOString(),
  };
}

export async function licencesOf(tx: Tx, userIds: string[]): Promise<Map<string, LicenceModule[]>> {
  const map = new Map<string, LicenceModule[]>();
  if (userIds.length === 0) return map;
  const rows = await tx
    .select({ userId: userLicences.userId, module: userLicences.module })
    .from(userLicences)
    .where(inArray(userLicences.userId, userIds));
  for (const r of rows) map.set(r.userId, [...(map.get(r.userId) ?? []), r.module]);
  return map;
}
