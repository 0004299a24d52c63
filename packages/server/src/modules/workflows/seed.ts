import type { ReviewModule } from '@bulwark/domain';
import { and, asc, desc, eq, sql } from 'drizzle-orm';
import type { Tx } from '../../platform/db/db.js';
import { users } from '../../platform/db/schema.js';
import type { ReviewRecord } from './review.js';
import { reviewEvents, reviewReviewers, reviewRounds, workflowReviewers, workflowSites, workflows } from './tables.js';
import { sites } from '../sites/read.js';

/**
 * Demo workflows for the transaction's organisation, built from the people and sites it already has:
 * none when it has no active user or no site (workflows need both), none when it has workflows already.
 */
export async function seedDemoWorkflows(tx: Tx): Promise<number> {
  const existing = await tx.select({ id: workflows.id }).from(workflows).limit(1);
  if (existing.length > 0) return 0;
  const people = await tx
    .select({ id: users.id, isAdmin: users.isAdmin })
    .from(users)
    .where(and(eq(users.status, 'Active'), eq(users.isPlatformAdmin, false)))
    .orderBy(asc(users.createdAt), asc(users.id));
  const siteRows = await tx.select({ id: sites.id }).from(sites).where(eq(sites.isActive, true));
  if (people.length === 0 || siteRows.length === 0) return 0;
  const admin = people.find((u) => u.isAdmin) ?? people[0]!;
  const others = people
    .filter((u) => u.id !== admin.id)
    .slice(0, 2)
    .map((u) => u.id);
  const plans = [
    {
      title: 'Permit approval',
      module: 'permits' as const,
      type: 'sequential' as const,
      leadTimeHours: 24,
      reviewers: [...others, admin.id].slice(0, 3),
    },
    {
      title: 'Incident investigation review',
      module: 'incidents' as const,
      type: 'parallel' as const,
      leadTimeHours: 72,
      reviewers: [admin.id, ...others],
    },
    { title: 'Audit report approval', module: 'audits' as const, type: 'sequential' as const, leadTimeHours: 48, reviewers: [admin.id] },
  ];
  for (const plan of plans) {
    const [row] = await tx
      .insert(workflows)
      .values({
        title: plan.title,
        module: plan.module,
        type: plan.type,
        leadTimeHours: plan.leadTimeHours,
        formIds: [],
        escalationUserId: plan.reviewers.includes(admin.id) ? null : admin.id,
      })
      .returning({ id: workflows.id });
    await tx.insert(workflowReviewers).values(plan.reviewers.map((userId, i) => ({ workflowId: row!.id, userId, position: i + 1 })));
    await tx.insert(workflowSites).values(siteRows.map((s) => ({ workflowId: row!.id, siteId: s.id })));
  }
  return plans.length;
}

/**
 * A demo record's first review round as the engine leaves it, written without mail for a seed: the
 * workflow the engine would match (one naming the record's form, else its site), the record's owner
 * skipped, and the round waiting for its first reviewer or decided by them. With no workflow, or no
 * reviewer left, the approve right decides (`approver`). Answers who decides (or decided).
 */
export async function seedReviewRound(
  tx: Tx,
  module: ReviewModule,
  recordId: string,
  record: ReviewRecord,
  review: { submittedAt: Date; outcome: 'pending' | 'approved' | 'rejected'; decidedAt?: Date; comment?: string | null; approver: string },
): Promise<string> {
  const byForm = record.formId ? sql<boolean>`${record.formId}::uuid = any(${workflows.formIds})` : sql<boolean>`false`;
  const [workflow] = await tx
    .select()
    .from(workflows)
    .where(
      and(
        eq(workflows.module, module),
        sql`(${byForm} or exists (select 1 from ${workflowSites} where ${workflowSites.workflowId} = ${workflows.id} and ${workflowSites.siteId} = ${record.siteId}::uuid))`,
      ),
    )
    .orderBy(desc(byForm), asc(workflows.createdAt), asc(workflows.id))
    .limit(1);
  const reviewers = workflow
    ? await tx
        .select()
        .from(workflowReviewers)
        .where(eq(workflowReviewers.workflowId, workflow.id))
        .orderBy(asc(workflowReviewers.position))
    : [];
  const own = (userId: string) => userId === record.ownerId;
  const first = reviewers.find((r) => !own(r.userId));
  const mode = workflow && first ? 'workflow' : 'approve_right';
  const decider = first?.userId ?? review.approver;
  const decided = review.outcome === 'pending' ? null : (review.decidedAt ?? review.submittedAt);
  const comment = review.comment ?? null;
  const [round] = await tx
    .insert(reviewRounds)
    .values({
      module,
      recordId,
      round: 1,
      mode,
      workflowId: workflow?.id ?? null,
      workflowTitle: workflow?.title ?? null,
      workflowType: workflow?.type ?? null,
      leadTimeHours: workflow?.leadTimeHours ?? null,
      escalationUserId: workflow?.escalationUserId ?? null,
      outcome: review.outcome,
      submittedBy: record.ownerId,
      ownerId: record.ownerId,
      siteId: record.siteId,
      recordLabel: record.label,
      recordPath: record.path,
      submittedAt: review.submittedAt,
      decidedAt: decided,
    })
    .returning({ id: reviewRounds.id });
  const roundId = round!.id;
  const event = (e: Omit<typeof reviewEvents.$inferInsert, 'roundId'>) => tx.insert(reviewEvents).values({ roundId, ...e });
  await event({ at: review.submittedAt, kind: 'submitted', actorId: record.ownerId });
  for (const r of reviewers) {
    const asked = mode === 'workflow' && r.userId === first!.userId;
    const state = own(r.userId) ? 'skipped' : !asked ? 'waiting' : review.outcome === 'pending' ? 'current' : review.outcome;
    const done = state === 'approved' || state === 'rejected';
    await tx.insert(reviewReviewers).values({
      roundId,
      position: r.position,
      userId: r.userId,
      state,
      dueAt: state === 'current' ? new Date(review.submittedAt.getTime() + (workflow!.leadTimeHours ?? 24) * 3_600_000) : null,
      decidedAt: done ? decided : null,
      decidedBy: done ? r.userId : null,
      comment: done ? comment : null,
    });
    if (state === 'skipped') await event({ at: review.submittedAt, kind: 'skipped', reviewerId: r.userId });
  }
  if (review.outcome !== 'pending') {
    await event({ at: decided!, kind: review.outcome, actorId: decider, reviewerId: mode === 'workflow' ? decider : null, comment });
    await event({ at: decided!, kind: 'closed', outcome: review.outcome });
  }
  return decider;
}
