import { CATEGORY_TYPES_BY_MODULE } from '../categories/schemas.js';
import { PAGE_SIZES } from '../constants.js';
import { USER_GENDERS, USER_SHIFTS } from '../users/schemas.js';

/**
 * The incident record's vocabulary (spec 001 §3 Incident and Victim, §4, §9; DECISIONS "Modules").
 * Every list here is a stable key; its label is `incidents.<list>.<key>` in the four languages.
 */

/** Spec 001 §4. Overdue: the investigation's target date has passed at the site and the incident is not closed. */
export const INCIDENT_STATUSES = ['open', 'overdue', 'closed'] as const;
export type IncidentStatus = (typeof INCIDENT_STATUSES)[number];

/** The incident's type is one of the incident category types (the categories module's `incidents`). */
export const INCIDENT_TYPES = CATEGORY_TYPES_BY_MODULE.incidents;
export type IncidentType = (typeof INCIDENT_TYPES)[number];

/**
 * Severity, least to most severe (spec 001 §9 lists minor, serious, major, fatal, critical):
 * minor: first aid; serious: medical treatment or restricted work; major: lost-time injury or
 * permanent harm; fatal: one death; critical: several deaths or a major loss (the catastrophic end).
 */
export const INCIDENT_SEVERITIES = ['minor', 'serious', 'major', 'fatal', 'critical'] as const;
export type IncidentSeverity = (typeof INCIDENT_SEVERITIES)[number];

/** Likelihood of it happening again: the HIRA scale of spec 001 §3, least to most likely. */
export const INCIDENT_LIKELIHOODS = ['rare', 'possible', 'likely', 'often', 'certain'] as const;
export type IncidentLikelihood = (typeof INCIDENT_LIKELIHOODS)[number];

/** Risk bands of severity rank × likelihood rank (1..25), as a 5×5 matrix is usually banded. */
export const INCIDENT_RISK_LEVELS = ['low', 'medium', 'high', 'critical'] as const;
export type IncidentRiskLevel = (typeof INCIDENT_RISK_LEVELS)[number];

/** Spec 001 §9 shifts. */
export const INCIDENT_SHIFTS = USER_SHIFTS;
export type IncidentShift = (typeof INCIDENT_SHIFTS)[number];

/** How the record arrived: a signed-in person, or the signed-out guest form at /incident. */
export const INCIDENT_SOURCES = ['staff', 'guest'] as const;
export type IncidentSource = (typeof INCIDENT_SOURCES)[number];

/** Spec 001 §9 victim types and genders. */
export const VICTIM_TYPES = ['employee', 'contractor', 'visitor', 'others'] as const;
export type VictimType = (typeof VICTIM_TYPES)[number];
export const VICTIM_GENDERS = USER_GENDERS;
export type VictimGender = (typeof VICTIM_GENDERS)[number];
export const VICTIM_AGE_RANGES = ['under_18', '18_24', '25_34', '35_44', '45_54', '55_64', '65_plus'] as const;
export type VictimAgeRange = (typeof VICTIM_AGE_RANGES)[number];

/**
 * The body parts a victim's injuries are marked on, as a body diagram shows them. `BODY_PART_VIEW`
 * says on which side of the diagram a part is drawn (front, back, or both for the head and limbs).
 */
export const BODY_PARTS = [
  'head',
  'face',
  'eyes',
  'ears',
  'neck',
  'chest',
  'abdomen',
  'pelvis',
  'upper_back',
  'lower_back',
  'left_shoulder',
  'right_shoulder',
  'left_upper_arm',
  'right_upper_arm',
  'left_elbow',
  'right_elbow',
  'left_forearm',
  'right_forearm',
  'left_wrist',
  'right_wrist',
  'left_hand',
  'right_hand',
  'left_fingers',
  'right_fingers',
  'left_hip',
  'right_hip',
  'left_thigh',
  'right_thigh',
  'left_knee',
  'right_knee',
  'left_lower_leg',
  'right_lower_leg',
  'left_ankle',
  'right_ankle',
  'left_foot',
  'right_foot',
  'left_toes',
  'right_toes',
  'internal_organs',
] as const;
export type BodyPart = (typeof BODY_PARTS)[number];

const BACK_ONLY: readonly BodyPart[] = ['upper_back', 'lower_back'];
const FRONT_ONLY: readonly BodyPart[] = ['face', 'eyes', 'chest', 'abdomen', 'pelvis', 'internal_organs'];
export const BODY_PART_VIEW: Record<BodyPart, 'front' | 'back' | 'both'> = Object.fromEntries(
  BODY_PARTS.map((p) => [p, BACK_ONLY.includes(p) ? 'back' : FRONT_ONLY.includes(p) ? 'front' : 'both']),
) as Record<BodyPart, 'front' | 'back' | 'both'>;

/** Key factors (step 4): the 4M analysis (man, machine, method, material) plus the environment. */
export const KEY_FACTOR_CATEGORIES = ['man', 'machine', 'method', 'material', 'environment'] as const;
export type KeyFactorCategory = (typeof KEY_FACTOR_CATEGORIES)[number];

/** What a CAPA action does: removes the cause of this incident, or keeps it from happening elsewhere. */
export const CAPA_KINDS = ['corrective', 'preventive'] as const;
export type CapaKind = (typeof CAPA_KINDS)[number];

/**
 * The seven steps of the investigation (spec 000 §2, DECISIONS): /incidents/{id}/steps/step1..step7.
 * Spec 001 §4's five labels group them: report (1), investigation team (2), root cause analysis
 * (3, 4, 5), recommended actions (6), review and closure (7).
 */
export const INVESTIGATION_STEPS = ['report', 'team', 'facts', 'key_factors', 'why_analysis', 'actions', 'record'] as const;
export type InvestigationStep = (typeof INVESTIGATION_STEPS)[number];
/** Step number (1..7) of a step key. */
export function investigationStepNumber(step: InvestigationStep): number {
  return INVESTIGATION_STEPS.indexOf(step) + 1;
}

/**
 * Where the investigation stands (the list's "investigation state" filter):
 * - not_required: the report says no investigation is needed;
 * - awaiting_team: needed, no team formed yet;
 * - in_progress: the team works on steps 3 to 7;
 * - under_review: submitted to the site's review workflow;
 * - returned: a reviewer sent it back; the team works on it again and resubmits;
 * - approved: every reviewer approved; the incident may be closed.
 */
export const INVESTIGATION_STATES = ['not_required', 'awaiting_team', 'in_progress', 'under_review', 'returned', 'approved'] as const;
export type InvestigationState = (typeof INVESTIGATION_STATES)[number];

export const INCIDENT_PAGE_SIZE = PAGE_SIZES.incidents;
export const INCIDENT_DESCRIPTION_MAX = 4000;
export const INCIDENT_TEXT_MAX = 2000;
export const INCIDENT_ATTACHMENTS_MAX = 10;
export const INCIDENT_EVIDENCE_MAX = 20;
export const INCIDENT_VICTIMS_MAX = 50;
export const INCIDENT_TEAM_MAX = 20;
export const INCIDENT_TIMELINE_MAX = 50;
export const INCIDENT_WITNESSES_MAX = 30;
export const INCIDENT_FACTORS_MAX = 30;
export const INCIDENT_WHYS_MAX = 7;
export const INCIDENT_ROOT_CAUSES_PER_FACTOR_MAX = 10;
export const INCIDENT_CAPA_MAX = 20;
export const INCIDENT_REPORT_RECIPIENTS_MAX = 30;

/** 'INC-000123': the serial people read and search for; numbers are per organisation. */
export function formatIncidentSerial(serial: number): string {
  return `INC-${String(serial).padStart(6, '0')}`;
}

/** 'INC-000123', 'inc-123' or '123' -> 123; null when the text is not a serial. */
export function parseIncidentSerial(text: string): number | null {
  const m = /^(?:inc-?)?0*(\d{1,9})$/i.exec(text.trim());
  return m ? Number(m[1]) : null;
}

/* ---- Rating ---- */

/** "Rating pending" (DECISIONS): severity or likelihood not set yet. */
export function isRatingPending(r: { severity: IncidentSeverity | null; likelihood: IncidentLikelihood | null }): boolean {
  return r.severity === null || r.likelihood === null;
}

/** Severity rank × likelihood rank, 1..25; null while the rating is pending. */
export function incidentRiskScore(severity: IncidentSeverity | null, likelihood: IncidentLikelihood | null): number | null {
  if (severity === null || likelihood === null) return null;
  return (INCIDENT_SEVERITIES.indexOf(severity) + 1) * (INCIDENT_LIKELIHOODS.indexOf(likelihood) + 1);
}

/** The band of a score: 1–4 low, 5–9 medium, 10–16 high, 20–25 critical. */
export function incidentRiskLevel(score: number | null): IncidentRiskLevel | null {
  if (score === null) return null;
  if (score <= 4) return 'low';
  if (score <= 9) return 'medium';
  if (score <= 16) return 'high';
  return 'critical';
}
