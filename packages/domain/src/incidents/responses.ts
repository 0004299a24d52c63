import { z } from 'zod';
import { actionSummarySchema, CONTROL_TYPES } from '../actions/schemas.js';
import { reviewStateSchema } from '../workflows/review.js';
import {
  BODY_PARTS,
  CAPA_KINDS,
  INCIDENT_LIKELIHOODS,
  INCIDENT_RISK_LEVELS,
  INCIDENT_SEVERITIES,
  INCIDENT_SHIFTS,
  INCIDENT_SOURCES,
  INCIDENT_STATUSES,
  INCIDENT_TYPES,
  INVESTIGATION_STATES,
  INVESTIGATION_STEPS,
  KEY_FACTOR_CATEGORIES,
  VICTIM_AGE_RANGES,
  VICTIM_GENDERS,
  VICTIM_TYPES,
} from './model.js';
import { OSHA_CLASSIFICATIONS, OSHA_INJURY_TYPES, OSHA_PRIVACY_REASONS } from './osha.js';

/** What the server answers about incidents (GET /api/incidents/{id} and the form data). */

const ref = z.object({ id: z.string(), name: z.string() });
const personRef = z.object({ id: z.string(), full_name: z.string() });
const nodeRef = z.object({ id: z.string(), level: z.enum(['division', 'department', 'unit']), full_name: z.string() });

export const incidentFileSchema = z.object({
  id: z.string(),
  file_name: z.string(),
  mime_type: z.string(),
  size_bytes: z.number(),
  url: z.string(),
});
export type IncidentFile = z.infer<typeof incidentFileSchema>;

/** A victim's OSHA case with what follows from it: the classification, recordability, the log's case number. */
export const oshaCaseSchema = z.object({
  job_title: z.string().nullable(),
  injury_type: z.enum(OSHA_INJURY_TYPES),
  died: z.boolean(),
  date_of_death: z.string().nullable(),
  days_away: z.number(),
  days_restricted: z.number(),
  medical_treatment: z.boolean(),
  loss_of_consciousness: z.boolean(),
  significant_diagnosis: z.boolean(),
  day_to_day_supervised: z.boolean(),
  privacy_reason: z.enum(OSHA_PRIVACY_REASONS).nullable(),
  /** Derived (29 CFR 1904.7): the most serious outcome, or null when no criterion is met. */
  classification: z.enum(OSHA_CLASSIFICATIONS).nullable(),
  /** Derived: work-related incident, covered person, a criterion met. */
  recordable: z.boolean(),
  privacy_case: z.boolean(),
  /** '2026-004': assigned once the case is recordable; kept after (a case found not recordable later is lined out). */
  case_number: z.string().nullable(),
});
export type OshaCaseView = z.infer<typeof oshaCaseSchema>;

export const victimSchema = z.object({
  id: z.string(),
  type: z.enum(VICTIM_TYPES),
  name: z.string(),
  employee_id: z.string().nullable(),
  gender: z.enum(VICTIM_GENDERS),
  age_range: z.enum(VICTIM_AGE_RANGES).nullable(),
  body_parts: z.array(z.enum(BODY_PARTS)),
  injury_details: z.string().nullable(),
  taken_to_hospital: z.boolean(),
  treatment: z.string().nullable(),
  return_to_work_date: z.string().nullable(),
  /** A return-to-work date after the incident's day (DECISIONS: a lost-time injury). */
  lost_time: z.boolean(),
  osha: oshaCaseSchema.nullable(),
});
export type VictimView = z.infer<typeof victimSchema>;

export const keyFactorSchema = z.object({
  id: z.string(),
  category: z.enum(KEY_FACTOR_CATEGORIES),
  description: z.string(),
  /** Step 5: the chain of whys, first to last (empty until analysed). */
  whys: z.array(z.string()),
  /** Step 5: the root causes the chain ends in, as named when picked (id, name, type and path in the tree). */
  root_causes: z.array(z.object({ id: z.string(), name: z.string(), type_name: z.string(), path: z.array(z.string()) })),
});
export type KeyFactor = z.infer<typeof keyFactorSchema>;

export const investigationSchema = z.object({
  state: z.enum(INVESTIGATION_STATES),
  /** 1..7: the first step whose work is not done (7 once approved). */
  current_step: z.number(),
  steps: z.array(z.object({ number: z.number(), key: z.enum(INVESTIGATION_STEPS), done: z.boolean() })),
  /** Who holds the investigation now: the lead (steps 3–6), the reviewers asked (under review), or nobody named. */
  holders: z.array(personRef),
  lead: personRef.nullable(),
  members: z.array(personRef),
  target_date: z.string().nullable(),
  timeline: z.array(z.object({ id: z.string(), at: z.string(), description: z.string() })),
  witnesses: z.array(
    z.object({ id: z.string(), name: z.string(), user: personRef.nullable(), statement: z.string(), contact: z.string().nullable() }),
  ),
  evidence: z.array(incidentFileSchema),
  factors: z.array(keyFactorSchema),
  conclusion: z.string().nullable(),
  lessons_learned: z.string().nullable(),
  /** The review through the site's workflow (the engine's state and timeline); null until first submitted. */
  review: reviewStateSchema.nullable(),
  /** Each time the report was sent: when, by whom, to whom. */
  report_sends: z.array(z.object({ at: z.string(), by: personRef.nullable(), recipients: z.array(z.string()) })),
});
export type Investigation = z.infer<typeof investigationSchema>;

export const incidentHistorySchema = z.object({
  at: z.string(),
  actor: personRef.nullable(),
  /** created, updated, team_formed, facts_updated, factors_updated, why_analysis_updated, actions_added, record_updated, submitted, approved, rejected, closed, report_sent, status_changed */
  action: z.string(),
  changes: z.array(z.object({ field: z.string(), from: z.unknown(), to: z.unknown() })),
});
export type IncidentHistoryEntry = z.infer<typeof incidentHistorySchema>;

export const incidentSchema = z.object({
  id: z.string(),
  serial: z.number(),
  serial_label: z.string(),
  type: z.enum(INCIDENT_TYPES),
  category: ref.nullable(),
  description: z.string(),
  site: z.object({ id: z.string(), name: z.string(), time_zone: z.string() }),
  site_node: nodeRef.nullable(),
  /** Local date and time of the site, 'YYYY-MM-DDTHH:mm'; `occurred_at_utc` is the instant. */
  occurred_at: z.string(),
  occurred_at_utc: z.string(),
  shift: z.enum(INCIDENT_SHIFTS).nullable(),
  severity: z.enum(INCIDENT_SEVERITIES).nullable(),
  likelihood: z.enum(INCIDENT_LIKELIHOODS).nullable(),
  rating_pending: z.boolean(),
  /** Severity rank × likelihood rank (1..25) and its band; null while the rating is pending. */
  risk_score: z.number().nullable(),
  risk_level: z.enum(INCIDENT_RISK_LEVELS).nullable(),
  investigation_required: z.boolean(),
  action_taken: z.string(),
  /** The recordability question (29 CFR 1904.5); null: not assessed. */
  osha_work_related: z.boolean().nullable(),
  /** Any victim's case is recordable. */
  osha_recordable: z.boolean(),
  /** Who reported: a member, a guest's own name and e-mail, or null when unknown. */
  reporter: z.object({ id: z.string().nullable(), full_name: z.string(), email: z.string().nullable(), guest: z.boolean() }).nullable(),
  source: z.enum(INCIDENT_SOURCES),
  status: z.enum(INCIDENT_STATUSES),
  closing_remarks: z.string().nullable(),
  closed_at: z.string().nullable(),
  closed_by: personRef.nullable(),
  victims: z.array(victimSchema),
  attachments: z.array(incidentFileSchema),
  investigation: investigationSchema,
  /** CAPA: actions of source `incident`, with their kind. */
  actions: z.array(actionSummarySchema.extend({ capa_kind: z.enum(CAPA_KINDS).nullable() })),
  history: z.array(incidentHistorySchema),
  /** What the requester may do now (incidentAbilities); the web shows only these controls. */
  permissions: z.object({
    edit_report: z.boolean(),
    edit_team: z.boolean(),
    edit_investigation: z.boolean(),
    add_actions: z.boolean(),
    submit: z.boolean(),
    decide: z.boolean(),
    close: z.boolean(),
    send_report: z.boolean(),
    delete: z.boolean(),
    submit_blocked_by: z.array(z.string()),
    close_blocked_by: z.string().nullable(),
  }),
  created_at: z.string(),
  updated_at: z.string(),
});
export type Incident = z.infer<typeof incidentSchema>;
export const incidentResponse = z.object({ incident: incidentSchema });
export type IncidentResponse = z.infer<typeof incidentResponse>;

/** POST /api/incidents (and /outer): the new record's id and serial. */
export const incidentCreatedResponse = z.object({ id: z.string(), serial: z.number(), serial_label: z.string() });
export type IncidentCreated = z.infer<typeof incidentCreatedResponse>;

/** POST /api/incidents/attachments (multipart `file`): the stored file to name in `attachment_ids` or `evidence_ids`. */
export const incidentAttachmentResponse = z.object({ file: incidentFileSchema });

const typeWithCategories = z.object({
  type: z.enum(INCIDENT_TYPES),
  categories: z.array(z.object({ id: z.string(), name: z.string(), sub_categories: z.array(ref) })),
});

/** GET /api/incidents/incident_all_categories: the incident types with their active categories. */
export const incidentCategoriesResponse = z.object({ types: z.array(typeWithCategories) });
export type IncidentCategories = z.infer<typeof incidentCategoriesResponse>;

/** The choices every incident form offers (staff and guests). */
const choices = {
  types: z.array(z.enum(INCIDENT_TYPES)),
  severities: z.array(z.enum(INCIDENT_SEVERITIES)),
  likelihoods: z.array(z.enum(INCIDENT_LIKELIHOODS)),
  shifts: z.array(z.enum(INCIDENT_SHIFTS)),
  victim_types: z.array(z.enum(VICTIM_TYPES)),
  genders: z.array(z.enum(VICTIM_GENDERS)),
  age_ranges: z.array(z.enum(VICTIM_AGE_RANGES)),
  /** The body diagram's parts, each with the side it is drawn on. */
  body_parts: z.array(z.object({ key: z.enum(BODY_PARTS), view: z.enum(['front', 'back', 'both']) })),
};

/** GET /api/incidents/incident_data: everything the signed-in forms (report and steps) offer. */
export const incidentFormDataResponse = z.object({
  sites: z.array(z.object({ id: z.string(), name: z.string(), time_zone: z.string(), nodes: z.array(nodeRef) })),
  categories: z.array(typeWithCategories),
  ...choices,
  key_factor_categories: z.array(z.enum(KEY_FACTOR_CATEGORIES)),
  capa_kinds: z.array(z.enum(CAPA_KINDS)),
  control_types: z.array(z.enum(CONTROL_TYPES)),
  /** Categories of the actions module, for a CAPA action's category. */
  action_categories: z.array(ref),
  osha: z.object({
    injury_types: z.array(z.enum(OSHA_INJURY_TYPES)),
    privacy_reasons: z.array(z.enum(OSHA_PRIVACY_REASONS)),
  }),
  /** Active members: team, witnesses, CAPA responsible people and report recipients (empty for a guest). */
  users: z.array(z.object({ id: z.string(), full_name: z.string(), email: z.string() })),
});
export type IncidentFormData = z.infer<typeof incidentFormDataResponse>;

/** GET /api/incidents/out_incident_data: the signed-out guest form of the sub-domain's organisation; no people. */
export const incidentGuestFormDataResponse = z.object({
  organization: z.object({ name: z.string() }),
  sites: z.array(z.object({ id: z.string(), name: z.string(), time_zone: z.string() })),
  ...choices,
});
export type IncidentGuestFormData = z.infer<typeof incidentGuestFormDataResponse>;

/**
 * GET /api/incidents/{id}/root_causes: what step 5 may pick (the active leaves of the organisation's
 * root-cause tree, with their path) and what each factor picked.
 */
export const incidentRootCausesResponse = z.object({
  options: z.array(z.object({ id: z.string(), name: z.string(), type_name: z.string(), path: z.array(z.string()) })),
  selected: z.array(
    z.object({
      factor_id: z.string(),
      root_causes: z.array(z.object({ id: z.string(), name: z.string(), type_name: z.string(), path: z.array(z.string()) })),
    }),
  ),
});
export type IncidentRootCauses = z.infer<typeof incidentRootCausesResponse>;
