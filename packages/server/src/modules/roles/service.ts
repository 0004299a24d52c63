import {
  ROLE_FLAGS,
  ROLE_MATRIX_SUBJECTS,
  completeRoleMatrix,
  normalizeRoleRow,
  roleModuleKey,
  rolePermitRules,
  isWorkflowSubject,
  mayManageRole,
  type RoleActionInput,
  type RoleCreateBody,
  type RoleDetail,
  type RoleMatrixRow,
  type RoleSummary,
  type RoleSubject,
  type RoleUpdateBody,
} from '@bulwark/domain';
import { and, asc, count, desc, eq, ilike, ne, sql } from 'drizzle-orm';
import { activeAdminCount } from '../../platform/auth/admins.js';
import type { Principal } from '../../platform/auth/principal.js';
import { recordAudit } from '../../platform/audit.js';
import type { Tx } from '../../platform/db/db.js';
import { roleActions, roles, users } from '../../platform/db/schema.js';
import { AppError } from '../../platform/errors.js';
import { pageWindow, pagination, searchPattern, type ListQuery } from '../../platform/http/list.js';

const OFFERED = new Set<string>(ROLE_MATRIX_SUBJECTS);

type RoleRow = typeof roles.$inferSelect;
type StoredAction = typeof roleActions.$inferSelect;

function toMatrixRow(r: StoredAction): RoleMatrixRow {
  return normalizeRoleRow({
    name: r.name as RoleSubject,
    r_add: r.rAdd,
    r_edit: r.rEdit,
    r_view: r.rView,
    r_destroy: r.rDestroy,
    is_revoke: r.isRevoke,
    is_extend: r.isExtend,
    is_close: r.isClose,
    is_reject: r.isReject,
    is_approve: r.isApprove,
  });
}

function toStored(roleId: string, r: RoleMatrixRow) {
  return {
    roleId,
    name: r.name,
    rAdd: r.r_add,
    rEdit: r.r_edit,
    rView: r.r_view,
    rDestroy: r.r_destroy,
    isRevoke: r.is_revoke,
    isExtend: r.is_extend,
    isClose: r.is_close,
    isReject: r.is_reject,
    isApprove: r.is_approve,
  };
}

function summary(role: RoleRow, usersCount: number): RoleSummary {
  return {
    id: role.id,
    name: role.name,
    is_system: role.isSystem,
    is_power_user: role.isPowerUser,
    grants_admin: role.grantsAdmin,
    users_count: usersCount,
    created_at: role.createdAt.toISOString(),
    updated_at: role.updatedAt.toISOString(),
  };
}

/** The whole matrix of a role, one row per module (stored rows of modules no longer offered are ignored). */
async function loadMatrix(tx: Tx, roleId: string): Promise<RoleMatrixRow[]> {
  const stored = await tx.select().from(roleActions).where(eq(roleActions.roleId, roleId));
  return completeRoleMatrix(stored.filter((r) => OFFERED.has(r.name)).map(toMatrixRow));
}

async function usersHolding(tx: Tx, roleId: string): Promise<number> {
  const [row] = await tx.select({ n: count() }).from(users).where(eq(users.roleId, roleId));
  return Number(row?.n ?? 0);
}

async function findRole(tx: Tx, id: string, lock = false): Promise<RoleRow> {
  const q = tx.select().from(roles).where(eq(roles.id, id));
  // Row-level security hides other organisations' roles: their ids are simply not found.
  const [role] = lock ? await q.for('update') : await q;
  if (!role) throw new AppError('not_found');
  return role;
}

async function assertNameFree(tx: Tx, name: string, exceptId: string | null) {
  const [taken] = await tx
    .select({ id: roles.id })
    .from(roles)
    .where(and(sql`lower(${roles.name}) = lower(${name})`, exceptId ? ne(roles.id, exceptId) : undefined));
  if (taken) throw new AppError('conflict', { fields: { name: 'roles.validation.nameTaken' } });
}

function detail(role: RoleRow, usersCount: number, matrix: RoleMatrixRow[]): RoleDetail {
  return {
    ...summary(role, usersCount),
    organization_id: role.organizationId,
    role_actions_attributes: matrix.map((row) => ({
      ...row,
      key: roleModuleKey(row.name),
      // Every module is enabled in this build (spec 000 §1), so every row is active.
      status: 'Active' as const,
      workflow: isWorkflowSubject(row.name),
      permit_rules: rolePermitRules(row),
    })),
  };
}

/** Flag-by-flag differences between two matrices, for the change history. */
function matrixChanges(before: RoleMatrixRow[], after: RoleMatrixRow[]) {
  const changes: Array<{ module: RoleSubject; right: string; from: boolean; to: boolean }> = [];
  for (const row of after) {
    const old = before.find((b) => b.name === row.name);
    for (const flag of ROLE_FLAGS) {
      const from = old?.[flag] ?? false;
      if (from !== row[flag]) changes.push({ module: row.name, right: flag, from, to: row[flag] });
    }
  }
  return changes;
}

function merge(current: RoleMatrixRow[], listed: readonly RoleActionInput[]): RoleMatrixRow[] {
  const byName = new Map(listed.map((r) => [r.name, r]));
  return current.map((row) => {
    const input = byName.get(row.name);
    return input ? normalizeRoleRow(input) : row;
  });
}

async function writeMatrix(tx: Tx, roleId: string, matrix: RoleMatrixRow[]) {
  await tx.delete(roleActions).where(eq(roleActions.roleId, roleId));
  await tx.insert(roleActions).values(matrix.map((r) => toStored(roleId, r)));
}

/** Roles of the organisation with the number of users holding each; system roles first, then by name. */
export async function listRoles(tx: Tx, q: ListQuery) {
  const where = q.search ? ilike(roles.name, searchPattern(q.search)) : undefined;
  const holders = tx
    .select({ roleId: users.roleId, n: count().as('n') })
    .from(users)
    .groupBy(users.roleId)
    .as('holders');
  const [total] = await tx.select({ n: count() }).from(roles).where(where);
  const { limit, offset } = pageWindow(q);
  const rows = await tx
    .select({ role: roles, n: holders.n })
    .from(roles)
    .leftJoin(holders, eq(holders.roleId, roles.id))
    .where(where)
    .orderBy(desc(roles.isSystem), asc(sql`lower(${roles.name})`), asc(roles.id))
    .limit(limit)
    .offset(offset);
  const n = Number(total?.n ?? 0);
  return { roles: rows.map((r) => summary(r.role, Number(r.n ?? 0))), pagination: pagination(n, q.page, q.per_page) };
}

export async function getRole(tx: Tx, id: string): Promise<RoleDetail> {
  const role = await findRole(tx, id);
  return detail(role, await usersHolding(tx, id), await loadMatrix(tx, id));
}

/**
 * Issue 12: a role that grants admin access makes its holders administrators, so only an administrator
 * grants or removes it, or changes or deletes such a role (the domain's mayManageRole, which the web uses
 * too); otherwise anyone holding Role create or update could make themself an administrator.
 */
function refuseAdminSwitch(): never {
  throw new AppError('forbidden', { fields: { grants_admin: 'roles.errors.adminOnly' }, messageKey: 'roles.errors.adminOnly' });
}

function checkManageable(p: Principal, role: RoleRow): void {
  if (!mayManageRole(p, { grants_admin: role.grantsAdmin })) throw new AppError('forbidden', { messageKey: 'roles.errors.adminRole' });
}

/** Clearing "grants admin" must leave an active administrator: refused when this role is what makes the last ones. */
async function checkAdminsRemain(tx: Tx, roleId: string): Promise<void> {
  if ((await activeAdminCount(tx, { roleId }, true)) > 0) return;
  throw new AppError('conflict', { fields: { grants_admin: 'roles.errors.lastAdmin' }, messageKey: 'roles.errors.lastAdmin' });
}

export async function createRoleFromBody(tx: Tx, p: Principal, body: RoleCreateBody): Promise<RoleDetail> {
  if (body.grants_admin && !p.isAdmin) refuseAdminSwitch();
  await assertNameFree(tx, body.name, null);
  const [role] = await tx
    .insert(roles)
    .values({ name: body.name, isPowerUser: body.is_power_user, grantsAdmin: body.grants_admin, isSystem: false })
    .returning();
  const matrix = completeRoleMatrix(body.role_actions_attributes);
  await writeMatrix(tx, role!.id, matrix);
  await recordAudit(tx, {
    actorUserId: p.userId,
    action: 'create',
    entity: 'Role',
    entityId: role!.id,
    changes: {
      name: body.name,
      is_power_user: body.is_power_user,
      grants_admin: body.grants_admin,
      rights: matrixChanges(completeRoleMatrix([]), matrix),
    },
  });
  return detail(role!, 0, matrix);
}

/**
 * Changes a role. Listed modules are replaced, the others keep their rights. Returns the role and the
 * users holding it, whose sessions must hear that their rules changed (after commit).
 */
export async function updateRole(
  tx: Tx,
  p: Principal,
  id: string,
  body: RoleUpdateBody,
): Promise<{ role: RoleDetail; affectedUserIds: string[] }> {
  const role = await findRole(tx, id, true);
  checkManageable(p, role);
  const changes: Record<string, unknown> = {};
  const set: Partial<typeof roles.$inferInsert> = {};
  if (body.name !== undefined && body.name !== role.name) {
    if (role.isSystem) throw new AppError('system_record', { fields: { name: 'roles.errors.systemRename' } });
    await assertNameFree(tx, body.name, id);
    set.name = body.name;
    changes['name'] = { from: role.name, to: body.name };
  }
  if (body.is_power_user !== undefined && body.is_power_user !== role.isPowerUser) {
    set.isPowerUser = body.is_power_user;
    changes['is_power_user'] = { from: role.isPowerUser, to: body.is_power_user };
  }
  if (body.grants_admin !== undefined && body.grants_admin !== role.grantsAdmin) {
    if (!p.isAdmin) refuseAdminSwitch();
    if (!body.grants_admin) await checkAdminsRemain(tx, id);
    set.grantsAdmin = body.grants_admin;
    changes['grants_admin'] = { from: role.grantsAdmin, to: body.grants_admin };
  }
  const before = await loadMatrix(tx, id);
  let matrix = before;
  if (body.role_actions_attributes) {
    matrix = merge(before, body.role_actions_attributes);
    const rights = matrixChanges(before, matrix);
    if (rights.length > 0) {
      const [me] = await tx.select({ roleId: users.roleId }).from(users).where(eq(users.id, p.userId));
      const roleRights = matrix.find((r) => r.name === 'Role');
      // Removing one's own right to manage roles would leave no way back from this screen.
      if (me?.roleId === id && !(roleRights?.r_view && roleRights.r_edit)) {
        throw new AppError('conflict', { fields: { role_actions_attributes: 'roles.errors.selfLockout' } });
      }
      await writeMatrix(tx, id, matrix);
      changes['rights'] = rights;
    }
  }
  const changed = Object.keys(changes).length > 0;
  let saved = role;
  if (changed) {
    const [row] = await tx
      .update(roles)
      .set({ ...set, updatedAt: new Date() })
      .where(eq(roles.id, id))
      .returning();
    saved = row!;
    await recordAudit(tx, { actorUserId: p.userId, action: 'update', entity: 'Role', entityId: id, changes });
  }
  const holders = changed ? await tx.select({ id: users.id }).from(users).where(eq(users.roleId, id)) : [];
  return { role: detail(saved, await usersHolding(tx, id), matrix), affectedUserIds: holders.map((h) => h.id) };
}

export async function deleteRole(tx: Tx, p: Principal, id: string): Promise<void> {
  // The row lock waits for any user being given this role right now, so the count below is final.
  const role = await findRole(tx, id, true);
  checkManageable(p, role);
  if (role.isSystem) throw new AppError('system_record', { messageKey: 'roles.errors.systemDelete' });
  const holders = await usersHolding(tx, id);
  // The refusal says how many users still hold the role.
  if (holders > 0) throw new AppError('conflict', { messageKey: 'roles.errors.inUse', vars: { count: holders } });
  await tx.delete(roles).where(eq(roles.id, id));
  await recordAudit(tx, { actorUserId: p.userId, action: 'delete', entity: 'Role', entityId: id, changes: { name: role.name } });
}

/** Every role's id and name, for pickers of other modules (e.g. the user form). */
export async function roleOptions(tx: Tx): Promise<Array<{ id: string; name: string }>> {
  return tx
    .select({ id: roles.id, name: roles.name })
    .from(roles)
    .orderBy(asc(sql`lower(${roles.name})`));
}
