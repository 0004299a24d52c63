import { can, type ReviewEvent, type ReviewModule, type ReviewPerson, type ReviewState } from '@bulwark/domain';
import { and, asc, desc, eq, inArray } from 'drizzle-orm';
import type { Principal } from '../../platform/auth/principal.js';
import type { Tx } from '../../platform/db/db.js';
import { users } from '../../platform/db/schema.js';
import { maybeReviewSubject } from './review-registry.js';
import { reviewEvents, reviewReviewers, reviewRounds } from './tables.js';

export type RoundRow = typeof reviewRounds.$inferSelect;
export type SlotRow = typeof reviewReviewers.$inferSelect;

/** The round of a record still waiting for decisions, locked for the deciding transaction when asked. */
export async function pendingRound(tx: Tx, module: ReviewModule, recordId: string, lock = false): Promise<RoundRow | null> {
  const query = tx
    .select()
    .from(reviewRounds)
    .where(and(eq(reviewRounds.module, module), eq(reviewRounds.recordId, recordId), eq(reviewRounds.outcome, 'pending')));
  const [row] = lock ? await query.for('update') : await query;
  return row ?? null;
}

export async function latestRound(tx: Tx, module: ReviewModule, recordId: string): Promise<RoundRow | null> {
  const [row] = await tx
    .select()
    .from(reviewRounds)
    .where(and(eq(reviewRounds.module, module), eq(reviewRounds.recordId, recordId)))
    .orderBy(desc(reviewRounds.round))
    .limit(1);
  return row ?? null;
}

export async function slotsOf(tx: Tx, roundId: string): Promise<SlotRow[]> {
  return tx.select().from(reviewReviewers).where(eq(reviewReviewers.roundId, roundId)).orderBy(asc(reviewReviewers.position));
}

export async function updateSlot(tx: Tx, slot: Pick<SlotRow, 'roundId' | 'position'>, set: Partial<SlotRow>): Promise<void> {
  await tx
    .update(reviewReviewers)
    .set(set)
    .where(and(eq(reviewReviewers.roundId, slot.roundId), eq(reviewReviewers.position, slot.position)));
}

export type NewEvent = {
  roundId: string;
  at: Date;
  kind: ReviewEvent['kind'];
  actorId?: string | null;
  reviewerId?: string | null;
  toId?: string | null;
  comment?: string | null;
  outcome?: 'approved' | 'rejected' | null;
};

export async function addEvent(tx: Tx, e: NewEvent): Promise<void> {
  await tx.insert(reviewEvents).values({
    roundId: e.roundId,
    at: e.at,
    kind: e.kind,
    actorId: e.actorId ?? null,
    reviewerId: e.reviewerId ?? null,
    toId: e.toId ?? null,
    comment: e.comment ?? null,
    outcome: e.outcome ?? null,
  });
}

/** Nobody reviews their own submission or their own record. */
export function isExcluded(round: Pick<RoundRow, 'submittedBy' | 'ownerId'>, userId: string): boolean {
  return round.submittedBy === userId || round.ownerId === userId;
}

/** The places this person may decide now: their own asked place, else every late place escalated to them. */
export function placesOf(slots: readonly SlotRow[], userId: string): SlotRow[] {
  const own = slots.filter((s) => s.state === 'current' && s.userId === userId);
  return own.length > 0 ? own : slots.filter((s) => s.state === 'current' && s.escalatedTo === userId);
}

export function mayDecide(p: Principal, module: ReviewModule, round: RoundRow, slots: readonly SlotRow[]): boolean {
  if (round.outcome !== 'pending' || isExcluded(round, p.userId)) return false;
  if (round.mode === 'approve_right') {
    const subject = maybeReviewSubject(module);
    return subject !== undefined && can(p.access, subject.subject, 'approve');
  }
  return placesOf(slots, p.userId).length > 0;
}

const iso = (d: Date | null) => (d ? d.toISOString() : null);

/** The latest round of a record with its reviewers, every round's timeline, and what the viewer may do. */
export async function reviewState(tx: Tx, p: Principal, module: ReviewModule, recordId: string): Promise<ReviewState | null> {
  const round = await latestRound(tx, module, recordId);
  if (!round) return null;
  const slots = await slotsOf(tx, round.id);
  const events = await tx
    .select({ e: reviewEvents, round: reviewRounds.round })
    .from(reviewEvents)
    .innerJoin(reviewRounds, and(eq(reviewRounds.organizationId, reviewEvents.organizationId), eq(reviewRounds.id, reviewEvents.roundId)))
    .where(and(eq(reviewRounds.module, module), eq(reviewRounds.recordId, recordId)))
    .orderBy(asc(reviewEvents.seq));

  const ids = new Set<string>();
  const note = (id: string | null) => (id ? ids.add(id) : null);
  note(round.submittedBy);
  for (const s of slots) [s.userId, s.escalatedTo, s.decidedBy].forEach(note);
  for (const { e } of events) [e.actorId, e.reviewerId, e.toId].forEach(note);
  const people = ids.size
    ? await tx
        .select({ id: users.id, full_name: users.fullName })
        .from(users)
        .where(inArray(users.id, [...ids]))
    : [];
  const byId = new Map(people.map((u) => [u.id, u]));
  const person = (id: string | null): ReviewPerson | null => (id ? (byId.get(id) ?? { id, full_name: '' }) : null);

  return {
    outcome: round.outcome,
    round: round.round,
    workflow:
      round.workflowId && round.workflowTitle && round.workflowType
        ? { id: round.workflowId, title: round.workflowTitle, type: round.workflowType }
        : null,
    mode: round.mode,
    lead_time_hours: round.mode === 'workflow' ? round.leadTimeHours : null,
    submitted_by: person(round.submittedBy),
    submitted_at: round.submittedAt.toISOString(),
    decided_at: iso(round.decidedAt),
    reviewers: slots.map((s) => ({
      user: person(s.userId)!,
      position: s.position,
      state: s.state,
      due_at: s.state === 'current' ? iso(s.dueAt) : null,
      reminded_at: iso(s.remindedAt),
      escalated_to: person(s.escalatedTo),
      decided_at: iso(s.decidedAt),
      decided_by: person(s.decidedBy),
      comment: s.comment,
    })),
    may_decide: mayDecide(p, module, round, slots),
    timeline: events.map(({ e, round: n }) => ({
      at: e.at.toISOString(),
      round: n,
      kind: e.kind,
      actor: person(e.actorId),
      reviewer: person(e.reviewerId),
      to: person(e.toId),
      comment: e.comment,
      outcome: e.outcome,
    })),
  };
}
