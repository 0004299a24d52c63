import { formatIncidentSerial, type IncidentRecord, type ReviewDecision } from '@bulwark/domain';
import { eq } from 'drizzle-orm';
import type { Principal } from '../../platform/auth/principal.js';
import { recordAudit } from '../../platform/audit.js';
import type { Tx } from '../../platform/db/db.js';
import { AppError } from '../../platform/errors.js';
import { decideReview, removeReviews, submitForReview, type ReviewRecord } from '../workflows/review.js';
import { ENTITY, type AfterCommit } from './create.js';
import { incidentPath, type IncidentsDeps } from './notify.js';
import { incidentContext, loadIncident, requireAbility } from './record.js';
import { incidentAttachments, incidentReportSends, incidents } from './tables.js';

function announce(deps: IncidentsDeps, organizationId: string, id: string) {
  deps.push.toOrganization(organizationId, { channel: 'incidents', change: 'updated', id });
}

/** How the review engine names and routes an incident: its site's workflow; a rejection goes back to the lead. */
export async function describeForReview(tx: Tx, id: string): Promise<ReviewRecord> {
  const o = await loadIncident(tx, id);
  const first = o.description.split(/\r?\n/)[0]!.trim();
  const short = first.length > 60 ? `${first.slice(0, 59).trimEnd()}…` : first;
  return { label: `${formatIncidentSerial(o.serial)} ${short}`, path: incidentPath(o.id), siteId: o.siteId, ownerId: o.leadId };
}

/** The engine's hook, in the deciding transaction: approved, or returned to the team. */
export async function onReviewDecided(
  tx: Tx,
  id: string,
  outcome: 'approved' | 'rejected',
  by: { userId: string; comment: string | null },
) {
  const o = await loadIncident(tx, id, true);
  const state = outcome === 'approved' ? 'approved' : 'returned';
  await tx.update(incidents).set({ investigationState: state, updatedAt: new Date() }).where(eq(incidents.id, id));
  await recordAudit(tx, {
    actorUserId: by.userId,
    action: outcome === 'approved' ? 'incident_approved' : 'incident_rejected',
    entity: ENTITY,
    entityId: id,
    changes: { diff: { investigation_state: { from: o.investigationState, to: state } }, comment: by.comment },
  });
}

/** PUT /api/incidents/{id}/record (step 7): the conclusion and lessons learned. */
export async function recordConclusion(
  tx: Tx,
  deps: IncidentsDeps,
  actor: Principal,
  id: string,
  body: IncidentRecord,
  now = new Date(),
): Promise<AfterCommit> {
  const ctx = await incidentContext(tx, actor, id, true);
  requireAbility(ctx, 'edit_investigation');
  const o = ctx.row;
  await tx
    .update(incidents)
    .set({ conclusion: body.conclusion, lessonsLearned: body.lessons_learned, updatedAt: now })
    .where(eq(incidents.id, o.id));
  await recordAudit(tx, {
    actorUserId: actor.userId,
    action: 'incident_record_updated',
    entity: ENTITY,
    entityId: o.id,
    changes: {
      diff: {
        ...(o.conclusion !== body.conclusion ? { conclusion: { from: o.conclusion, to: body.conclusion } } : {}),
        ...(o.lessonsLearned !== body.lessons_learned ? { lessons_learned: { from: o.lessonsLearned, to: body.lessons_learned } } : {}),
      },
    },
  });
  return async () => announce(deps, o.organizationId, o.id);
}

/** Which field of the steps each missing piece points to, for the form. */
const PROBLEM_FIELDS: Record<string, string> = {
  'incidents.validation.teamMissing': 'lead_id',
  'incidents.validation.factsMissing': 'timeline',
  'incidents.validation.factorsMissing': 'factors',
  'incidents.validation.rootCausesMissing': 'analyses',
  'incidents.validation.capaMissing': 'actions',
  'incidents.validation.conclusionMissing': 'conclusion',
};

/**
 * POST /api/incidents/{id}/submit: the lead or an Incident update holder sends the investigation to the
 * site's review workflow once every step is done (409 naming what is missing otherwise).
 */
export async function submitInvestigation(
  tx: Tx,
  deps: IncidentsDeps,
  actor: Principal,
  id: string,
  now = new Date(),
): Promise<AfterCommit> {
  const ctx = await incidentContext(tx, actor, id, true);
  const problems = ctx.abilities.submit_blocked_by;
  if (problems.length > 0) {
    throw new AppError('conflict', {
      messageKey: problems[0]!,
      fields: Object.fromEntries(problems.map((p) => [PROBLEM_FIELDS[p] ?? 'submit', p])),
    });
  }
  requireAbility(ctx, 'submit');
  const o = ctx.row;
  // Under review before the engine runs, so that a decision it takes at once (its hook) has the last word.
  await tx.update(incidents).set({ investigationState: 'under_review', updatedAt: now }).where(eq(incidents.id, o.id));
  await recordAudit(tx, {
    actorUserId: actor.userId,
    action: 'incident_submitted',
    entity: ENTITY,
    entityId: o.id,
    changes: { diff: { investigation_state: { from: o.investigationState, to: 'under_review' } } },
  });
  const { afterCommit } = await submitForReview(tx, deps, actor, 'incidents', o.id);
  return async () => {
    announce(deps, o.organizationId, o.id);
    await afterCommit();
  };
}

/** POST /api/incidents/{id}/decide: a reviewer approves, or rejects with the reason (the engine checks whose turn it is). */
export async function decideInvestigation(
  tx: Tx,
  deps: IncidentsDeps,
  actor: Principal,
  id: string,
  decision: ReviewDecision,
): Promise<AfterCommit> {
  const ctx = await incidentContext(tx, actor, id, true);
  if (ctx.row.status === 'closed') throw new AppError('conflict', { messageKey: 'incidents.validation.closedReadOnly' });
  if (ctx.row.investigationState !== 'under_review') throw new AppError('conflict', { messageKey: 'incidents.validation.notUnderReview' });
  const { afterCommit } = await decideReview(tx, deps, actor, 'incidents', ctx.row.id, decision);
  return async () => {
    announce(deps, ctx.row.organizationId, ctx.row.id);
    await afterCommit();
  };
}

/** POST /api/incidents/{id}/close: Incident close, once the investigation is approved (or none was required). */
export async function closeIncident(
  tx: Tx,
  deps: IncidentsDeps,
  actor: Principal,
  id: string,
  remarks: string,
  now = new Date(),
): Promise<AfterCommit> {
  const ctx = await incidentContext(tx, actor, id, true);
  const blocker = ctx.abilities.close_blocked_by;
  if (blocker === 'incidents.validation.closeRight') throw new AppError('forbidden', { messageKey: blocker });
  if (blocker) throw new AppError('conflict', { messageKey: blocker });
  const o = ctx.row;
  await tx
    .update(incidents)
    .set({ status: 'closed', closedAt: now, closedBy: actor.userId, closingRemarks: remarks, updatedAt: now })
    .where(eq(incidents.id, o.id));
  await recordAudit(tx, {
    actorUserId: actor.userId,
    action: 'incident_closed',
    entity: ENTITY,
    entityId: o.id,
    changes: { diff: { status: { from: o.status, to: 'closed' }, closing_remarks: { from: null, to: remarks } } },
  });
  return async () => announce(deps, o.organizationId, o.id);
}

/**
 * DELETE /api/incidents/{id}: Incident delete, while no CAPA action exists and the investigation was
 * never submitted (actions must not lose their source; a review is part of the record). Its files go.
 */
export async function deleteIncident(tx: Tx, deps: IncidentsDeps, actor: Principal, id: string): Promise<AfterCommit> {
  const ctx = await incidentContext(tx, actor, id, true);
  const o = ctx.row;
  if (o.status === 'closed') throw new AppError('conflict', { messageKey: 'incidents.validation.closedReadOnly' });
  if (ctx.actionCount > 0) throw new AppError('conflict', { messageKey: 'incidents.validation.hasActions' });
  if (!ctx.abilities.delete) throw new AppError('conflict', { messageKey: 'incidents.validation.reviewStarted' });
  const linked = await tx
    .select({ fileId: incidentAttachments.fileId })
    .from(incidentAttachments)
    .where(eq(incidentAttachments.incidentId, o.id));
  const sent = await tx
    .select({ fileId: incidentReportSends.fileId })
    .from(incidentReportSends)
    .where(eq(incidentReportSends.incidentId, o.id));
  await removeReviews(tx, 'incidents', o.id);
  await tx.delete(incidents).where(eq(incidents.id, o.id));
  const purges: Array<() => Promise<void>> = [];
  for (const fileId of [...linked.map((l) => l.fileId), ...sent.map((s) => s.fileId).filter((f): f is string => !!f)]) {
    const removed = await deps.storage.remove(tx, fileId);
    if (removed) purges.push(removed.purge);
  }
  await recordAudit(tx, {
    actorUserId: actor.userId,
    action: 'incident_deleted',
    entity: ENTITY,
    entityId: o.id,
    changes: { serial: o.serial, type: o.type, site_id: o.siteId, description: o.description },
  });
  return async () => {
    deps.push.toOrganization(o.organizationId, { channel: 'incidents', change: 'removed', id: o.id });
    await Promise.allSettled(purges.map((p) => p()));
  };
}
