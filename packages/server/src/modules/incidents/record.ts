import { can, incidentAbilities, type IncidentAbilities, type InvestigationSnapshot, type ReviewState } from '@bulwark/domain';
import { and, asc, count, eq, inArray } from 'drizzle-orm';
import { refuseUnlessOwnReport } from '../../platform/auth/guests.js';
import type { Principal } from '../../platform/auth/principal.js';
import type { Tx } from '../../platform/db/db.js';
import { AppError } from '../../platform/errors.js';
import { actionStatusesOf } from '../actions/service.js';
import { reviewOf } from '../workflows/review.js';
import { incidentFactorRootCauses, incidentFactors, incidentTeamMembers, incidentTimeline, incidents } from './tables.js';

export type IncidentRow = typeof incidents.$inferSelect;

/** One incident with everything the ability rules need, as the requester sees it. */
export type IncidentContext = {
  row: IncidentRow;
  memberIds: string[];
  snapshot: InvestigationSnapshot;
  actionCount: number;
  review: ReviewState | null;
  abilities: IncidentAbilities;
};

/** Loads one incident of the transaction's organisation (locked for a write), or "not found". */
export async function loadIncident(tx: Tx, id: string, forUpdate = false): Promise<IncidentRow> {
  const q = tx.select().from(incidents).where(eq(incidents.id, id));
  const [row] = forUpdate ? await q.for('update') : await q;
  if (!row) throw new AppError('not_found');
  return row;
}

export async function membersOf(tx: Tx, incidentIds: readonly string[]): Promise<Map<string, string[]>> {
  const out = new Map<string, string[]>();
  if (incidentIds.length === 0) return out;
  const rows = await tx
    .select({ incidentId: incidentTeamMembers.incidentId, userId: incidentTeamMembers.userId })
    .from(incidentTeamMembers)
    .where(inArray(incidentTeamMembers.incidentId, [...incidentIds]))
    .orderBy(asc(incidentTeamMembers.createdAt), asc(incidentTeamMembers.userId));
  for (const r of rows) out.set(r.incidentId, [...(out.get(r.incidentId) ?? []), r.userId]);
  return out;
}

async function countOf(tx: Tx, table: typeof incidentTimeline | typeof incidentFactors, id: string): Promise<number> {
  const [row] = await tx.select({ n: count() }).from(table).where(eq(table.incidentId, id));
  return Number(row?.n ?? 0);
}

/**
 * The incident as the ability rules see it, for `viewer`. A guest sees only a report it made
 * ("not found" otherwise); a guest edits nothing.
 */
export async function incidentContext(tx: Tx, viewer: Principal, id: string, forUpdate = false): Promise<IncidentContext> {
  const row = await loadIncident(tx, id, forUpdate);
  refuseUnlessOwnReport(viewer, row.reporterId);
  const memberIds = (await membersOf(tx, [row.id])).get(row.id) ?? [];
  const [roots] = await tx
    .select({ n: count() })
    .from(incidentFactorRootCauses)
    .innerJoin(
      incidentFactors,
      and(
        eq(incidentFactors.organizationId, incidentFactorRootCauses.organizationId),
        eq(incidentFactors.id, incidentFactorRootCauses.factorId),
      ),
    )
    .where(eq(incidentFactors.incidentId, row.id));
  const actionCount = ((await actionStatusesOf(tx, 'incident', [row.id])).get(row.id) ?? []).length;
  const snapshot: InvestigationSnapshot = {
    investigationRequired: row.investigationRequired,
    leadId: row.leadId,
    targetDate: row.targetDate,
    memberIds,
    timelineCount: await countOf(tx, incidentTimeline, row.id),
    factorCount: await countOf(tx, incidentFactors, row.id),
    rootCauseCount: Number(roots?.n ?? 0),
    capaCount: actionCount,
    conclusion: row.conclusion,
    state: row.investigationState,
  };
  const review = await reviewOf(tx, viewer, 'incidents', row.id);
  const guest = viewer.kind === 'guest';
  const abilities = incidentAbilities(
    {
      status: row.status,
      state: row.investigationState,
      investigationRequired: row.investigationRequired,
      leadId: row.leadId,
      memberIds,
      viewerMayDecide: !guest && review?.outcome === 'pending' && review.may_decide,
      actionCount,
      snapshot,
    },
    {
      userId: guest ? '' : viewer.userId,
      canUpdate: !guest && can(viewer.access, 'Incident', 'update'),
      canClose: !guest && can(viewer.access, 'Incident', 'close'),
      canDelete: !guest && can(viewer.access, 'Incident', 'delete'),
    },
  );
  return { row, memberIds, snapshot, actionCount, review, abilities };
}

/** Refuses with 403 and the rule's text when the requester may not do this now (409 when nobody may). */
export function requireAbility(
  ctx: IncidentContext,
  ability: keyof Omit<IncidentAbilities, 'submit_blocked_by' | 'close_blocked_by'>,
): void {
  if (ctx.abilities[ability]) return;
  const { row } = ctx;
  if (row.status === 'closed') throw new AppError('conflict', { messageKey: 'incidents.validation.closedReadOnly' });
  const investigating: readonly string[] = ['edit_team', 'edit_investigation', 'add_actions', 'submit'];
  if (!row.investigationRequired && investigating.includes(ability))
    throw new AppError('conflict', { messageKey: 'incidents.validation.noInvestigation' });
  if (row.investigationState === 'under_review' && ability !== 'decide')
    throw new AppError('conflict', { messageKey: 'incidents.validation.underReview' });
  if (row.investigationState === 'approved' && ability !== 'send_report')
    throw new AppError('conflict', { messageKey: 'incidents.validation.notEditable' });
  throw new AppError('forbidden', { messageKey: 'incidents.validation.notYours' });
}
