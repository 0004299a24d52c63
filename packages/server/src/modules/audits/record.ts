import { auditAbilities, can, type AuditAbilities, type AuditTimelineEntry, type ReviewState } from '@bulwark/domain';
import { and, asc, eq, inArray } from 'drizzle-orm';
import type { Principal } from '../../platform/auth/principal.js';
import type { Tx } from '../../platform/db/db.js';
import { auditLog } from '../../platform/db/schema.js';
import { AppError } from '../../platform/errors.js';
import { actionStatusesOf } from '../actions/service.js';
import { reviewOf } from '../workflows/review.js';
import { AUDIT_ENTITY, namesOf, personOf } from './common.js';
import { audits } from './tables.js';

export type AuditRow = typeof audits.$inferSelect;

/** One audit with what the ability rules need, as the requester sees it. */
export type AuditContext = { row: AuditRow; viewerId: string; review: ReviewState | null; actionCount: number; abilities: AuditAbilities };

/** Loads one audit of the transaction's organisation (locked for a write), or "not found". */
export async function loadAudit(tx: Tx, id: string, forUpdate = false): Promise<AuditRow> {
  const q = tx.select().from(audits).where(eq(audits.id, id));
  const [row] = forUpdate ? await q.for('update') : await q;
  if (!row) throw new AppError('not_found');
  return row;
}

export async function auditContext(tx: Tx, viewer: Principal, id: string, forUpdate = false): Promise<AuditContext> {
  const row = await loadAudit(tx, id, forUpdate);
  const review = await reviewOf(tx, viewer, 'audits', row.id);
  const actionCount = ((await actionStatusesOf(tx, 'audit', [row.id])).get(row.id) ?? []).length;
  const abilities = auditAbilities(
    { status: row.status, started: row.startedAt !== null, markedOverdue: row.overdueAt !== null, auditorId: row.auditorId, actionCount },
    {
      userId: viewer.userId,
      canUpdate: can(viewer.access, 'Audit', 'update'),
      canDelete: can(viewer.access, 'Audit', 'delete'),
      mayDecide: review?.outcome === 'pending' && review.may_decide,
    },
  );
  return { row, viewerId: viewer.userId, review, actionCount, abilities };
}

/**
 * Refuses a step the viewer may not take: not the auditor (403 with the rule's text), or not possible in
 * the audit's status now (409).
 */
export function refuseStep(ctx: AuditContext, step: 'start' | 'resume' | 'answer' | 'complete'): void {
  if (ctx.abilities[step]) return;
  if (ctx.row.auditorId !== ctx.viewerId) throw new AppError('forbidden', { messageKey: 'audits.validation.notYourAudit' });
  if (step === 'answer') throw new AppError('conflict', { messageKey: 'audits.validation.notRunning' });
  throw new AppError('conflict', { messageKey: 'audits.validation.outOfOrder' });
}

/** Events of the audit log shown on the timeline (the per-answer history stays out of it). */
const TIMELINE_EVENTS = new Set([
  'created',
  'started',
  'resumed',
  'completed',
  'approved',
  'rejected',
  'overdue',
  'updated',
  'reassigned',
  'key_findings_added',
  'notes_updated',
  'critical_failure',
  'report_sent',
]);

/** The audit's timeline, oldest first: its own steps and every round of its review. */
export async function auditTimeline(tx: Tx, id: string, review: ReviewState | null): Promise<AuditTimelineEntry[]> {
  const logs = await tx
    .select()
    .from(auditLog)
    .where(and(eq(auditLog.entity, AUDIT_ENTITY), eq(auditLog.entityId, id)))
    .orderBy(asc(auditLog.createdAt), asc(auditLog.id));
  const own = logs.map((l) => ({ l, event: l.action.replace(/^audit_/, '') })).filter(({ event }) => TIMELINE_EVENTS.has(event));
  const names = await namesOf(
    tx,
    own.map(({ l }) => l.actorUserId),
  );
  const entries: AuditTimelineEntry[] = own.map(({ l, event }) => {
    const comment = (l.changes as { comment?: unknown }).comment;
    return {
      at: l.createdAt.toISOString(),
      event,
      actor: personOf(names, l.actorUserId),
      comment: typeof comment === 'string' ? comment : null,
    };
  });
  for (const e of review?.timeline ?? []) {
    // The round's outcome is the audit's own approved/rejected entry; each reviewer's step is the review's.
    if (e.kind === 'closed') continue;
    entries.push({ at: e.at, event: `review_${e.kind}`, actor: e.actor ?? e.reviewer, comment: e.comment });
  }
  return entries.sort((a, b) => a.at.localeCompare(b.at));
}

/** Audits by id, for lists that need their rows. */
export async function auditsByIds(tx: Tx, ids: readonly string[]): Promise<AuditRow[]> {
  return ids.length
    ? tx
        .select()
        .from(audits)
        .where(inArray(audits.id, [...ids]))
    : [];
}
