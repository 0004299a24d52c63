import { z } from 'zod';
import { importRowErrorSchema, searchPaginationSchema } from '../api/shared.js';
import { actionItemSchema, actionSummarySchema, CONTROL_TYPES } from '../actions/schemas.js';
import { CATEGORY_TYPES_BY_MODULE } from '../categories/schemas.js';
import { PAGE_SIZES } from '../constants.js';
import { isLocalDate, isLocalDateTime } from './local-time.js';

/** Spec 001 §4. */
export const OBSERVATION_STATUSES = ['open', 'in_progress', 'completed', 'closed', 'overdue'] as const;
export type ObservationStatus = (typeof OBSERVATION_STATUSES)[number];

/** The observation's type is one of the observation category types (spec 001 §3 "type"). */
export const OBSERVATION_TYPES = CATEGORY_TYPES_BY_MODULE.observations;
export type ObservationType = (typeof OBSERVATION_TYPES)[number];

/**
 * Risk potential: the worst credible outcome if nothing is done, as safety teams grade it.
 * low: first aid at most; medium: medical treatment or restricted work; high: lost-time injury,
 * serious damage or release; critical: fatality, permanent disability or major loss. The texts
 * (`observations.riskLevels.*`, hints in `observations.riskHints.*`) say the same to the reporter.
 */
export const OBSERVATION_RISK_LEVELS = ['low', 'medium', 'high', 'critical'] as const;
export type ObservationRiskLevel = (typeof OBSERVATION_RISK_LEVELS)[number];

/** How the record arrived: a signed-in person, the signed-out guest form, or an Excel import. */
export const OBSERVATION_SOURCES = ['staff', 'guest', 'import'] as const;
export type ObservationSource = (typeof OBSERVATION_SOURCES)[number];

export const OBSERVATION_DESCRIPTION_MAX = 4000;
export const OBSERVATION_COMMENT_MAX = 2000;
export const OBSERVATION_CLOSING_REMARKS_MAX = 2000;
export const OBSERVATION_ATTACHMENTS_MAX = 10;
export const OBSERVATION_ACTIONS_MAX = 20;
export const OBSERVATION_IMPORT_MAX_ROWS = 500;
export const OBSERVATION_PAGE_SIZE = PAGE_SIZES.observations;

/** 'OBS-000123': the serial people read and search for; numbers are per organisation. */
export function formatObservationSerial(serial: number): string {
  return `OBS-${String(serial).padStart(6, '0')}`;
}

/** 'OBS-000123', 'obs-123' or '123' -> 123; null when the text is not a serial. */
export function parseObservationSerial(text: string): number | null {
  const m = /^(?:obs-?)?0*(\d{1,9})$/i.exec(text.trim());
  return m ? Number(m[1]) : null;
}

const required = { message: 'validation.required' };
const invalid = { message: 'validation.invalid' };
const tooLong = { message: 'validation.tooLong' };
/** A missing value reads "required"; a value of the wrong kind reads "not valid". */
const requiredOrInvalid = (iss: { input?: unknown }) =>
  iss.input === undefined || iss.input === null || iss.input === '' ? 'validation.required' : 'validation.invalid';

const requiredText = (max: number) => z.string({ error: requiredOrInvalid }).trim().min(1, required).max(max, tooLong);
/** Blank text and null both mean "not given". */
const optionalUuid = z.preprocess((v) => (v === '' ? null : v), z.uuid(invalid).nullable().optional()).transform((v) => v ?? null);

export const observationTypeSchema = z.enum(OBSERVATION_TYPES, {
  error: (iss) =>
    iss.input === undefined || iss.input === null || iss.input === '' ? 'observations.validation.type' : 'validation.invalid',
});
export const observationRiskLevelSchema = z.enum(OBSERVATION_RISK_LEVELS, {
  error: (iss) =>
    iss.input === undefined || iss.input === null || iss.input === '' ? 'observations.validation.riskLevel' : 'validation.invalid',
});
export const observationStatusSchema = z.enum(OBSERVATION_STATUSES, invalid);

/** The site's local date and time; "not in the future" needs the site's zone and is checked by the server. */
export const observedAtSchema = z
  .string({ error: () => 'observations.validation.observedAt' })
  .trim()
  .refine(isLocalDateTime, { message: 'observations.validation.observedAt' });

const siteId = z.uuid({ error: () => 'observations.validation.site' });
const attachmentIds = z
  .array(z.uuid(invalid), invalid)
  .max(OBSERVATION_ATTACHMENTS_MAX, { message: 'observations.validation.tooManyAttachments' });

/** Every field a signed-in reporter gives (spec 001 §3 Observation, §5). */
const observationFields = z.object({
  type: observationTypeSchema,
  /** A category of the observations module of the chosen type, and optionally one of its sub-categories. */
  category_id: optionalUuid,
  sub_category_id: optionalUuid,
  description: requiredText(OBSERVATION_DESCRIPTION_MAX),
  site_id: siteId,
  /** A division, department or unit of the site ("area"); null for the site as a whole. */
  site_node_id: optionalUuid,
  observed_at: observedAtSchema,
  risk_level: observationRiskLevelSchema,
  action_required: z.boolean({ error: requiredOrInvalid }),
  comment: requiredText(OBSERVATION_COMMENT_MAX),
  /** Stored files (POST /api/observations/attachments) to link; each file is used once. */
  attachment_ids: attachmentIds,
});

function checkActions(v: { action_required?: boolean; actions?: readonly unknown[] }, ctx: z.RefinementCtx, actionsKey: string) {
  const count = v.actions?.length ?? 0;
  if (v.action_required === true && count === 0) {
    ctx.addIssue({ code: 'custom', path: [actionsKey], message: 'observations.validation.actionsRequired' });
  }
  if (v.action_required === false && count > 0) {
    ctx.addIssue({ code: 'custom', path: [actionsKey], message: 'observations.validation.actionsNotRequired' });
  }
}

function checkSubCategory(v: { category_id?: string | null; sub_category_id?: string | null }, ctx: z.RefinementCtx) {
  if (v.sub_category_id && !v.category_id)
    ctx.addIssue({ code: 'custom', path: ['sub_category_id'], message: 'observations.validation.subCategoryWithoutCategory' });
}

/** POST /api/observations. With `action_required` at least one action; without it none. */
export const observationCreateBody = observationFields
  .extend({
    attachment_ids: attachmentIds.default([]),
    actions: z
      .array(actionItemSchema, invalid)
      .max(OBSERVATION_ACTIONS_MAX, { message: 'observations.validation.tooManyActions' })
      .default([]),
    /** The reporter's name is hidden from everyone who reads the record. */
    anonymous: z.boolean(invalid).default(false),
  })
  .superRefine((v, ctx) => {
    checkActions(v, ctx, 'actions');
    checkSubCategory(v, ctx);
  });
export type ObservationCreateInput = z.input<typeof observationCreateBody>;
export type ObservationCreate = z.output<typeof observationCreateBody>;

/**
 * POST /api/observations/outer: the signed-out guest form. No categories, areas or actions (a guest
 * sees no people and no settings); staff add those after. Name and e-mail are optional and refused
 * when the report is anonymous.
 */
export const observationGuestBody = z
  .object({
    type: observationTypeSchema,
    description: requiredText(OBSERVATION_DESCRIPTION_MAX),
    site_id: siteId,
    observed_at: observedAtSchema,
    risk_level: observationRiskLevelSchema,
    comment: requiredText(OBSERVATION_COMMENT_MAX),
    anonymous: z.boolean(invalid).default(false),
    reporter_name: z
      .preprocess(
        (v) => (typeof v === 'string' && v.trim() === '' ? null : v),
        z.string(invalid).trim().max(100, tooLong).nullable().optional(),
      )
      .transform((v) => v ?? null),
    reporter_email: z
      .preprocess(
        (v) => (typeof v === 'string' && v.trim() === '' ? null : v),
        z
          .string(invalid)
          .trim()
          .toLowerCase()
          .max(254, tooLong)
          .pipe(z.email({ message: 'validation.email' }))
          .nullable()
          .optional(),
      )
      .transform((v) => v ?? null),
    attachment_ids: attachmentIds.default([]),
  })
  .superRefine((v, ctx) => {
    if (v.anonymous && v.reporter_name)
      ctx.addIssue({ code: 'custom', path: ['reporter_name'], message: 'observations.validation.anonymousNoName' });
    if (v.anonymous && v.reporter_email)
      ctx.addIssue({ code: 'custom', path: ['reporter_email'], message: 'observations.validation.anonymousNoName' });
  });
export type ObservationGuestInput = z.input<typeof observationGuestBody>;
export type ObservationGuest = z.output<typeof observationGuestBody>;

/**
 * PATCH /api/observations/{id}. Any subset of the fields (Observation update); `attachment_ids` is the
 * whole set after the edit (files left out are deleted); `add_actions` raises more actions;
 * `close` closes the observation (Observation close right, every action completed or closed,
 * closing remarks required). A closed observation can no longer change.
 */
export const observationUpdateBody = observationFields
  .partial()
  .extend({
    add_actions: z
      .array(actionItemSchema, invalid)
      .min(1, required)
      .max(OBSERVATION_ACTIONS_MAX, { message: 'observations.validation.tooManyActions' })
      .optional(),
    close: z.object({ remarks: requiredText(OBSERVATION_CLOSING_REMARKS_MAX) }, invalid).optional(),
  })
  .superRefine((v, ctx) => {
    if (Object.values(v).every((x) => x === undefined))
      ctx.addIssue({ code: 'custom', path: [], message: 'observations.validation.nothingToChange' });
    if (v.action_required === false && v.add_actions?.length) {
      ctx.addIssue({ code: 'custom', path: ['add_actions'], message: 'observations.validation.actionsNotRequired' });
    }
    if (v.sub_category_id && v.category_id === null) checkSubCategory(v, ctx);
  });
export type ObservationUpdateInput = z.input<typeof observationUpdateBody>;
export type ObservationUpdate = z.output<typeof observationUpdateBody>;

/** GET /api/v2/observations. `from`/`to` are local dates of the sites, both ends included. */
export const observationListQuery = z
  .object({
    page: z.coerce.number(invalid).int(invalid).min(1, invalid).max(100_000, invalid).default(1),
    per_page: z.coerce.number(invalid).int(invalid).min(1, invalid).max(200, invalid).default(OBSERVATION_PAGE_SIZE),
    /** Serial ('OBS-000123' or 123), description, comment, site, category or reporter (unless anonymous). */
    search: z.string(invalid).trim().max(200, tooLong).optional(),
    /** The status tab; 'all' or absent for every status. */
    status: z.enum(['all', ...OBSERVATION_STATUSES], invalid).default('all'),
    site_id: z.uuid(invalid).optional(),
    type: z.enum(OBSERVATION_TYPES, invalid).optional(),
    risk_level: z.enum(OBSERVATION_RISK_LEVELS, invalid).optional(),
    from: z.string(invalid).refine(isLocalDate, invalid).optional(),
    to: z.string(invalid).refine(isLocalDate, invalid).optional(),
    sort: z.enum(['observed_at', 'serial', 'created_at'], invalid).default('observed_at'),
    direction: z.enum(['asc', 'desc'], invalid).default('desc'),
    export_to_excel: z
      .enum(['true', 'false'], invalid)
      .optional()
      .transform((v) => v === 'true'),
  })
  .superRefine((v, ctx) => {
    if (v.from && v.to && v.from > v.to) ctx.addIssue({ code: 'custom', path: ['to'], message: 'observations.validation.dateRange' });
  });
export type ObservationListQueryInput = z.input<typeof observationListQuery>;
export type ObservationListQuery = z.output<typeof observationListQuery>;

/** GET /api/v2/observations/period_status_counts: the list's filters without status, page or sort. */
export const observationCountsQuery = z
  .object({
    search: z.string(invalid).trim().max(200, tooLong).optional(),
    site_id: z.uuid(invalid).optional(),
    type: z.enum(OBSERVATION_TYPES, invalid).optional(),
    risk_level: z.enum(OBSERVATION_RISK_LEVELS, invalid).optional(),
    from: z.string(invalid).refine(isLocalDate, invalid).optional(),
    to: z.string(invalid).refine(isLocalDate, invalid).optional(),
  })
  .superRefine((v, ctx) => {
    if (v.from && v.to && v.from > v.to) ctx.addIssue({ code: 'custom', path: ['to'], message: 'observations.validation.dateRange' });
  });
export type ObservationCountsQueryInput = z.input<typeof observationCountsQuery>;

/* ---- What the server answers ---- */

const ref = z.object({ id: z.string(), name: z.string() });
const personRef = z.object({ id: z.string(), full_name: z.string() });

/** Who reported: null when anonymous (show `observations.anonymous`); guests have no id. */
export const observationReporterSchema = z
  .object({
    id: z.string().nullable(),
    full_name: z.string(),
    email: z.string().nullable(),
    guest: z.boolean(),
  })
  .nullable();

export const observationAttachmentSchema = z.object({
  id: z.string(),
  file_name: z.string(),
  mime_type: z.string(),
  size_bytes: z.number(),
  url: z.string(),
});
export type ObservationAttachment = z.infer<typeof observationAttachmentSchema>;

/** One entry of the change history: who did what when, and the fields that changed. */
export const observationHistorySchema = z.object({
  at: z.string(),
  actor: personRef.nullable(),
  /** created, updated, actions_added, closed, status_changed, attachment_added, attachment_removed, imported */
  action: z.string(),
  changes: z.array(z.object({ field: z.string(), from: z.unknown(), to: z.unknown() })),
});
export type ObservationHistoryEntry = z.infer<typeof observationHistorySchema>;

export const observationSchema = z.object({
  id: z.string(),
  serial: z.number(),
  /** 'OBS-000123'. */
  serial_label: z.string(),
  type: observationTypeSchema,
  category: ref.nullable(),
  sub_category: ref.nullable(),
  description: z.string(),
  site: z.object({ id: z.string(), name: z.string(), time_zone: z.string() }),
  /** The area: a division, department or unit, with its full name "Site / Division / …". */
  site_node: z.object({ id: z.string(), level: z.enum(['division', 'department', 'unit']), full_name: z.string() }).nullable(),
  /** Local date and time of the site, 'YYYY-MM-DDTHH:mm'. */
  observed_at: z.string(),
  /** The same instant in ISO 8601 UTC. */
  observed_at_utc: z.string(),
  risk_level: observationRiskLevelSchema,
  action_required: z.boolean(),
  comment: z.string(),
  anonymous: z.boolean(),
  reporter: observationReporterSchema,
  source: z.enum(OBSERVATION_SOURCES),
  status: observationStatusSchema,
  closing_remarks: z.string().nullable(),
  closed_at: z.string().nullable(),
  closed_by: personRef.nullable(),
  actions: z.array(actionSummarySchema),
  attachments: z.array(observationAttachmentSchema),
  history: z.array(observationHistorySchema),
  /** What the requester may do now (the web shows only these buttons). */
  permissions: z.object({
    update: z.boolean(),
    delete: z.boolean(),
    close: z.boolean(),
    add_actions: z.boolean(),
    /** Why closing is not possible yet (an i18n key), or null. */
    close_blocked_by: z.string().nullable(),
  }),
  created_at: z.string(),
  updated_at: z.string(),
});
export type Observation = z.infer<typeof observationSchema>;
export const observationResponse = z.object({ observation: observationSchema });
export type ObservationResponse = z.infer<typeof observationResponse>;

export const observationListItemSchema = z.object({
  id: z.string(),
  serial: z.number(),
  serial_label: z.string(),
  type: observationTypeSchema,
  category: ref.nullable(),
  description: z.string(),
  site: ref,
  site_node_name: z.string().nullable(),
  observed_at: z.string(),
  risk_level: observationRiskLevelSchema,
  status: observationStatusSchema,
  action_required: z.boolean(),
  /** Reporter's name; null when anonymous. */
  reporter_name: z.string().nullable(),
  source: z.enum(OBSERVATION_SOURCES),
  actions_total: z.number(),
  actions_done: z.number(),
  attachments_count: z.number(),
  created_at: z.string(),
});
export type ObservationListItem = z.infer<typeof observationListItemSchema>;

export const observationListResponse = z.object({
  observations: z.array(observationListItemSchema),
  /** With keywords the total counts at most 1,000 matches: `total_capped` says it is a lower bound. */
  pagination: searchPaginationSchema,
});
export type ObservationListResponse = z.infer<typeof observationListResponse>;

/** GET /api/v2/observations/period_status_counts: one count per tab. */
export const observationStatusCountsResponse = z.object({
  counts: z.object({
    all: z.number(),
    open: z.number(),
    in_progress: z.number(),
    completed: z.number(),
    closed: z.number(),
    overdue: z.number(),
  }),
  counts_capped: z.boolean().meta({
    description:
      'True when a keyword search matched more than 1,000 observations: counting stopped there, so each count is a lower ' +
      'bound (at most 1,000; show "1,000+"). False without keywords: the counts are exact.',
  }),
});
export type ObservationStatusCounts = z.infer<typeof observationStatusCountsResponse>;

const typeWithCategories = z.object({
  type: observationTypeSchema,
  categories: z.array(z.object({ id: z.string(), name: z.string(), sub_categories: z.array(ref) })),
});

/** GET /api/observations/obs_hazard_types: the types with their active categories and sub-categories. */
export const observationHazardTypesResponse = z.object({ types: z.array(typeWithCategories) });
export type ObservationHazardTypes = z.infer<typeof observationHazardTypesResponse>;

/** GET /api/observations/obs_data: everything the signed-in form offers. */
export const observationFormDataResponse = z.object({
  sites: z.array(
    z.object({
      id: z.string(),
      name: z.string(),
      time_zone: z.string(),
      /** Divisions, departments and units, with "Site / Division / …" names. */
      nodes: z.array(z.object({ id: z.string(), level: z.enum(['division', 'department', 'unit']), full_name: z.string() })),
    }),
  ),
  types: z.array(typeWithCategories),
  risk_levels: z.array(observationRiskLevelSchema),
  control_types: z.array(z.enum(CONTROL_TYPES)),
  /** Categories of the actions module, for an action's category. */
  action_categories: z.array(ref),
  /** Active members who may be made responsible for an action. */
  users: z.array(z.object({ id: z.string(), full_name: z.string(), email: z.string() })),
});
export type ObservationFormData = z.infer<typeof observationFormDataResponse>;

/** GET /api/observations/outer_obs_data: the guest form of the sub-domain's organisation; no people. */
export const observationGuestFormDataResponse = z.object({
  organization: z.object({ name: z.string() }),
  sites: z.array(z.object({ id: z.string(), name: z.string(), time_zone: z.string() })),
  types: z.array(observationTypeSchema),
  risk_levels: z.array(observationRiskLevelSchema),
});
export type ObservationGuestFormData = z.infer<typeof observationGuestFormDataResponse>;

/** POST /api/observations/attachments (multipart `file`): the stored file to put in `attachment_ids`. */
export const observationAttachmentResponse = z.object({ file: observationAttachmentSchema });

/** POST /api/observations (and /outer): the new record's id and serial. */
export const observationCreatedResponse = z.object({ id: z.string(), serial: z.number(), serial_label: z.string() });
export type ObservationCreated = z.infer<typeof observationCreatedResponse>;

/* ---- Import from Excel ---- */

/** Columns of the import template, in order; headers are `observations.import.columns.<key>`. */
export const OBSERVATION_IMPORT_COLUMNS = [
  'type',
  'category',
  'sub_category',
  'site',
  'area',
  'observed_at',
  'risk_level',
  'description',
  'comment',
  'action_description',
  'action_control_type',
  'action_responsible_email',
  'action_due_date',
] as const;
export type ObservationImportColumn = (typeof OBSERVATION_IMPORT_COLUMNS)[number];

/** One refusal of an import: the sheet row, the column, the translated text. */
export const observationImportErrorSchema = importRowErrorSchema;
export const observationImportResultResponse = z.object({ imported: z.number(), errors: z.array(observationImportErrorSchema) });
export type ObservationImportResult = z.infer<typeof observationImportResultResponse>;
