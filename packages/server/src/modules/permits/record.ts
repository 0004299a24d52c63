import { formatPermitNumber, isDraftAuthor, isLiveStatus } from '@bulwark/domain';
import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import type { Principal } from '../../platform/auth/principal.js';
import type { Tx } from '../../platform/db/db.js';
import { auditLog } from '../../platform/db/schema.js';
import { AppError } from '../../platform/errors.js';
import { permitExtensions, permits, permitShares } from './tables.js';

export type PermitRow = typeof permits.$inferSelect;
export const PERMIT_ENTITY = 'Permit';

export const numberOf = (p: Pick<PermitRow, 'prefix' | 'serial'>) => formatPermitNumber(p.prefix, p.serial);

/** Who a draft is shared with. */
export async function sharesOf(tx: Tx, permitId: string): Promise<string[]> {
  const rows = await tx
    .select({ userId: permitShares.userId })
    .from(permitShares)
    .where(eq(permitShares.permitId, permitId))
    .orderBy(asc(permitShares.createdAt));
  return rows.map((r) => r.userId);
}

/**
 * One permit as this viewer may see it (locked for a write): a draft only for its requester and the
 * people it was shared with (spec 000 §6), anyone else is told it does not exist; guests see none.
 */
export async function loadPermit(
  tx: Tx,
  viewer: Principal,
  id: string,
  forUpdate = false,
): Promise<{ row: PermitRow; sharedWith: string[] }> {
  const q = tx.select().from(permits).where(eq(permits.id, id));
  const [row] = forUpdate ? await q.for('update') : await q;
  if (!row || viewer.kind === 'guest') throw new AppError('not_found');
  const sharedWith = await sharesOf(tx, row.id);
  if (row.status === 'draft' && !isDraftAuthor({ requesterId: row.requesterId ?? '', sharedWith }, viewer.userId)) {
    throw new AppError('not_found');
  }
  return { row, sharedWith };
}

/** The extension request of a permit that awaits its decision, if any. */
export async function pendingExtension(tx: Tx, permitId: string) {
  const [row] = await tx
    .select()
    .from(permitExtensions)
    .where(and(eq(permitExtensions.permitId, permitId), eq(permitExtensions.state, 'pending')));
  return row ?? null;
}

/**
 * The issuing officers of permits: everyone who approved the permit itself (each decision is recorded
 * as `permit_decision`; extensions are approved by the same workflow but issue nothing new), in order.
 */
export async function issuersOf(tx: Tx, permitIds: readonly string[]): Promise<Map<string, string[]>> {
  const out = new Map<string, string[]>();
  if (permitIds.length === 0) return out;
  const rows = await tx
    .select({ permitId: auditLog.entityId, actor: auditLog.actorUserId })
    .from(auditLog)
    .where(
      and(
        eq(auditLog.entity, PERMIT_ENTITY),
        eq(auditLog.action, 'permit_decision'),
        inArray(auditLog.entityId, [...permitIds]),
        sql`${auditLog.changes} ->> 'decision' = 'permit' and (${auditLog.changes} ->> 'approve')::boolean`,
      ),
    )
    .orderBy(asc(auditLog.createdAt), asc(auditLog.id));
  for (const r of rows) {
    if (!r.permitId || !r.actor) continue;
    const list = out.get(r.permitId) ?? [];
    if (!list.includes(r.actor)) list.push(r.actor);
    out.set(r.permitId, list);
  }
  return out;
}

/** "Not possible while the permit is …" (409), with the status in the reader's language. */
export function notAllowed(row: PermitRow): AppError {
  return new AppError('conflict', { messageKey: `permits.errors.notWhile.${row.status}` });
}

export { isLiveStatus };
