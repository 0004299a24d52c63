import { z } from 'zod';
import { actionSummarySchema } from '../actions/schemas.js';
import { invalid, optionalText, optionalUuid } from '../incidents/inputs.js';
import { auditSectionSummarySchema } from './list.js';
import { AUDIT_REPORT_PARTS, AUDIT_RESPONSE_TYPES, type AuditReportPart } from './model.js';
import {
  auditFileSchema,
  auditKeyFindingSchema,
  auditScoreSchema,
  auditSchema,
  auditTimelineEntrySchema,
  auditPersonRef,
} from './responses.js';

/**
 * The audit report (spec 001 §2: scorecard, key findings, action items, timeline, attachments, notes,
 * section-wise response summary; /audits/{id}/report and its PDF) and the organisation's report
 * settings (logo, what to include).
 */

/** The parts of the report shown unless the settings leave them out: all of them. */
export const AUDIT_DEFAULT_REPORT_PARTS: Record<AuditReportPart, boolean> = Object.fromEntries(
  AUDIT_REPORT_PARTS.map((p) => [p, true]),
) as Record<AuditReportPart, boolean>;

const includeSchema = z.object(
  Object.fromEntries(AUDIT_REPORT_PARTS.map((p) => [p, z.boolean(invalid)])) as Record<AuditReportPart, z.ZodBoolean>,
);

/**
 * PUT /api/audit_report_settings (Audit Template update): the logo (a file uploaded through
 * POST /api/audit_report_settings/logo; null removes it), the parts to include, and a line under the
 * title (e.g. the company's name and address).
 */
export const auditReportSettingsBody = z.object({
  logo_file_id: optionalUuid,
  include: includeSchema.partial().default({}),
  header_text: optionalText(300),
});
export type AuditReportSettingsInput = z.input<typeof auditReportSettingsBody>;

export const auditReportSettingsSchema = z.object({
  logo: auditFileSchema.nullable(),
  include: includeSchema,
  header_text: z.string().nullable(),
  updated_at: z.string().nullable(),
});
export type AuditReportSettings = z.infer<typeof auditReportSettingsSchema>;
export const auditReportSettingsResponse = z.object({ settings: auditReportSettingsSchema });

/** One answered question as the report prints it: the answer in words (translated when it is yes/no/NA). */
export const auditReportResponseItem = z.object({
  question_id: z.string(),
  label: z.string(),
  type: z.enum(AUDIT_RESPONSE_TYPES),
  critical: z.boolean(),
  /** One line per cell ("Row: answer" with row headers); empty when unanswered. */
  answer: z.array(z.string()),
  remark: z.string().nullable(),
  failed: z.boolean(),
  obtained: z.number().nullable(),
  assigned: z.number().nullable(),
  files: z.array(auditFileSchema),
});
export type AuditReportItem = z.infer<typeof auditReportResponseItem>;

/**
 * GET /api/v2/audits/{id}/report: every part of the report in the reader's language, as the printable
 * page and the PDF show it. Parts the settings leave out come back empty (and `include` says so).
 */
export const auditReportResponse = z.object({
  report: z.object({
    audit: auditSchema.pick({
      id: true,
      serial_label: true,
      template: true,
      site: true,
      site_node: true,
      auditor: true,
      auditee: true,
      frequency: true,
      due_date: true,
      window_end: true,
      status: true,
      late: true,
      started_at: true,
      completed_at: true,
      decided_at: true,
      decision_comment: true,
    }),
    decided_by: auditPersonRef.nullable(),
    settings: z.object({ logo: auditFileSchema.nullable(), header_text: z.string().nullable(), include: includeSchema }),
    scorecard: auditScoreSchema.extend({ sections: z.array(auditSectionSummarySchema) }),
    responses: z.array(z.object({ section: z.string(), questions: z.array(auditReportResponseItem) })),
    key_findings: z.array(auditKeyFindingSchema),
    action_items: z.array(actionSummarySchema),
    timeline: z.array(auditTimelineEntrySchema),
    attachments: z.array(auditFileSchema),
    notes: z.string().nullable(),
    generated_at: z.string(),
  }),
});
export type AuditReport = z.infer<typeof auditReportResponse>['report'];
