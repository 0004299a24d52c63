import { z } from 'zod';
import { paginationSchema } from '../api/shared.js';
import { isLocalDate } from '../observations/local-time.js';
import { invalid, tooLong } from './inputs.js';
import {
  INCIDENT_LIKELIHOODS,
  INCIDENT_PAGE_SIZE,
  INCIDENT_RISK_LEVELS,
  INCIDENT_SEVERITIES,
  INCIDENT_SOURCES,
  INCIDENT_STATUSES,
  INCIDENT_TYPES,
  INVESTIGATION_STATES,
} from './model.js';

/** GET /api/v2/incidents and its tab counts (spec 001 §7; 50 a page, spec 000 §9). */

const emptyToUndefined = (v: unknown) => (v === '' || v === null ? undefined : v);
const opt = <T extends z.ZodType>(s: T) => z.preprocess(emptyToUndefined, s.optional());

/** The list's filters, shared by the page, the export and the counts: the same filters give the same rows. */
const filters = {
  /** Serial ('INC-000123' or 123), description, action taken, site, category, victim or reporter name. */
  search: z.string(invalid).trim().max(200, tooLong).optional(),
  site_id: opt(z.uuid(invalid)),
  /** A severity, or 'pending' for the incidents whose rating is pending. */
  severity: opt(z.enum([...INCIDENT_SEVERITIES, 'pending'], invalid)),
  category_id: opt(z.uuid(invalid)),
  type: opt(z.enum(INCIDENT_TYPES, invalid)),
  investigation_state: opt(z.enum(INVESTIGATION_STATES, invalid)),
  /** Local dates of the sites, both ends included (the incident's date at its site). */
  from: opt(z.string(invalid).refine(isLocalDate, invalid)),
  to: opt(z.string(invalid).refine(isLocalDate, invalid)),
};

const dateRange = (v: { from?: string | undefined; to?: string | undefined }, ctx: z.RefinementCtx) => {
  if (v.from && v.to && v.from > v.to) ctx.addIssue({ code: 'custom', path: ['to'], message: 'incidents.validation.dateRange' });
};

export const INCIDENT_STATUS_TABS = ['all', ...INCIDENT_STATUSES] as const;
export type IncidentStatusTab = (typeof INCIDENT_STATUS_TABS)[number];

export const incidentListQuery = z
  .object({
    page: z.coerce.number(invalid).int(invalid).min(1, invalid).max(100_000, invalid).default(1),
    per_page: z.coerce.number(invalid).int(invalid).min(1, invalid).max(200, invalid).default(INCIDENT_PAGE_SIZE),
    /** The status tab; 'all' or absent for every status. */
    status: z.preprocess(emptyToUndefined, z.enum(INCIDENT_STATUS_TABS, invalid).default('all')),
    ...filters,
    sort: z.enum(['occurred_at', 'serial', 'created_at', 'target_date'], invalid).default('occurred_at'),
    direction: z.enum(['asc', 'desc'], invalid).default('desc'),
    export_to_excel: z
      .enum(['true', 'false'], invalid)
      .optional()
      .transform((v) => v === 'true'),
  })
  .superRefine(dateRange);
export type IncidentListQueryInput = z.input<typeof incidentListQuery>;
export type IncidentListQuery = z.output<typeof incidentListQuery>;

/** GET /api/v2/incidents/period_status_counts: the list's filters without status, page or sort. */
export const incidentCountsQuery = z.object(filters).superRefine(dateRange);
export type IncidentCountsQueryInput = z.input<typeof incidentCountsQuery>;
export type IncidentCountsQuery = z.output<typeof incidentCountsQuery>;

const ref = z.object({ id: z.string(), name: z.string() });
const personRef = z.object({ id: z.string(), full_name: z.string() });

export const incidentListItemSchema = z.object({
  id: z.string(),
  serial: z.number(),
  /** 'INC-000123'. */
  serial_label: z.string(),
  type: z.enum(INCIDENT_TYPES),
  category: ref.nullable(),
  description: z.string(),
  site: ref,
  site_node_name: z.string().nullable(),
  /** Local date and time of the site, 'YYYY-MM-DDTHH:mm'. */
  occurred_at: z.string(),
  severity: z.enum(INCIDENT_SEVERITIES).nullable(),
  likelihood: z.enum(INCIDENT_LIKELIHOODS).nullable(),
  /** Severity or likelihood not set yet (show "Rating pending"). */
  rating_pending: z.boolean(),
  risk_level: z.enum(INCIDENT_RISK_LEVELS).nullable(),
  status: z.enum(INCIDENT_STATUSES),
  investigation_required: z.boolean(),
  investigation_state: z.enum(INVESTIGATION_STATES),
  /** 1..7: the step the investigation stands at. */
  current_step: z.number(),
  lead: personRef.nullable(),
  target_date: z.string().nullable(),
  victims_count: z.number(),
  /** The victims' names, for the list's search results and the export. */
  victim_names: z.array(z.string()),
  /** The reporter's name (a guest's own, if given); null when unknown. */
  reporter_name: z.string().nullable(),
  source: z.enum(INCIDENT_SOURCES),
  actions_total: z.number(),
  actions_done: z.number(),
  osha_recordable: z.boolean(),
  created_at: z.string(),
});
export type IncidentListItem = z.infer<typeof incidentListItemSchema>;

export const incidentListResponse = z.object({ incidents: z.array(incidentListItemSchema), pagination: paginationSchema });
export type IncidentListResponse = z.infer<typeof incidentListResponse>;

/** One count per status tab, and how many of the filtered incidents are still to be rated. */
export const incidentStatusCountsResponse = z.object({
  counts: z.object({
    all: z.number(),
    open: z.number(),
    overdue: z.number(),
    closed: z.number(),
    rating_pending: z.number(),
  }),
});
export type IncidentStatusCounts = z.infer<typeof incidentStatusCountsResponse>;
