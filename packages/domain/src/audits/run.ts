import { z } from 'zod';
import { actionItemSchema } from '../actions/schemas.js';
import { dateText, distinct, invalid, optionalDate, optionalText, optionalUuid, tooLong } from '../incidents/inputs.js';
import { REVIEW_COMMENT_MAX } from '../workflows/review.js';
import {
  AUDIT_ATTACHMENTS_MAX,
  AUDIT_FILES_PER_ANSWER_MAX,
  AUDIT_FINDINGS_PER_CALL_MAX,
  AUDIT_NOTES_MAX,
  AUDIT_OPTION_LABEL_MAX,
  AUDIT_PICTURES_PER_FINDING_MAX,
  AUDIT_REMARK_MAX,
  AUDIT_REPORT_RECIPIENTS_MAX,
  AUDIT_ROW_HEADERS_MAX,
  AUDIT_TEXT_ANSWER_MAX,
} from './model.js';

/** Running an audit: start, answer (one PATCH per answer), notes, key findings, complete, decide. */

const uuid = z.uuid(invalid);

/** Start, resume: an optional comment ("started/resumed … by with comments", spec 001 §3). */
export const auditCommentBody = z.object({ comment: optionalText(AUDIT_REMARK_MAX) });
export type AuditCommentInput = z.input<typeof auditCommentBody>;

/**
 * POST /api/v2/audits/{id}/complete: the auditor's closing comment, and the template's declaration
 * accepted when it has one (the server checks). Every required question shown must be answered.
 */
export const auditCompleteBody = z.object({
  comment: optionalText(AUDIT_REMARK_MAX),
  declaration_accepted: z.boolean(invalid).default(false),
});
export type AuditCompleteInput = z.input<typeof auditCompleteBody>;

/**
 * POST /api/v2/audits/{id}/decide: approve or reject. Spec 001 §5: "reason to reject; remarks on
 * approval or rejection": the remarks are required both ways (the review engine's own body requires
 * them only to reject).
 */
export const auditDecisionBody = z.object({
  approve: z.boolean({ error: (iss) => (iss.input === undefined ? 'validation.required' : 'validation.invalid') }),
  comment: z
    .string({
      error: (iss) => (iss.input === undefined || iss.input === null ? 'audits.validation.remarksRequired' : 'validation.invalid'),
    })
    .trim()
    .min(1, { message: 'audits.validation.remarksRequired' })
    .max(REVIEW_COMMENT_MAX, tooLong),
});
export type AuditDecisionInput = z.input<typeof auditDecisionBody>;

/** One cell of an answer (see scoring.ts AuditAnswerCell): what the question's type asks for, or `na`. */
export const auditAnswerCellInput = z.object({
  na: z.boolean(invalid).default(false),
  choice: z.array(z.string(invalid).trim().min(1, invalid).max(64, tooLong), invalid).max(30, tooLong).default([]),
  text: optionalText(AUDIT_TEXT_ANSWER_MAX),
  number: z.number(invalid).finite(invalid).nullable().default(null),
  date: optionalDate(),
  /** Photo and signature questions: uploaded first (POST /api/v2/audits/{id}/photos). */
  file_ids: distinct(uuid, AUDIT_FILES_PER_ANSWER_MAX).default([]),
});
export type AuditAnswerCellInput = z.input<typeof auditAnswerCellInput>;

/**
 * PATCH /api/modify_audits/{id}: saves one answer as it is given (spec "save"; issue 17: one PATCH per
 * answer, idempotent, so a lost connection loses nothing: the same body twice leaves the same answer).
 * - `cells`: one cell, or one per row header of the question; null clears the answer.
 * - `remark`: the auditor's remark on it (spec Answer "remark").
 * - `attachment_ids`: photos and documents attached to the answer, the whole list after the save
 *   (questions that allow attachments).
 * - `add_option`: a choice question with "add options" takes a new option first (0 points, not a
 *   failure), which this audit keeps; name it in `cells` by its label.
 */
export const auditAnswerBody = z.object({
  question_id: z.uuid(invalid),
  cells: z.array(auditAnswerCellInput, invalid).min(1, invalid).max(Math.max(1, AUDIT_ROW_HEADERS_MAX), tooLong).nullable(),
  remark: optionalText(AUDIT_REMARK_MAX),
  attachment_ids: distinct(uuid, AUDIT_FILES_PER_ANSWER_MAX).default([]),
  add_option: optionalText(AUDIT_OPTION_LABEL_MAX),
});
export type AuditAnswerInput = z.input<typeof auditAnswerBody>;
export type AuditAnswerSave = z.output<typeof auditAnswerBody>;

/** PUT /api/v2/audits/{id}/notes: the audit's notes and its own attachments (the whole list after the save). */
export const auditNotesBody = z.object({
  notes: optionalText(AUDIT_NOTES_MAX),
  attachment_ids: distinct(uuid, AUDIT_ATTACHMENTS_MAX, 'audits.validation.tooManyFiles').default([]),
});
export type AuditNotesInput = z.input<typeof auditNotesBody>;

/**
 * A key finding (spec 001 §3: description, control, responsibility, due date, pictures): raised as an
 * action of source `audit` (the responsible person is told), with its pictures and, optionally, the
 * question it arose from.
 */
export const auditKeyFindingInput = actionItemSchema.extend({
  question_id: optionalUuid,
  picture_ids: distinct(uuid, AUDIT_PICTURES_PER_FINDING_MAX, 'audits.validation.tooManyFiles').default([]),
});
export type AuditKeyFindingInput = z.input<typeof auditKeyFindingInput>;

/** POST /api/v2/audits/{id}/key_findings: all or none; field errors read `findings.N.field`. */
export const auditKeyFindingsBody = z.object({
  findings: z
    .array(auditKeyFindingInput, invalid)
    .min(1, { message: 'audits.validation.findingsMissing' })
    .max(AUDIT_FINDINGS_PER_CALL_MAX, tooLong),
});
export type AuditKeyFindingsInput = z.input<typeof auditKeyFindingsBody>;

/**
 * PATCH /api/v2/audits/{id}: the audit's details, until it is completed (Audit update). The window
 * (due date to window end) may move; a new auditor is told.
 */
export const auditUpdateBody = z
  .object({
    auditor_id: uuid,
    auditee_id: optionalUuid,
    site_node_id: optionalUuid,
    due_date: dateText('audits.validation.startDate'),
    window_end: dateText('audits.validation.endDate'),
  })
  .partial()
  .superRefine((v, ctx) => {
    if (v.due_date && v.window_end && v.window_end < v.due_date)
      ctx.addIssue({ code: 'custom', path: ['window_end'], message: 'audits.validation.endBeforeStart' });
  });
export type AuditUpdateInput = z.input<typeof auditUpdateBody>;

/**
 * POST /api/v2/audits/{id}/send_report: the PDF report mailed to the people chosen (members, who are
 * also told in the app, and other addresses), with an optional message.
 */
export const auditSendReportBody = z
  .object({
    user_ids: distinct(uuid, AUDIT_REPORT_RECIPIENTS_MAX).default([]),
    emails: distinct(
      z
        .string(invalid)
        .trim()
        .toLowerCase()
        .max(254, tooLong)
        .pipe(z.email({ message: 'validation.email' })),
      AUDIT_REPORT_RECIPIENTS_MAX,
    ).default([]),
    message: optionalText(AUDIT_REMARK_MAX),
  })
  .superRefine((v, ctx) => {
    if (v.user_ids.length + v.emails.length === 0)
      ctx.addIssue({ code: 'custom', path: ['user_ids'], message: 'audits.validation.recipientsMissing' });
    if (v.user_ids.length + v.emails.length > AUDIT_REPORT_RECIPIENTS_MAX)
      ctx.addIssue({ code: 'custom', path: ['emails'], message: 'validation.tooLong' });
  });
export type AuditSendReportInput = z.input<typeof auditSendReportBody>;
export type AuditSendReport = z.output<typeof auditSendReportBody>;

/** POST /api/audits/actionlist and /timeline: the audit asked about. */
export const auditRefBody = z.object({ audit_id: z.uuid({ error: () => 'validation.invalid' }) });
export type AuditRefInput = z.input<typeof auditRefBody>;
