import { z } from 'zod';
import { invalid, optionalDate, optionalEnum, optionalText, requiredOrInvalid } from './inputs.js';
import type { VictimType } from './model.js';

/**
 * The OSHA injury and illness records (29 CFR 1904) kept from the incidents and victims already
 * recorded. The few facts the forms need that the spec's record lacks are a victim's `osha` case.
 * The rules applied are written in docs/modules.md ("Incidents", "OSHA logs").
 */

/** Column M of the 300 log: injury, or one of the illness types. */
export const OSHA_INJURY_TYPES = [
  'injury',
  'skin_disorder',
  'respiratory_condition',
  'poisoning',
  'hearing_loss',
  'other_illness',
] as const;
export type OshaInjuryType = (typeof OSHA_INJURY_TYPES)[number];

/** Columns G–J of the 300 log, most serious first: each case is checked in the most serious that applies. */
export const OSHA_CLASSIFICATIONS = ['death', 'days_away', 'job_transfer_restriction', 'other_recordable'] as const;
export type OshaClassification = (typeof OSHA_CLASSIFICATIONS)[number];

/** 1904.29(b)(7)(i)–(vi): the privacy concern cases, whose name stays off the 300 log. */
export const OSHA_PRIVACY_REASONS = [
  'intimate_body_part',
  'sexual_assault',
  'mental_illness',
  'infectious_disease',
  'needlestick',
  'employee_request',
] as const;
export type OshaPrivacyReason = (typeof OSHA_PRIVACY_REASONS)[number];

/** 1904.7(b)(3)(vii) and (b)(4)(x): days away and restricted are counted up to 180 in total. */
export const OSHA_DAYS_CAP = 180;

const days = z
  .number(invalid)
  .int(invalid)
  .min(0, invalid)
  .max(OSHA_DAYS_CAP, { message: 'incidents.validation.oshaDaysCap' })
  .nullable()
  .optional()
  .transform((v) => v ?? 0);

/**
 * A victim's OSHA case: what the 300, 300A and 301 forms ask beyond the victim's record. The 1904.7
 * criteria are answered as facts (died, days away, days restricted, medical treatment beyond first
 * aid, loss of consciousness, a significant diagnosed injury or illness); the classification follows.
 */
export const oshaCaseInput = z
  .object({
    job_title: optionalText(100),
    injury_type: z.enum(OSHA_INJURY_TYPES, { error: requiredOrInvalid('incidents.validation.oshaInjuryType') }),
    died: z.boolean(invalid).default(false),
    date_of_death: optionalDate('incidents.validation.oshaDateOfDeath'),
    days_away: days,
    days_restricted: days,
    /** Medical treatment beyond first aid (1904.7(b)(5)). */
    medical_treatment: z.boolean(invalid).default(false),
    loss_of_consciousness: z.boolean(invalid).default(false),
    /** A significant injury or illness diagnosed by a physician (1904.7(b)(7)): cancer, a fracture, a punctured eardrum… */
    significant_diagnosis: z.boolean(invalid).default(false),
    /** A contractor's worker supervised day to day by the organisation is recorded like an employee (1904.31(b)(2)). */
    day_to_day_supervised: z.boolean(invalid).default(false),
    privacy_reason: optionalEnum(OSHA_PRIVACY_REASONS),
  })
  .superRefine((v, ctx) => {
    if (v.died && !v.date_of_death)
      ctx.addIssue({ code: 'custom', path: ['date_of_death'], message: 'incidents.validation.oshaDateOfDeath' });
    if (!v.died && v.date_of_death)
      ctx.addIssue({ code: 'custom', path: ['date_of_death'], message: 'incidents.validation.oshaDeathWithoutDeath' });
    // (b)(7)(vi): an employee's own request makes a privacy case of an illness, never of an injury.
    if (v.privacy_reason === 'employee_request' && v.injury_type === 'injury')
      ctx.addIssue({ code: 'custom', path: ['privacy_reason'], message: 'incidents.validation.oshaRequestIllnessOnly' });
  });
export type OshaCaseInput = z.input<typeof oshaCaseInput>;
export type OshaCase = z.output<typeof oshaCaseInput>;

/** The 1904.7(a) outcome of a case, the most serious first; null when no general criterion is met. */
export function oshaClassification(
  c: Pick<OshaCase, 'died' | 'days_away' | 'days_restricted' | 'medical_treatment' | 'loss_of_consciousness' | 'significant_diagnosis'>,
): OshaClassification | null {
  if (c.died) return 'death';
  if (c.days_away > 0) return 'days_away';
  if (c.days_restricted > 0) return 'job_transfer_restriction';
  if (c.medical_treatment || c.loss_of_consciousness || c.significant_diagnosis) return 'other_recordable';
  return null;
}

/** 1904.31: employees are recorded, and contractors' workers the organisation supervises day to day; visitors never. */
export function oshaCovered(type: VictimType, c: Pick<OshaCase, 'day_to_day_supervised'>): boolean {
  return type === 'employee' || (type === 'contractor' && c.day_to_day_supervised);
}

/**
 * A recordable case: the incident is work-related (1904.5, the incident's recordability question),
 * the person is covered (1904.31), and the case meets a general recording criterion (1904.7).
 */
export function oshaRecordable(workRelated: boolean | null, type: VictimType, c: OshaCase | null): boolean {
  return workRelated === true && c !== null && oshaCovered(type, c) && oshaClassification(c) !== null;
}

/** 1904.29(b)(6): a privacy concern case; the log says "Privacy case" instead of the name. */
export function oshaPrivacyCase(c: Pick<OshaCase, 'privacy_reason'> | null): boolean {
  return c?.privacy_reason != null;
}

/** A suggestion for days away (1904.7(b)(3)(iii)): calendar days after the day of the incident until the return, capped. */
export function oshaSuggestedDaysAway(incidentDate: string, returnToWork: string | null): number {
  if (!returnToWork) return 0;
  const days = Math.round((Date.parse(`${returnToWork}T00:00:00Z`) - Date.parse(`${incidentDate}T00:00:00Z`)) / 86_400_000) - 1;
  return Math.max(0, Math.min(OSHA_DAYS_CAP, days));
}

/** The case number as the log prints it: '2026-004' (the year of the incident, a number per site and year). */
export function formatOshaCaseNumber(year: number, n: number): string {
  return `${year}-${String(n).padStart(3, '0')}`;
}

/** Monday to Friday in a month (1–12): the working days of the man-hours rule (DECISIONS, LTIFR). */
export function workingDaysInMonth(year: number, month: number): number {
  const days = new Date(Date.UTC(year, month, 0)).getUTCDate();
  let n = 0;
  for (let d = 1; d <= days; d += 1) {
    const wd = new Date(Date.UTC(year, month - 1, d)).getUTCDay();
    if (wd !== 0 && wd !== 6) n += 1;
  }
  return n;
}

/** 300A "total hours worked": 8 hours × the month's manpower for each working day, over the twelve months. */
export function oshaHoursWorked(year: number, monthlyManpower: readonly number[]): number {
  return monthlyManpower.reduce((sum, m, i) => sum + 8 * m * workingDaysInMonth(year, i + 1), 0);
}

/** 300A "annual average number of employees": the mean of the twelve monthly head counts, rounded. */
export function oshaAverageEmployees(monthlyManpower: readonly number[]): number {
  if (monthlyManpower.length === 0) return 0;
  return Math.round(monthlyManpower.reduce((a, b) => a + b, 0) / monthlyManpower.length);
}
