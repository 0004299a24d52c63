import { LICENCE_MODULES, type LicenceCounts, type LicenceModule } from '@bulwark/domain';
import { and, count, eq, sql } from 'drizzle-orm';
import type { Principal } from '../../platform/auth/principal.js';
import { recordAudit } from '../../platform/audit.js';
import type { Tx } from '../../platform/db/db.js';
import { organizations, users } from '../../platform/db/schema.js';
import { AppError } from '../../platform/errors.js';
import { administered } from './records.js';
import { userLicences } from './tables.js';

/**
 * Licences per user per module (spec 001 §2, §6, §9). Each module has as many seats as the plan's
 * user_limit; used = licences held, unassigned = user_limit - used.
 */
export async function licenceCounts(tx: Tx): Promise<LicenceCounts> {
  const [org] = await tx
    .select({ limit: organizations.userLimit })
    .from(organizations)
    .where(eq(organizations.id, sql`app_current_org()`));
  const limit = org?.limit ?? 0;
  const rows = await tx.select({ module: userLicences.module, n: count() }).from(userLicences).groupBy(userLicences.module);
  const [active] = await tx
    .select({ n: count() })
    .from(users)
    .where(and(administered, eq(users.status, 'Active')));
  const used = new Map(rows.map((r) => [r.module, Number(r.n)]));
  return {
    user_limit: limit,
    active_users: Number(active?.n ?? 0),
    modules: LICENCE_MODULES.map((module) => {
      const u = used.get(module) ?? 0;
      return { module, used: u, unassigned: Math.max(0, limit - u), total: limit };
    }),
  };
}

export async function assignLicence(tx: Tx, p: Principal, userId: string, module: LicenceModule): Promise<void> {
  // The organisation row is locked so two assignments cannot both take the last seat.
  const [org] = await tx
    .select({ limit: organizations.userLimit })
    .from(organizations)
    .where(eq(organizations.id, sql`app_current_org()`))
    .for('update');
  const [user] = await tx
    .select({ status: users.status })
    .from(users)
    .where(and(eq(users.id, userId), administered));
  if (!user) throw new AppError('not_found');
  if (user.status !== 'Active') throw new AppError('conflict', { messageKey: 'users.validation.inactiveUser' });
  const [held] = await tx
    .select({ n: count() })
    .from(userLicences)
    .where(and(eq(userLicences.userId, userId), eq(userLicences.module, module)));
  if (Number(held?.n ?? 0) > 0) return;
  const [used] = await tx.select({ n: count() }).from(userLicences).where(eq(userLicences.module, module));
  if (Number(used?.n ?? 0) >= (org?.limit ?? 0)) throw new AppError('plan_limit_reached');
  await tx.insert(userLicences).values({ userId, module, assignedBy: p.userId });
  await recordAudit(tx, { actorUserId: p.userId, action: 'licence_assign', entity: 'User', entityId: userId, changes: { module } });
}

export async function unassignLicence(tx: Tx, p: Principal, userId: string, module: LicenceModule): Promise<void> {
  const [user] = await tx
    .select({ id: users.id })
    .from(users)
    .where(and(eq(users.id, userId), administered));
  if (!user) throw new AppError('not_found');
  const removed = await tx
    .delete(userLicences)
    .where(and(eq(userLicences.userId, userId), eq(userLicences.module, module)))
    .returning();
  if (removed.length > 0) {
    await recordAudit(tx, { actorUserId: p.userId, action: 'licence_unassign', entity: 'User', entityId: userId, changes: { module } });
  }
}

export async function licencesHeldBy(tx: Tx, userId: string): Promise<LicenceModule[]> {
  const rows = await tx.select({ module: userLicences.module }).from(userLicences).where(eq(userLicences.userId, userId));
  return LICENCE_MODULES.filter((m) => rows.some((r) => r.module === m));
}
