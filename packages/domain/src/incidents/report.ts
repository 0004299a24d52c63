import { z } from 'zod';
import { isLocalDateTime } from '../observations/local-time.js';
import {
  distinct,
  invalid,
  optionalDate,
  optionalEnum,
  optionalText,
  optionalUuid,
  requiredOrInvalid,
  requiredText,
  tooLong,
} from './inputs.js';
import {
  BODY_PARTS,
  INCIDENT_ATTACHMENTS_MAX,
  INCIDENT_DESCRIPTION_MAX,
  INCIDENT_LIKELIHOODS,
  INCIDENT_SEVERITIES,
  INCIDENT_SHIFTS,
  INCIDENT_TEXT_MAX,
  INCIDENT_TYPES,
  INCIDENT_VICTIMS_MAX,
  VICTIM_AGE_RANGES,
  VICTIM_GENDERS,
  VICTIM_TYPES,
} from './model.js';
import { oshaCaseInput } from './osha.js';

/** Step 1, "initial response and report": what a reporter gives (spec 001 §3 Incident and Victim, §5). */

/**
 * A victim's name: letters of any script and digits (spec 001 §5), with the spaces, dots, hyphens and
 * apostrophes real names carry ("Mary-Jane O'Neil Jr."); it starts with a letter or digit.
 */
export const VICTIM_NAME_PATTERN = /^[\p{L}\p{M}\p{N}][\p{L}\p{M}\p{N} .'’-]*$/u;

export const incidentTypeSchema = z.enum(INCIDENT_TYPES, { error: requiredOrInvalid('incidents.validation.type') });

/** The site's local date and time ('YYYY-MM-DDTHH:mm'); "not in the future there" is the server's check. */
export const occurredAtSchema = z
  .string({ error: () => 'incidents.validation.occurredAt' })
  .trim()
  .refine(isLocalDateTime, { message: 'incidents.validation.occurredAt' });

/** One victim (spec 001 §3 Victim). `id` names a victim already recorded, to keep it (and its OSHA case number). */
export const victimInput = z.object({
  id: optionalUuid,
  type: z.enum(VICTIM_TYPES, { error: requiredOrInvalid('incidents.validation.victimType') }),
  name: requiredText(100, 'incidents.validation.victimName').refine((v) => VICTIM_NAME_PATTERN.test(v), {
    message: 'incidents.validation.victimNameChars',
  }),
  employee_id: optionalText(50),
  gender: z.enum(VICTIM_GENDERS, { error: requiredOrInvalid('incidents.validation.gender') }),
  age_range: optionalEnum(VICTIM_AGE_RANGES),
  /** Marked on the body diagram; none for an incident that hurt nobody's body (a near miss, a fright). */
  body_parts: distinct(z.enum(BODY_PARTS, invalid), BODY_PARTS.length).default([]),
  injury_details: optionalText(INCIDENT_TEXT_MAX),
  taken_to_hospital: z.boolean(invalid).default(false),
  treatment: optionalText(INCIDENT_TEXT_MAX),
  /** Not before the incident's date (checked with the incident). After it: a lost-time injury (DECISIONS). */
  return_to_work_date: optionalDate('incidents.validation.returnDate'),
  /** The OSHA case (employees, and contractors supervised day to day); null when none is kept. */
  osha: oshaCaseInput
    .nullable()
    .optional()
    .transform((v) => v ?? null),
});
export type VictimInput = z.input<typeof victimInput>;
export type Victim = z.output<typeof victimInput>;

const victims = z
  .array(victimInput, invalid)
  .min(1, { message: 'incidents.validation.victimsRequired' })
  .max(INCIDENT_VICTIMS_MAX, tooLong);

const attachmentIds = distinct(z.uuid(invalid), INCIDENT_ATTACHMENTS_MAX, 'incidents.validation.tooManyAttachments');

/** A victim's return date is not before the incident's date; visitors and others keep no OSHA case. */
function checkVictims(v: { occurred_at?: string; victims?: readonly Victim[] }, ctx: z.RefinementCtx) {
  const day = v.occurred_at?.slice(0, 10);
  v.victims?.forEach((victim, i) => {
    if (day && victim.return_to_work_date && victim.return_to_work_date < day)
      ctx.addIssue({ code: 'custom', path: ['victims', i, 'return_to_work_date'], message: 'incidents.validation.returnBeforeIncident' });
    if (victim.osha && victim.type !== 'employee' && victim.type !== 'contractor')
      ctx.addIssue({ code: 'custom', path: ['victims', i, 'osha'], message: 'incidents.validation.oshaNotCovered' });
  });
  const ids = (v.victims ?? []).map((x) => x.id).filter((x): x is string => !!x);
  if (new Set(ids).size !== ids.length) ctx.addIssue({ code: 'custom', path: ['victims'], message: 'validation.invalid' });
}

/** Every field a signed-in reporter gives. */
const reportFields = z.object({
  type: incidentTypeSchema,
  /** An active category of the incidents module, of the chosen type (settings, categories). */
  category_id: optionalUuid,
  description: requiredText(INCIDENT_DESCRIPTION_MAX),
  site_id: z.uuid({ error: () => 'incidents.validation.site' }),
  /** A division, department or unit of the site; null for the site as a whole. */
  site_node_id: optionalUuid,
  occurred_at: occurredAtSchema,
  shift: optionalEnum(INCIDENT_SHIFTS),
  /** Left unset, the incident is "rating pending" until both are set. */
  severity: optionalEnum(INCIDENT_SEVERITIES),
  likelihood: optionalEnum(INCIDENT_LIKELIHOODS),
  investigation_required: z.boolean({ error: requiredOrInvalid() }),
  action_taken: requiredText(INCIDENT_TEXT_MAX, 'incidents.validation.actionTaken'),
  victims,
  /** Stored files (POST /api/incidents/attachments) to link; each file is used once. */
  attachment_ids: attachmentIds,
  /**
   * The recordability question (29 CFR 1904.5): did an event or exposure at work cause or contribute
   * to the injury or illness? null: not assessed yet. Victims' OSHA cases count only when true.
   */
  osha_work_related: z
    .boolean(invalid)
    .nullable()
    .optional()
    .transform((v) => v ?? null),
});

/** POST /api/incidents (body `incident`, spec 001 §7). */
export const incidentCreateBody = z.object({
  incident: reportFields.extend({ attachment_ids: attachmentIds.default([]) }).superRefine(checkVictims),
});
export type IncidentCreateInput = z.input<typeof incidentCreateBody>;
export type IncidentCreate = z.output<typeof incidentCreateBody>['incident'];

const guestVictim = victimInput.omit({ id: true, osha: true });

/**
 * POST /api/incidents/outer: the signed-out guest form of /incident. No categories, areas, people or
 * OSHA facts (a guest sees no settings); staff complete those. Name and e-mail are the reporter's own.
 */
export const incidentGuestBody = z
  .object({
    type: incidentTypeSchema,
    description: requiredText(INCIDENT_DESCRIPTION_MAX),
    site_id: z.uuid({ error: () => 'incidents.validation.site' }),
    occurred_at: occurredAtSchema,
    shift: optionalEnum(INCIDENT_SHIFTS),
    severity: optionalEnum(INCIDENT_SEVERITIES),
    likelihood: optionalEnum(INCIDENT_LIKELIHOODS),
    action_taken: requiredText(INCIDENT_TEXT_MAX, 'incidents.validation.actionTaken'),
    victims: z.array(guestVictim, invalid).min(1, { message: 'incidents.validation.victimsRequired' }).max(INCIDENT_VICTIMS_MAX, tooLong),
    reporter_name: optionalText(100),
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
  .superRefine((v, ctx) =>
    checkVictims({ occurred_at: v.occurred_at, victims: v.victims.map((x) => ({ ...x, osha: null, id: null })) }, ctx),
  );
export type IncidentGuestInput = z.input<typeof incidentGuestBody>;
export type IncidentGuest = z.output<typeof incidentGuestBody>;

/**
 * PATCH /api/v2/incidents/{id} (spec 001 §7): step 1's fields, any subset. `victims` is the whole
 * list after the edit (a victim left out is removed; one with its `id` is kept and updated);
 * `attachment_ids` is the whole set of files after the edit (files left out are deleted).
 */
export const incidentUpdateBody = reportFields.partial().superRefine((v, ctx) => {
  if (Object.values(v).every((x) => x === undefined))
    ctx.addIssue({ code: 'custom', path: [], message: 'incidents.validation.nothingToChange' });
  checkVictims(v, ctx);
});
export type IncidentUpdateInput = z.input<typeof incidentUpdateBody>;
export type IncidentUpdate = z.output<typeof incidentUpdateBody>;
