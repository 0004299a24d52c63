import { z } from 'zod';
import { distinct, invalid, optionalText, requiredText, tooLong } from '../incidents/inputs.js';
import { isLocalDateTime } from '../observations/local-time.js';
import { reviewStateSchema } from '../workflows/review.js';
import { PERMIT_COMMANDS } from './lifecycle.js';
import {
  PERMIT_ATTACHMENTS_MAX,
  PERMIT_COMMENT_MAX,
  PERMIT_DECLARATION_MAX,
  PERMIT_DESCRIPTION_MAX,
  PERMIT_MASTER_PICKS_MAX,
  PERMIT_STATUSES,
  PERMIT_TEXT_AREA_MAX,
  PERMIT_WORKERS_MAX,
} from './model.js';
import { SITE_LEVELS } from '../sites/schemas.js';
import { permitSectionSchema } from './template.js';
import { workerSchema } from './workers.js';

/**
 * Permit requests (spec 001 §3 Permit, §4, §5): the request flow (choose a type, add workers, fill the
 * form), drafts and their sharing, the lifecycle commands, and the record as the summary shows it.
 * The REST is ours (DECISIONS "API shape"): `/api/permit_requests`, with the spec's own calls kept.
 */

const uuid = z.uuid(invalid);

/** The site's local date and time, 'YYYY-MM-DDTHH:mm'. */
export const permitLocalTime = z
  .string({ error: () => 'permits.validation.dateTime' })
  .trim()
  .refine(isLocalDateTime, { message: 'permits.validation.dateTime' });

/**
 * An answer as the form sends it: text (text fields, radio choice, 'YYYY-MM-DD', 'HH:mm') or ids (the
 * files of an attachment question, the entries of a master list). Checked against the template's
 * question by `checkAnswers` (./form.ts).
 */
export const answerInput = z.union(
  [z.string(invalid).max(PERMIT_TEXT_AREA_MAX, tooLong), z.array(uuid, invalid).max(PERMIT_MASTER_PICKS_MAX, tooLong), z.null()],
  invalid,
);
export const answersInput = z.record(uuid, answerInput, invalid);

const requestFields = {
  site_id: uuid.nullable(),
  /** A division, department or unit of the site (the deepest one picked). */
  site_node_id: uuid.nullable(),
  start_at: permitLocalTime.nullable(),
  /** Absent with a start: the start plus the template's default hours. */
  end_at: permitLocalTime.nullable(),
  description: optionalText(PERMIT_DESCRIPTION_MAX),
  /** The workers named on the permit, in order (at least one to submit). */
  worker_ids: distinct(uuid, PERMIT_WORKERS_MAX, 'permits.validation.tooManyWorkers'),
  /** Answers by question id (the request's sections; the closure checklist is answered on closing). */
  answers: answersInput,
  /** Files of the permit itself (uploaded first to /api/permit_requests/attachments). */
  attachment_ids: distinct(uuid, PERMIT_ATTACHMENTS_MAX, 'permits.validation.tooManyFiles'),
};

/** POST /api/permit_requests: a draft, or (`submit: true`) a request sent at once. */
export const permitCreateBody = z.object({
  template_id: uuid,
  site_id: requestFields.site_id.default(null),
  site_node_id: requestFields.site_node_id.default(null),
  start_at: requestFields.start_at.default(null),
  end_at: requestFields.end_at.default(null),
  description: requestFields.description,
  worker_ids: requestFields.worker_ids.default([]),
  answers: requestFields.answers.default({}),
  attachment_ids: requestFields.attachment_ids.default([]),
  submit: z.boolean(invalid).default(false),
});
export type PermitCreate = z.output<typeof permitCreateBody>;
export type PermitCreateInput = z.input<typeof permitCreateBody>;

/**
 * PATCH /api/permit_requests/{id}: a draft's fields; lists (workers, attachments) and `answers` are the
 * whole set after the edit. Only drafts change; a submitted permit moves by its commands alone.
 */
export const permitUpdateBody = z
  .object({ ...requestFields, description: z.string(invalid).trim().max(PERMIT_DESCRIPTION_MAX, tooLong).nullable() })
  .partial();
export type PermitUpdate = z.output<typeof permitUpdateBody>;
export type PermitUpdateInput = z.input<typeof permitUpdateBody>;

/** POST /api/permit_form_questions/{permit_id}/permit_request_send_draft: share a draft with a member. */
export const permitShareBody = z.object({ user_id: uuid });
export const permitShareParams = z.object({ permit_id: uuid });
export const permitUnshareParams = z.object({ id: uuid, user_id: uuid });

/** Approve: an optional comment. */
export const permitApproveBody = z.object({ comment: optionalText(PERMIT_COMMENT_MAX) });
/** Reject and revoke: the reason is required (spec 001 §5). */
export const permitReasonBody = z.object({ comment: requiredText(PERMIT_COMMENT_MAX, 'permits.validation.commentRequired') });
/** An extension request: the requester's declaration (the template's text, confirmed or written out). */
export const permitExtensionBody = z.object({
  declaration: requiredText(PERMIT_DECLARATION_MAX, 'permits.validation.declarationRequired'),
});
/** Closing: the closure checklist's answers (its required ones must be given) and a remark. */
export const permitCloseBody = z.object({ answers: answersInput.default({}), comment: optionalText(PERMIT_COMMENT_MAX) });

/* ---- Responses ---- */

const person = z.object({ id: z.string(), full_name: z.string() });
const ref = z.object({ id: z.string(), name: z.string() });
const fileRef = z.object({ id: z.string(), file_name: z.string() });

/** An answer as stored and shown: text, or the named entries (files, master entries) it picked. */
export const answerValueSchema = z.object({ value: z.string().nullable(), items: z.array(ref) });
export type AnswerValue = z.infer<typeof answerValueSchema>;

/** Another permit whose type conflicts with this one's, at an overlapping area and time. */
export const permitClashSchema = z.object({
  permit_id: z.string(),
  number: z.string(),
  template: ref,
  status: z.enum(PERMIT_STATUSES),
  area_name: z.string().nullable(),
  start_at: z.string(),
  end_at: z.string(),
});
export type PermitClash = z.infer<typeof permitClashSchema>;

export const PERMIT_EXTENSION_STATES = ['pending', 'approved', 'rejected', 'withdrawn'] as const;
export const permitExtensionSchema = z.object({
  id: z.string(),
  state: z.enum(PERMIT_EXTENSION_STATES),
  declaration: z.string(),
  hours: z.number(),
  requested_by: person.nullable(),
  requested_at: z.string(),
  /** The end before, and after (once approved), as local times at the site. */
  end_before: z.string(),
  end_after: z.string().nullable(),
  decided_at: z.string().nullable(),
});

/** The kinds of the permit's own timeline (the review's steps are in `review.timeline`). */
export const PERMIT_EVENT_KINDS = [
  'created',
  'updated',
  'shared',
  'unshared',
  'submitted',
  'approved',
  'rejected',
  'extension_requested',
  'extension_approved',
  'extension_rejected',
  'extension_withdrawn',
  'revoked',
  'closed',
  'pending_closure',
  'overdue',
  'cloned',
] as const;
export const permitEventSchema = z.object({
  at: z.string(),
  kind: z.enum(PERMIT_EVENT_KINDS),
  /** Who acted; null for the hourly job. */
  actor: person.nullable(),
  comment: z.string().nullable(),
});
export type PermitEvent = z.infer<typeof permitEventSchema>;

export const permitAbilitiesSchema = z.object({
  edit: z.boolean(),
  share: z.boolean(),
  submit: z.boolean(),
  delete: z.boolean(),
  approve: z.boolean(),
  reject: z.boolean(),
  decision: z.enum(['permit', 'extension', 'settle']).nullable(),
  request_extension: z.boolean(),
  revoke: z.boolean(),
  close: z.boolean(),
  clone: z.boolean(),
  export_pdf: z.boolean(),
});

export const permitSchema = z.object({
  id: z.string(),
  /** 'HW-0007'. */
  number: z.string(),
  serial: z.number(),
  template: ref.extend({ extension_hours: z.number(), extension_declaration: z.string() }),
  status: z.enum(PERMIT_STATUSES),
  requester: person,
  /** The members a draft was shared with (both they and the requester may open and edit it). */
  shared_with: z.array(person),
  site: z.object({ id: z.string(), name: z.string(), time_zone: z.string() }).nullable(),
  area: z.object({ id: z.string(), level: z.enum(SITE_LEVELS), full_name: z.string() }).nullable(),
  /** The time of work, local at the site ('YYYY-MM-DDTHH:mm'), and the same instants (ISO) for "time left". */
  start_at: z.string().nullable(),
  end_at: z.string().nullable(),
  start_instant: z.string().nullable(),
  end_instant: z.string().nullable(),
  description: z.string().nullable(),
  workers: z.array(workerSchema),
  /** The form as it was when the permit was submitted (a draft follows its template). */
  sections: z.array(permitSectionSchema),
  answers: z.record(z.string(), answerValueSchema),
  attachments: z.array(fileRef),
  /** Who issued it: the reviewers who approved it, or the approve-right holder who did. */
  issuing_officers: z.array(person),
  submitted_at: z.string().nullable(),
  approved_at: z.string().nullable(),
  revocation: z.object({ by: person.nullable(), at: z.string(), comment: z.string() }).nullable(),
  closure: z
    .object({ by: person.nullable(), at: z.string(), comment: z.string().nullable(), answers: z.record(z.string(), answerValueSchema) })
    .nullable(),
  extensions: z.array(permitExtensionSchema),
  extension_pending: z.boolean(),
  /** Live permits of conflicting types at an overlapping area and time (for the requester and the approver). */
  clashes: z.array(permitClashSchema),
  review: reviewStateSchema.nullable(),
  timeline: z.array(permitEventSchema),
  abilities: permitAbilitiesSchema,
  /** The public status page the printed permit's QR code opens (null for a draft). */
  status_url: z.string().nullable(),
  cloned_from: z.object({ id: z.string(), number: z.string() }).nullable(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type Permit = z.infer<typeof permitSchema>;

export const permitResponse = z.object({ permit: permitSchema });
export type PermitResponse = z.infer<typeof permitResponse>;
export const permitCreatedResponse = z.object({ id: z.string(), number: z.string(), permit: permitSchema });
/** The printable permit: the record, its status page address and that address as a QR code (SVG). */
export const permitPrintableResponse = z.object({ permit: permitSchema, status_url: z.string(), qr_svg: z.string() });
export const permitAttachmentResponse = z.object({ file: fileRef });

/** Every command the server may name in a refusal or the table's tests. */
export const permitCommandSchema = z.enum(PERMIT_COMMANDS);

export { person as permitPersonSchema, ref as permitRefSchema };
