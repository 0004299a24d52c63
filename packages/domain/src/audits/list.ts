import { z } from 'zod';
import { actionSummarySchema } from '../actions/schemas.js';
import { paginationSchema } from '../api/shared.js';
import { isCalendarDate, invalid, tooLong } from '../incidents/inputs.js';
import { AUDIT_FREQUENCIES, AUDIT_ICONS, AUDIT_PAGE_SIZE, AUDIT_STATUSES, AUDIT_TABS, AUDIT_TYPES } from './model.js';
import { auditTimelineEntrySchema, auditPersonRef } from './responses.js';

/**
 * The list `/audits/{type}` (by audit or by site, tabs, filters, totals, export), the month calendar,
 * the summary across audits, the section and total summaries of one audit, and the trends.
 */

const emptyToUndefined = (v: unknown) => (v === '' || v === null ? undefined : v);
const opt = <T extends z.ZodType>(s: T) => z.preprocess(emptyToUndefined, s.optional());
const day = z.string(invalid).refine(isCalendarDate, invalid);
const month = z.string(invalid).regex(/^\d{4}-(0[1-9]|1[0-2])$/, invalid);

/** The filters every list, count, export and summary shares: the same filters give the same audits. */
const filters = {
  /** Serial ('AUD-000123' or 123), template, site, auditor, auditee. */
  search: z.string(invalid).trim().max(200, tooLong).optional(),
  site_id: opt(z.uuid(invalid)),
  template_id: opt(z.uuid(invalid)),
  type: opt(z.enum(AUDIT_TYPES, invalid)),
  frequency: opt(z.enum(AUDIT_FREQUENCIES, invalid)),
  auditor_id: opt(z.uuid(invalid)),
  /** Due dates (the site's days), both ends included. */
  from: opt(day),
  to: opt(day),
};
const dateRange = (v: { from?: string | undefined; to?: string | undefined }, ctx: z.RefinementCtx) => {
  if (v.from && v.to && v.from > v.to) ctx.addIssue({ code: 'custom', path: ['to'], message: 'audits.validation.dateRange' });
};
const exportFlag = z
  .enum(['true', 'false'], invalid)
  .optional()
  .transform((v) => v === 'true');
const paging = {
  page: z.coerce.number(invalid).int(invalid).min(1, invalid).max(100_000, invalid).default(1),
  per_page: z.coerce.number(invalid).int(invalid).min(1, invalid).max(200, invalid).default(AUDIT_PAGE_SIZE),
};

/** GET /api/v2/audits: a page of one tab (absent: every status) with the filters, or its rows as a workbook. */
export const auditListQuery = z
  .object({
    ...paging,
    tab: opt(z.enum(AUDIT_TABS, invalid)),
    ...filters,
    sort: z.enum(['due_date', 'serial', 'score', 'completed_at'], invalid).default('due_date'),
    direction: z.enum(['asc', 'desc'], invalid).default('desc'),
    export_to_excel: exportFlag,
  })
  .superRefine(dateRange);
export type AuditListQueryInput = z.input<typeof auditListQuery>;
export type AuditListQuery = z.output<typeof auditListQuery>;

/** GET /api/v2/audits/period_status_counts and /by_site: the filters without tab, page or sort. */
export const auditCountsQuery = z.object(filters).superRefine(dateRange);
export type AuditCountsQueryInput = z.input<typeof auditCountsQuery>;
export type AuditCountsQuery = z.output<typeof auditCountsQuery>;

export const auditBySiteQuery = z.object({ ...filters, export_to_excel: exportFlag }).superRefine(dateRange);
export type AuditBySiteQueryInput = z.input<typeof auditBySiteQuery>;

export const auditListItemSchema = z.object({
  id: z.string(),
  serial: z.number(),
  serial_label: z.string(),
  template: z.object({ id: z.string(), name: z.string(), type: z.enum(AUDIT_TYPES), icon: z.enum(AUDIT_ICONS) }),
  site: z.object({ id: z.string(), name: z.string() }),
  site_node_name: z.string().nullable(),
  auditor: auditPersonRef,
  auditee: auditPersonRef.nullable(),
  frequency: z.enum(AUDIT_FREQUENCIES),
  due_date: z.string(),
  window_end: z.string(),
  status: z.enum(AUDIT_STATUSES),
  late: z.boolean(),
  started_at: z.string().nullable(),
  completed_at: z.string().nullable(),
  /** 0..100, null while nothing is scored or when the template does not score. */
  score_percent: z.number().nullable(),
  failed_count: z.number(),
  critical_failed_count: z.number(),
  key_findings_count: z.number(),
  actions_total: z.number(),
  actions_done: z.number(),
});
export type AuditListItem = z.infer<typeof auditListItemSchema>;

export const auditListResponse = z.object({ audits: z.array(auditListItemSchema), pagination: paginationSchema });
export type AuditListResponse = z.infer<typeof auditListResponse>;

const tabCounts = z.object({
  scheduled: z.number(),
  in_progress: z.number(),
  overdue: z.number(),
  completed: z.number(),
  approved: z.number(),
  total: z.number(),
});
export type AuditTabCounts = z.infer<typeof tabCounts>;

/** The totals of each tab for the filters. */
export const auditStatusCountsResponse = z.object({ counts: tabCounts });

/** GET /api/v2/audits/by_site: one row per site with its tab counts and average score. */
export const auditBySiteResponse = z.object({
  sites: z.array(
    z.object({
      site: z.object({ id: z.string(), name: z.string() }),
      counts: tabCounts,
      average_score: z.number().nullable(),
      last_completed_at: z.string().nullable(),
    }),
  ),
});
export type AuditBySite = z.infer<typeof auditBySiteResponse>;

/**
 * POST /api/audits/schedulesinfo: the month calendar, scheduled against completed (issue 17). A day's
 * `scheduled` counts the audits due that day, and the ones the active schedules will make that day;
 * `completed` the audits completed that day at their site; `overdue` those due that day now overdue.
 */
export const auditCalendarBody = z.object({
  month,
  site_id: opt(z.uuid(invalid)),
  type: opt(z.enum(AUDIT_TYPES, invalid)),
  template_id: opt(z.uuid(invalid)),
});
export type AuditCalendarInput = z.input<typeof auditCalendarBody>;
export const auditCalendarResponse = z.object({
  month: z.string(),
  days: z.array(z.object({ date: z.string(), scheduled: z.number(), completed: z.number(), overdue: z.number() })),
  totals: z.object({ scheduled: z.number(), completed: z.number(), overdue: z.number() }),
});
export type AuditCalendar = z.infer<typeof auditCalendarResponse>;

/** A question that failed most often: its label and template, how often it failed of how often answered. */
export const auditFailedQuestionSchema = z.object({
  question_id: z.string(),
  label: z.string(),
  section: z.string(),
  template: z.object({ id: z.string(), name: z.string() }),
  critical: z.boolean(),
  failures: z.number(),
  answers: z.number(),
});
export type AuditFailedQuestion = z.infer<typeof auditFailedQuestionSchema>;

/** POST /api/audits/auditSummaryInfo (`/audit-summary`): across the audits the filters pick. */
export const auditSummaryBody = z.object(filters).superRefine(dateRange);
export type AuditSummaryInput = z.input<typeof auditSummaryBody>;
export const auditSummaryResponse = z.object({
  counts: tabCounts.extend({ rejected: z.number() }),
  /** Completed (or decided) within their window, and after it. */
  on_time: z.number(),
  late: z.number(),
  average_score: z.number().nullable(),
  key_findings: z.number(),
  actions: z.object({ total: z.number(), open: z.number(), overdue: z.number(), done: z.number() }),
  by_template: z.array(
    z.object({
      template: z.object({ id: z.string(), name: z.string() }),
      audits: z.number(),
      completed: z.number(),
      average_score: z.number().nullable(),
    }),
  ),
  by_site: z.array(
    z.object({
      site: z.object({ id: z.string(), name: z.string() }),
      audits: z.number(),
      completed: z.number(),
      average_score: z.number().nullable(),
    }),
  ),
  most_failed: z.array(auditFailedQuestionSchema),
});
export type AuditSummary = z.infer<typeof auditSummaryResponse>;

/** GET /api/audit_trends: per template, the score per site month by month and the questions failed most often. */
export const auditTrendsQuery = z
  .object({
    template_id: opt(z.uuid(invalid)),
    site_id: opt(z.uuid(invalid)),
    /** Months 'YYYY-MM' of the completion, both included; the last twelve by default. */
    from: opt(month),
    to: opt(month),
  })
  .superRefine((v, ctx) => {
    if (v.from && v.to && v.from > v.to) ctx.addIssue({ code: 'custom', path: ['to'], message: 'audits.validation.dateRange' });
  });
export type AuditTrendsQueryInput = z.input<typeof auditTrendsQuery>;
export const auditTrendsResponse = z.object({
  from: z.string(),
  to: z.string(),
  templates: z.array(
    z.object({
      template: z.object({ id: z.string(), name: z.string(), type: z.enum(AUDIT_TYPES) }),
      series: z.array(
        z.object({
          site: z.object({ id: z.string(), name: z.string() }),
          points: z.array(z.object({ month: z.string(), average_score: z.number(), audits: z.number() })),
        }),
      ),
      most_failed: z.array(auditFailedQuestionSchema),
    }),
  ),
});
export type AuditTrends = z.infer<typeof auditTrendsResponse>;

/** GET /api/audits/{id}/audit_section_wise_summary: per section of one audit, its answers and points. */
export const auditSectionSummarySchema = z.object({
  id: z.string(),
  name: z.string(),
  questions: z.number(),
  shown: z.number(),
  answered: z.number(),
  yes: z.number(),
  no: z.number(),
  na: z.number(),
  failed: z.number(),
  obtained: z.number(),
  assigned: z.number(),
  percent: z.number().nullable(),
});
export type AuditSectionSummary = z.infer<typeof auditSectionSummarySchema>;
export const auditSectionSummaryResponse = z.object({ sections: z.array(auditSectionSummarySchema) });

/** GET /api/audits/{id}/audit_total_summary: the audit's totals. */
export const auditTotalSummaryResponse = z.object({
  score: z.object({ obtained: z.number(), assigned: z.number(), percent: z.number().nullable() }),
  questions: z.object({
    total: z.number(),
    shown: z.number(),
    answered: z.number(),
    na: z.number(),
    failed: z.number(),
    critical_failed: z.number(),
  }),
  key_findings: z.number(),
  actions: z.object({ total: z.number(), open: z.number(), overdue: z.number(), done: z.number() }),
});
export type AuditTotalSummary = z.infer<typeof auditTotalSummaryResponse>;

/** POST /api/audits/actionlist: the audit's action items (its key findings' actions) with their status. */
export const auditActionListResponse = z.object({ actions: z.array(actionSummarySchema) });
/** POST /api/audits/timeline: the audit's timeline, oldest first. */
export const auditTimelineResponse = z.object({ timeline: z.array(auditTimelineEntrySchema) });
