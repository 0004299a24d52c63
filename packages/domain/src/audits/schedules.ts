import { z } from 'zod';
import { paginationSchema } from '../api/shared.js';
import { dateText, distinct, invalid, optionalDate, optionalUuid, requiredOrInvalid, tooLong } from '../incidents/inputs.js';
import { AUDIT_FREQUENCIES, AUDIT_ICONS, AUDIT_SCHEDULE_SITES_MAX, AUDIT_TYPES } from './model.js';

/**
 * Audit schedules (issue 17 "Schedules"; spec 001 §3 Audit: sites, auditor, auditee, area, frequency,
 * schedule start and end). A schedule makes one audit per site and due date: the hourly job (and the
 * creation itself, for what is due already) inserts each one once, under the key (schedule, site, due
 * date), and tells the auditor.
 */

const uuid = z.uuid(invalid);

const scheduleFields = {
  template_id: z.uuid({ error: requiredOrInvalid('audits.validation.template') }),
  /** One audit per site and due date. */
  site_ids: distinct(uuid, AUDIT_SCHEDULE_SITES_MAX).min(1, { message: 'audits.validation.sites' }),
  /** An area (division, department or unit) of the one site; only with a single site. */
  site_node_id: optionalUuid,
  /** Runs the audits: an active member whose role may update audits. */
  auditor_id: z.uuid({ error: requiredOrInvalid('audits.validation.auditor') }),
  /** The person responsible for the place audited; optional. */
  auditee_id: optionalUuid,
  frequency: z.enum(AUDIT_FREQUENCIES, { error: requiredOrInvalid('audits.validation.frequency') }),
  /** The first due date: today or later at every site (the server checks). */
  start_date: dateText('audits.validation.startDate'),
  /** The last day audits may fall due (and a "once" audit's last day); none: until switched off. */
  end_date: optionalDate('audits.validation.endDate'),
};

function checkSchedule(
  v: { site_ids?: string[]; site_node_id?: string | null; start_date?: string; end_date?: string | null },
  ctx: z.RefinementCtx,
) {
  if (v.site_node_id && v.site_ids && v.site_ids.length !== 1)
    ctx.addIssue({ code: 'custom', path: ['site_node_id'], message: 'audits.validation.areaOneSite' });
  if (v.start_date && v.end_date && v.end_date < v.start_date)
    ctx.addIssue({ code: 'custom', path: ['end_date'], message: 'audits.validation.endBeforeStart' });
}

/** POST /api/audit_schedules. */
export const auditScheduleCreateBody = z.object(scheduleFields).superRefine(checkSchedule);
export type AuditScheduleCreate = z.output<typeof auditScheduleCreateBody>;
export type AuditScheduleCreateInput = z.input<typeof auditScheduleCreateBody>;

/**
 * PATCH /api/audit_schedules/{id}: any field, and `active` to pause or resume it. Once it has made
 * audits, its template, sites, frequency and start date stay (409; make a new schedule instead); a new
 * auditor, auditee or area also goes to its audits not started yet.
 */
export const auditScheduleUpdateBody = z
  .object({ ...scheduleFields, active: z.boolean(invalid) })
  .partial()
  .superRefine(checkSchedule);
export type AuditScheduleUpdate = z.output<typeof auditScheduleUpdateBody>;
export type AuditScheduleUpdateInput = z.input<typeof auditScheduleUpdateBody>;

const emptyToUndefined = (v: unknown) => (v === '' || v === null ? undefined : v);
const opt = <T extends z.ZodType>(s: T) => z.preprocess(emptyToUndefined, s.optional());

export const auditScheduleListQuery = z.object({
  page: z.coerce.number(invalid).int(invalid).min(1, invalid).max(100_000, invalid).default(1),
  per_page: z.coerce.number(invalid).int(invalid).min(1, invalid).max(200, invalid).default(25),
  /** Template name, site name, auditor. */
  search: z.string(invalid).trim().max(200, tooLong).optional(),
  site_id: opt(uuid),
  template_id: opt(uuid),
  type: opt(z.enum(AUDIT_TYPES, invalid)),
  frequency: opt(z.enum(AUDIT_FREQUENCIES, invalid)),
  active: z
    .enum(['true', 'false'], invalid)
    .optional()
    .transform((v) => (v === undefined ? undefined : v === 'true')),
});
export type AuditScheduleListQueryInput = z.input<typeof auditScheduleListQuery>;

const auditPersonRef = z.object({ id: z.string(), full_name: z.string() });

export const auditScheduleSchema = z.object({
  id: z.string(),
  template: z.object({ id: z.string(), name: z.string(), type: z.enum(AUDIT_TYPES), icon: z.enum(AUDIT_ICONS) }),
  sites: z.array(z.object({ id: z.string(), name: z.string(), time_zone: z.string() })),
  site_node: z.object({ id: z.string(), full_name: z.string() }).nullable(),
  auditor: auditPersonRef,
  auditee: auditPersonRef.nullable(),
  frequency: z.enum(AUDIT_FREQUENCIES),
  start_date: z.string(),
  end_date: z.string().nullable(),
  active: z.boolean(),
  /** Audits it has made so far, and the next due date after the last one (null when it has ended). */
  audits_count: z.number(),
  next_due_date: z.string().nullable(),
  created_by: auditPersonRef.nullable(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type AuditSchedule = z.infer<typeof auditScheduleSchema>;

export const auditScheduleResponse = z.object({ schedule: auditScheduleSchema });
export const auditScheduleListResponse = z.object({
  schedules: z.array(auditScheduleSchema),
  pagination: paginationSchema,
  /** The free account's schedule limit (null: none). */
  limit: z.number().nullable(),
});
export type AuditScheduleList = z.infer<typeof auditScheduleListResponse>;
