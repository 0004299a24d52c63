import { z } from 'zod';
import { WORKFLOW_MODULES, WORKFLOW_TYPES } from './schemas.js';

/**
 * The review of one record (issue 14): the current round, its reviewers and the timeline of every
 * round. Modules put `reviewStateSchema` in their record's response and `reviewDecisionBody` in their
 * approve/reject contract; the server engine is `packages/server/src/modules/workflows/review.ts`.
 */
export const REVIEW_MODULES = WORKFLOW_MODULES;
export type ReviewModule = (typeof REVIEW_MODULES)[number];

export const REVIEW_OUTCOMES = ['pending', 'approved', 'rejected'] as const;
export type ReviewOutcome = (typeof REVIEW_OUTCOMES)[number];

/** A reviewer's place in a round: waiting for their turn, asked now, done, or left out. */
export const REVIEWER_STATES = ['waiting', 'current', 'approved', 'rejected', 'skipped'] as const;
export type ReviewerState = (typeof REVIEWER_STATES)[number];

/** Steps of the timeline. `closed` ends a round (with its outcome). */
export const REVIEW_EVENT_KINDS = [
  'submitted',
  'approved',
  'rejected',
  'skipped',
  'reminded',
  'escalated',
  'reviewer_replaced',
  'closed',
] as const;
export type ReviewEventKind = (typeof REVIEW_EVENT_KINDS)[number];

/**
 * Who decides a round: the workflow's reviewers, or (no workflow matches the record, or every reviewer
 * of it was left out) anyone holding the module's approve right.
 */
export const REVIEW_MODES = ['workflow', 'approve_right'] as const;
export type ReviewMode = (typeof REVIEW_MODES)[number];

export const REVIEW_COMMENT_MAX = 2000;

const person = z.object({ id: z.string(), full_name: z.string() });
export type ReviewPerson = z.infer<typeof person>;

export const reviewerSchema = z.object({
  user: person,
  /** 1-based place in the workflow's order (the order matters for sequential review). */
  position: z.number(),
  state: z.enum(REVIEWER_STATES),
  /** When the reminder falls due (lead time after the reviewer was asked); null until asked. */
  due_at: z.string().nullable(),
  reminded_at: z.string().nullable(),
  /** Who the late review went to (the workflow's escalation user), who may then decide in this place. */
  escalated_to: person.nullable(),
  decided_at: z.string().nullable(),
  /** Who decided for this place: the reviewer, or the escalation user in their stead. */
  decided_by: person.nullable(),
  comment: z.string().nullable(),
});
export type Reviewer = z.infer<typeof reviewerSchema>;

export const reviewEventSchema = z.object({
  at: z.string(),
  round: z.number(),
  kind: z.enum(REVIEW_EVENT_KINDS),
  /** Who acted; null for the system (reminders, escalations, replacements). */
  actor: person.nullable(),
  /** The reviewer the step concerns (approved, rejected, skipped, reminded, escalated, replaced). */
  reviewer: person.nullable(),
  /** Escalated: the escalation user; reviewer_replaced: the replacement. */
  to: person.nullable(),
  comment: z.string().nullable(),
  /** closed: how the round ended. */
  outcome: z.enum(REVIEW_OUTCOMES).nullable(),
});
export type ReviewEvent = z.infer<typeof reviewEventSchema>;

export const reviewStateSchema = z.object({
  outcome: z.enum(REVIEW_OUTCOMES),
  /** 1 for the first submission; each resubmission after a rejection starts the next. */
  round: z.number(),
  /** The workflow as it was when this round was submitted; null when the approve right decides. */
  workflow: z.object({ id: z.string(), title: z.string(), type: z.enum(WORKFLOW_TYPES) }).nullable(),
  mode: z.enum(REVIEW_MODES),
  lead_time_hours: z.number().nullable(),
  submitted_by: person.nullable(),
  submitted_at: z.string(),
  decided_at: z.string().nullable(),
  reviewers: z.array(reviewerSchema),
  /** Whether the viewer may approve or reject now. */
  may_decide: z.boolean(),
  /** Every round's steps, oldest first. */
  timeline: z.array(reviewEventSchema),
});
export type ReviewState = z.infer<typeof reviewStateSchema>;

/** A reviewer's decision: approve, or reject with the reason (required), each with an optional comment. */
export const reviewDecisionBody = z
  .object({
    approve: z.boolean({ error: (iss) => (iss.input === undefined ? 'validation.required' : 'validation.invalid') }),
    comment: z
      .string({ error: 'validation.invalid' })
      .trim()
      .max(REVIEW_COMMENT_MAX, { message: 'validation.tooLong' })
      .nullable()
      .optional()
      .transform((v) => (v ? v : null)),
  })
  .superRefine((v, ctx) => {
    if (v.approve === false && !v.comment)
      ctx.addIssue({ code: 'custom', path: ['comment'], message: 'reviews.validation.reasonRequired' });
  });
export type ReviewDecision = z.output<typeof reviewDecisionBody>;
export type ReviewDecisionInput = z.input<typeof reviewDecisionBody>;
