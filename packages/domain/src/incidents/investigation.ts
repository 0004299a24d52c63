import { z } from 'zod';
import { actionItemSchema } from '../actions/schemas.js';
import { isLocalDateTime } from '../observations/local-time.js';
import { dateText, distinct, invalid, optionalText, optionalUuid, requiredText, tooLong } from './inputs.js';
import {
  CAPA_KINDS,
  INCIDENT_CAPA_MAX,
  INCIDENT_DESCRIPTION_MAX,
  INCIDENT_EVIDENCE_MAX,
  INCIDENT_FACTORS_MAX,
  INCIDENT_REPORT_RECIPIENTS_MAX,
  INCIDENT_ROOT_CAUSES_PER_FACTOR_MAX,
  INCIDENT_TEAM_MAX,
  INCIDENT_TEXT_MAX,
  INCIDENT_TIMELINE_MAX,
  INCIDENT_WHYS_MAX,
  INCIDENT_WITNESSES_MAX,
  KEY_FACTOR_CATEGORIES,
} from './model.js';

/** Steps 2 to 7 of the investigation: one body per step, each replacing that step's data as a whole. */

/**
 * PUT /api/incidents/{id}/team (step 2, team formation). The lead and at least one member (spec 001
 * §5), and the target date by which the investigation is to be approved: today or later at the site
 * when it is set or moved (the server checks), and never before the incident.
 */
export const incidentTeamBody = z
  .object({
    lead_id: z.uuid({ error: () => 'incidents.validation.lead' }),
    member_ids: distinct(z.uuid(invalid), INCIDENT_TEAM_MAX).min(1, { message: 'incidents.validation.members' }),
    target_date: dateText('incidents.validation.targetDate'),
  })
  .superRefine((v, ctx) => {
    if (v.member_ids.includes(v.lead_id))
      ctx.addIssue({ code: 'custom', path: ['member_ids'], message: 'incidents.validation.leadIsMember' });
  });
export type IncidentTeamInput = z.input<typeof incidentTeamBody>;
export type IncidentTeam = z.output<typeof incidentTeamBody>;

/**
 * PUT /api/incidents/{id}/facts (step 3, determine the facts): the timeline of events (local times of
 * the site, not after now there), the witnesses with their statements (a member, or a typed name),
 * and the evidence files (uploaded first, like the report's attachments).
 */
export const incidentFactsBody = z.object({
  timeline: z
    .array(
      z.object({
        at: z
          .string({ error: () => 'incidents.validation.timelineAt' })
          .trim()
          .refine(isLocalDateTime, { message: 'incidents.validation.timelineAt' }),
        description: requiredText(INCIDENT_TEXT_MAX),
      }),
      invalid,
    )
    .max(INCIDENT_TIMELINE_MAX, tooLong),
  witnesses: z
    .array(
      z.object({
        name: requiredText(100, 'incidents.validation.witnessName'),
        /** When the witness is a member of the organisation. */
        user_id: optionalUuid,
        statement: requiredText(INCIDENT_DESCRIPTION_MAX, 'incidents.validation.statement'),
        contact: optionalText(200),
      }),
      invalid,
    )
    .max(INCIDENT_WITNESSES_MAX, tooLong),
  evidence_ids: distinct(z.uuid(invalid), INCIDENT_EVIDENCE_MAX, 'incidents.validation.tooManyAttachments'),
});
export type IncidentFactsInput = z.input<typeof incidentFactsBody>;
export type IncidentFacts = z.output<typeof incidentFactsBody>;

/**
 * PUT /api/incidents/{id}/key_factors (step 4): the factors that led to the incident, each under a
 * 4M category or the environment. A factor given with its `id` keeps its why-why analysis; a factor
 * left out is removed with its analysis.
 */
export const incidentKeyFactorsBody = z.object({
  factors: z
    .array(
      z.object({
        id: optionalUuid,
        category: z.enum(KEY_FACTOR_CATEGORIES, { error: () => 'incidents.validation.factorCategory' }),
        description: requiredText(INCIDENT_TEXT_MAX),
      }),
      invalid,
    )
    .min(1, { message: 'incidents.validation.factorsMissing' })
    .max(INCIDENT_FACTORS_MAX, tooLong)
    .superRefine((fs, ctx) => {
      const ids = fs.map((f) => f.id).filter((x): x is string => !!x);
      if (new Set(ids).size !== ids.length) ctx.addIssue({ code: 'custom', message: 'validation.invalid' });
    }),
});
export type IncidentKeyFactorsInput = z.input<typeof incidentKeyFactorsBody>;
export type IncidentKeyFactors = z.output<typeof incidentKeyFactorsBody>;

/**
 * PUT /api/incidents/{id}/why_analysis (step 5): for each factor analysed, its chain of whys (the
 * first asks why the factor happened, each next one why the answer before it did) ending in the root
 * causes picked from the organisation's root-cause tree (GET /api/incidents/{id}/root_causes). The
 * factors listed are replaced; a factor not listed keeps its analysis.
 */
export const incidentWhyAnalysisBody = z.object({
  analyses: z
    .array(
      z.object({
        factor_id: z.uuid(invalid),
        whys: z.array(requiredText(500), invalid).min(1, { message: 'incidents.validation.whysMissing' }).max(INCIDENT_WHYS_MAX, tooLong),
        root_cause_ids: distinct(z.uuid(invalid), INCIDENT_ROOT_CAUSES_PER_FACTOR_MAX).min(1, {
          message: 'incidents.validation.rootCausesMissing',
        }),
      }),
      invalid,
    )
    .min(1, { message: 'validation.required' })
    .max(INCIDENT_FACTORS_MAX, tooLong)
    .superRefine((as, ctx) => {
      if (new Set(as.map((a) => a.factor_id)).size !== as.length) ctx.addIssue({ code: 'custom', message: 'validation.invalid' });
    }),
});
export type IncidentWhyAnalysisInput = z.input<typeof incidentWhyAnalysisBody>;
export type IncidentWhyAnalysis = z.output<typeof incidentWhyAnalysisBody>;

/** One CAPA action: an action of source `incident`, corrective or preventive. */
export const capaItemSchema = actionItemSchema.extend({
  kind: z.enum(CAPA_KINDS, { error: () => 'incidents.validation.capaKind' }),
});
export type CapaItemInput = z.input<typeof capaItemSchema>;
export type CapaItem = z.output<typeof capaItemSchema>;

/**
 * POST /api/incidents/{id}/actions (step 6, recommend actions): raises CAPA actions through the
 * actions module, in one transaction; field errors read `actions.N.field`.
 */
export const incidentCapaBody = z.object({
  actions: z.array(capaItemSchema, invalid).min(1, { message: 'incidents.validation.capaMissing' }).max(INCIDENT_CAPA_MAX, tooLong),
});
export type IncidentCapaInput = z.input<typeof incidentCapaBody>;
export type IncidentCapa = z.output<typeof incidentCapaBody>;

/** PUT /api/incidents/{id}/record (step 7, record): the investigation's conclusion and lessons learned. */
export const incidentRecordBody = z.object({
  conclusion: requiredText(INCIDENT_DESCRIPTION_MAX, 'incidents.validation.conclusionMissing'),
  lessons_learned: optionalText(INCIDENT_DESCRIPTION_MAX),
});
export type IncidentRecordInput = z.input<typeof incidentRecordBody>;
export type IncidentRecord = z.output<typeof incidentRecordBody>;

/** POST /api/incidents/{id}/close: closing remarks (Incident close; approved, or no investigation needed). */
export const incidentCloseBody = z.object({ remarks: requiredText(INCIDENT_TEXT_MAX, 'incidents.validation.closingRemarks') });
export type IncidentCloseInput = z.input<typeof incidentCloseBody>;

/**
 * POST /api/incidents/{id}/send_report (step 7, communicate): the PDF report mailed to the people
 * chosen: members (who also get an in-app notification) and other e-mail addresses.
 */
export const incidentSendReportBody = z
  .object({
    user_ids: distinct(z.uuid(invalid), INCIDENT_REPORT_RECIPIENTS_MAX).default([]),
    emails: distinct(
      z
        .string(invalid)
        .trim()
        .toLowerCase()
        .max(254, tooLong)
        .pipe(z.email({ message: 'validation.email' })),
      INCIDENT_REPORT_RECIPIENTS_MAX,
    ).default([]),
    message: optionalText(INCIDENT_TEXT_MAX),
  })
  .superRefine((v, ctx) => {
    if (v.user_ids.length + v.emails.length === 0)
      ctx.addIssue({ code: 'custom', path: ['user_ids'], message: 'incidents.validation.recipientsMissing' });
    if (v.user_ids.length + v.emails.length > INCIDENT_REPORT_RECIPIENTS_MAX)
      ctx.addIssue({ code: 'custom', path: ['emails'], message: 'validation.tooLong' });
  });
export type IncidentSendReportInput = z.input<typeof incidentSendReportBody>;
export type IncidentSendReport = z.output<typeof incidentSendReportBody>;
