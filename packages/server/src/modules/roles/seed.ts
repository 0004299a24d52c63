import { completeRoleMatrix, type RoleActionInput } from '@bulwark/domain';
import { sql } from 'drizzle-orm';
import { recordAudit } from '../../platform/audit.js';
import type { Tx } from '../../platform/db/db.js';
import { roleActions, roles } from '../../platform/db/schema.js';

type DemoRole = { name: string; isPowerUser: boolean; rights: RoleActionInput[] };

const ALL = { r_add: true, r_edit: true, r_view: true, r_destroy: true } as const;
const WORKFLOW = { is_revoke: true, is_extend: true, is_close: true, is_reject: true, is_approve: true } as const;
const VIEW = { r_view: true } as const;

/** Roles a real EHS organisation starts with; flags are normalised (every right implies view) on insert. */
export const DEMO_ROLES: readonly DemoRole[] = [
  {
    name: 'Safety manager',
    isPowerUser: true,
    rights: [
      ...(['Observation', 'Incident', 'Permit', 'Audit'] as const).map((name) => ({ name, ...ALL, ...WORKFLOW })),
      ...(['HIRA', 'Library', 'Action'] as const).map((name) => ({ name, ...ALL })),
      ...(['Site', 'Category', 'RC Master', 'Audit Template', 'Permit Form Setting', 'WorkFlow'] as const).map((name) => ({
        name,
        r_view: true,
        r_edit: true,
      })),
      { name: 'User', ...VIEW },
      { name: 'Role', ...VIEW },
    ],
  },
  {
    name: 'Site supervisor',
    isPowerUser: true,
    rights: [
      { name: 'Observation', r_add: true, r_edit: true, is_close: true },
      { name: 'Incident', r_add: true, r_edit: true },
      { name: 'Permit', r_add: true, r_edit: true, is_extend: true, is_close: true, is_revoke: true },
      { name: 'Action', r_add: true, r_edit: true },
      { name: 'Audit', ...VIEW },
      { name: 'HIRA', ...VIEW },
      { name: 'Library', ...VIEW },
      { name: 'Site', ...VIEW },
    ],
  },
  {
    name: 'Auditor',
    isPowerUser: true,
    rights: [
      { name: 'Audit', r_add: true, r_edit: true, is_close: true, is_approve: true, is_reject: true },
      { name: 'Audit Template', ...VIEW },
      { name: 'Action', r_add: true },
      { name: 'Observation', ...VIEW },
      { name: 'Library', ...VIEW },
    ],
  },
  {
    name: 'Contractor',
    isPowerUser: false,
    rights: [
      { name: 'Observation', r_add: true },
      { name: 'Permit', r_add: true },
      { name: 'Action', r_edit: true },
      { name: 'Library', ...VIEW },
    ],
  },
];

/**
 * Creates the demo roles in the organisation of the transaction (app.organization_id must be set).
 * Roles whose name already exists are left as they are, so running it twice changes nothing.
 * Returns every demo role's id by name.
 */
export async function seedDemoRoles(tx: Tx): Promise<Record<string, string>> {
  const ids: Record<string, string> = {};
  for (const demo of DEMO_ROLES) {
    const [existing] = await tx
      .select({ id: roles.id })
      .from(roles)
      .where(sql`lower(${roles.name}) = lower(${demo.name})`);
    if (existing) {
      ids[demo.name] = existing.id;
      continue;
    }
    const [role] = await tx.insert(roles).values({ name: demo.name, isPowerUser: demo.isPowerUser }).returning({ id: roles.id });
    const roleId = role!.id;
    await tx.insert(roleActions).values(
      completeRoleMatrix(demo.rights).map((r) => ({
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
      })),
    );
    await recordAudit(tx, {
      actorUserId: null,
      action: 'create',
      entity: 'Role',
      entityId: roleId,
      changes: { name: demo.name, seed: true },
    });
    ids[demo.name] = roleId;
  }
  return ids;
}
