import { z } from 'zod';
import { actionSummarySchema, CONTROL_TYPES } from '../actions/schemas.js';
import { reviewStateSchema } from '../workflows/review.js';
import { auditFormSchema } from './form.js';
import { AUDIT_FREQUENCIES, AUDIT_ICONS, AUDIT_STATUSES, AUDIT_TYPES, AUDIT_NOTIFY_ROLES, AUDIT_RESPONSE_TYPES } from './model.js';

/** What the server answers about one audit (GET /api/v2/audits/{id}, the run screen, the answer PATCH). */

export const auditPersonRef = z.object({ id: z.string(), full_name: z.string() });
const nodeRef = z.object({ id: z.string(), level: z.enum(['division', 'department', 'unit']), full_name: z.string() });

export const auditFileSchema = z.object({
  id: z.string(),
  file_name: z.string(),
  mime_type: z.string(),
  size_bytes: z.number(),
  url: z.string(),
});
export type AuditFile = z.infer<typeof auditFileSchema>;

/** POST /api/v2/audits/{id}/photos and /documents (multipart `file`): the stored file, to name in an answer, notes or a finding. */
export const auditFileResponse = z.object({ file: auditFileSchema });

export const auditAnswerCellSchema = z.object({
  na: z.boolean(),
  choice: z.array(z.string()),
  text: z.string().nullable(),
  number: z.number().nullable(),
  date: z.string().nullable(),
  file_ids: z.array(z.string()),
});

/** A saved answer with what it earned (spec 001 §3 Answer: answer, remark, assigned and obtained score). */
export const auditAnswerSchema = z.object({
  question_id: z.string(),
  cells: z.array(auditAnswerCellSchema),
  remark: z.string().nullable(),
  attachments: z.array(auditFileSchema),
  /** Photos and signatures the cells name, with their addresses. */
  cell_files: z.array(auditFileSchema),
  answered: z.boolean(),
  failed: z.boolean(),
  /** Null when the answer does not count (unscored, NA, hidden, scoring off). */
  obtained: z.number().nullable(),
  assigned: z.number().nullable(),
  answered_by: auditPersonRef.nullable(),
  answered_at: z.string(),
});
export type AuditAnswer = z.infer<typeof auditAnswerSchema>;

export const auditScoreSchema = z.object({ obtained: z.number(), assigned: z.number(), percent: z.number().nullable() });
export const auditProgressSchema = z.object({ shown: z.number(), answered: z.number(), missing_required: z.array(z.string()) });

export const auditKeyFindingSchema = z.object({
  id: z.string(),
  description: z.string(),
  question_id: z.string().nullable(),
  pictures: z.array(auditFileSchema),
  /** The action it became (source `audit`), with its status now. */
  action: actionSummarySchema.nullable(),
  created_by: auditPersonRef.nullable(),
  created_at: z.string(),
});
export type AuditKeyFinding = z.infer<typeof auditKeyFindingSchema>;

/**
 * One step of an audit's life, oldest first: created, started, resumed, answered notices, completed,
 * overdue, reassigned, edited, key findings added, the review's steps (`review_submitted`,
 * `review_approved`, …), report sent. `comment` holds the comment or remarks given with it.
 */
export const auditTimelineEntrySchema = z.object({
  at: z.string(),
  event: z.string(),
  actor: auditPersonRef.nullable(),
  comment: z.string().nullable(),
});
export type AuditTimelineEntry = z.infer<typeof auditTimelineEntrySchema>;

export const auditPermissionsSchema = z.object({
  start: z.boolean(),
  resume: z.boolean(),
  answer: z.boolean(),
  complete: z.boolean(),
  decide: z.boolean(),
  edit: z.boolean(),
  delete: z.boolean(),
  send_report: z.boolean(),
});

export const auditTemplateRef = z.object({
  id: z.string(),
  name: z.string(),
  type: z.enum(AUDIT_TYPES),
  icon: z.enum(AUDIT_ICONS),
  scoring: z.boolean(),
  description: z.string().nullable(),
});

export const auditSchema = z.object({
  id: z.string(),
  serial: z.number(),
  /** 'AUD-000123'. */
  serial_label: z.string(),
  template: auditTemplateRef,
  schedule_id: z.string().nullable(),
  frequency: z.enum(AUDIT_FREQUENCIES),
  site: z.object({ id: z.string(), name: z.string(), time_zone: z.string() }),
  site_node: nodeRef.nullable(),
  auditor: auditPersonRef,
  auditee: auditPersonRef.nullable(),
  /** The window, the site's days: due date to window end; after it, not completed means overdue. */
  due_date: z.string(),
  window_end: z.string(),
  status: z.enum(AUDIT_STATUSES),
  /** It passed its window before being completed (once set, it stays: completed late). */
  late: z.boolean(),
  started_at: z.string().nullable(),
  started_by: auditPersonRef.nullable(),
  completed_at: z.string().nullable(),
  completed_by: auditPersonRef.nullable(),
  /** The site's day it was completed on (the calendar counts it there). */
  completed_on: z.string().nullable(),
  /** Spec "reviewed-on date": when the review decided, by whom, with which remarks. */
  decided_at: z.string().nullable(),
  decided_by: auditPersonRef.nullable(),
  decision_comment: z.string().nullable(),
  declaration_accepted: z.boolean(),
  /** The form it runs: its own copy once started; before, the template's as it is now. */
  form: auditFormSchema,
  answers: z.array(auditAnswerSchema),
  shown_question_ids: z.array(z.string()),
  progress: auditProgressSchema,
  score: auditScoreSchema,
  failed_count: z.number(),
  critical_failed_count: z.number(),
  notes: z.string().nullable(),
  attachments: z.array(auditFileSchema),
  key_findings: z.array(auditKeyFindingSchema),
  /** Every action of source `audit` raised from it (its key findings' actions). */
  actions: z.array(actionSummarySchema),
  review: reviewStateSchema.nullable(),
  timeline: z.array(auditTimelineEntrySchema),
  /** What the requester may do now (auditAbilities); the web shows only these controls. */
  permissions: auditPermissionsSchema,
  created_at: z.string(),
  updated_at: z.string(),
});
export type Audit = z.infer<typeof auditSchema>;
export const auditResponse = z.object({ audit: auditSchema });
export type AuditResponse = z.infer<typeof auditResponse>;

/**
 * PATCH /api/modify_audits/{id}: the answer as saved (null once cleared) and what it changed: which
 * questions show now, the progress, the running score, and whether it raised a critical failure.
 */
export const auditAnswerResponse = z.object({
  answer: auditAnswerSchema.nullable(),
  /** The options of the question after an added option (choice questions with "add options"). */
  question_options: z.array(z.object({ key: z.string(), label: z.string() })).nullable(),
  shown_question_ids: z.array(z.string()),
  progress: auditProgressSchema,
  score: auditScoreSchema,
  critical_failure: z.boolean(),
});
export type AuditAnswerResult = z.infer<typeof auditAnswerResponse>;

/** GET /api/audits/audit_data: what the schedule, run and key-finding forms offer. */
export const auditFormDataResponse = z.object({
  templates: z.array(auditTemplateRef.extend({ active: z.boolean() })),
  sites: z.array(z.object({ id: z.string(), name: z.string(), time_zone: z.string(), nodes: z.array(nodeRef) })),
  /** Who may be an auditor: active members whose role may update audits. */
  auditors: z.array(z.object({ id: z.string(), full_name: z.string(), email: z.string() })),
  /** Active members: auditees, responsible people of key findings, report recipients, notices. */
  users: z.array(z.object({ id: z.string(), full_name: z.string(), email: z.string() })),
  frequencies: z.array(z.enum(AUDIT_FREQUENCIES)),
  types: z.array(z.enum(AUDIT_TYPES)),
  icons: z.array(z.enum(AUDIT_ICONS)),
  response_types: z.array(z.enum(AUDIT_RESPONSE_TYPES)),
  notify_roles: z.array(z.enum(AUDIT_NOTIFY_ROLES)),
  control_types: z.array(z.enum(CONTROL_TYPES)),
  action_categories: z.array(z.object({ id: z.string(), name: z.string() })),
  /** The free account's limits and use (null on other plans): the screens say them before the refusal. */
  limits: z
    .object({
      audits_per_month: z.number(),
      audits_this_month: z.number(),
      templates: z.number(),
      schedules: z.number(),
    })
    .nullable(),
});
export type AuditFormData = z.infer<typeof auditFormDataResponse>;
