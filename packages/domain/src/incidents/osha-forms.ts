import { z } from 'zod';
import { invalid } from './inputs.js';
import { BODY_PARTS, VICTIM_AGE_RANGES, VICTIM_GENDERS } from './model.js';
import { OSHA_CLASSIFICATIONS, OSHA_INJURY_TYPES } from './osha.js';

/**
 * The OSHA forms as JSON (for printable pages), with the same content in PDF and Excel: the 300 log
 * per establishment (a site) and year, its 300A summary, and the 301 incident report per case.
 */

const exportFlag = z
  .enum(['true', 'false'], invalid)
  .optional()
  .transform((v) => v === 'true');

/** GET /api/incidents/osha/300 and /300a: one establishment (site) and calendar year. */
export const oshaLogQuery = z.object({
  site_id: z.uuid({ error: () => 'incidents.validation.site' }),
  year: z.coerce.number(invalid).int(invalid).min(2000, invalid).max(2100, invalid),
  export_to_excel: exportFlag,
});
export type OshaLogQueryInput = z.input<typeof oshaLogQuery>;
export type OshaLogQuery = z.output<typeof oshaLogQuery>;

/** GET /api/incidents/{id}/victims/{victim_id}/osha_301. */
export const osha301Params = z.object({ id: z.uuid(invalid), victim_id: z.uuid(invalid) });
export const osha301Query = z.object({ export_to_excel: exportFlag });

/** The establishment's block of the forms: the site's name and address. */
export const oshaEstablishmentSchema = z.object({
  site_id: z.string(),
  name: z.string(),
  street: z.string(),
  city: z.string(),
  state: z.string(),
  zip: z.string(),
  country: z.string(),
});

/** One line of the 300 log (columns A–M). */
export const osha300RowSchema = z.object({
  incident_id: z.string(),
  incident_serial: z.string(),
  victim_id: z.string(),
  /** (A) */
  case_number: z.string(),
  /** (B) null for a privacy case: print "Privacy case" (1904.29(b)(6)). */
  employee_name: z.string().nullable(),
  privacy_case: z.boolean(),
  /** (C) */
  job_title: z.string().nullable(),
  /** (D) the incident's local date at the site. */
  date: z.string(),
  /** (E) the site, and the area when one is named. */
  location: z.string(),
  /** (F) the injury or illness, the parts of the body, what happened. */
  description: z.string(),
  /** (G)–(J) the one most serious outcome. */
  classification: z.enum(OSHA_CLASSIFICATIONS),
  /** (K), (L) capped at 180. */
  days_away: z.number(),
  days_restricted: z.number(),
  /** (M) */
  injury_type: z.enum(OSHA_INJURY_TYPES),
});
export type Osha300Row = z.infer<typeof osha300RowSchema>;

/** The column totals (the 300's last line, the 300A's figures). */
export const oshaTotalsSchema = z.object({
  deaths: z.number(),
  days_away_cases: z.number(),
  job_transfer_restriction_cases: z.number(),
  other_recordable_cases: z.number(),
  days_away: z.number(),
  days_restricted: z.number(),
  injury_types: z.object(
    Object.fromEntries(OSHA_INJURY_TYPES.map((t) => [t, z.number()])) as Record<(typeof OSHA_INJURY_TYPES)[number], z.ZodNumber>,
  ),
});
export type OshaTotals = z.infer<typeof oshaTotalsSchema>;

export const osha300Response = z.object({
  year: z.number(),
  establishment: oshaEstablishmentSchema,
  rows: z.array(osha300RowSchema),
  totals: oshaTotalsSchema,
  /**
   * The confidential list of privacy cases' numbers and names (1904.29(b)(6)), shown only to holders of
   * Incident update; null for everyone else, and never in the PDF or the workbook.
   */
  privacy_list: z.array(z.object({ case_number: z.string(), employee_name: z.string() })).nullable(),
});
export type Osha300 = z.infer<typeof osha300Response>;

export const osha300aResponse = z.object({
  year: z.number(),
  establishment: oshaEstablishmentSchema,
  totals: oshaTotalsSchema,
  /** The mean of the site's twelve monthly head counts (manpower, default 100 a month). */
  average_employees: z.number(),
  /** 8 hours × the month's manpower × its working days (Monday to Friday), over the year. */
  hours_worked: z.number(),
  monthly_manpower: z.array(z.number()),
});
export type Osha300A = z.infer<typeof osha300aResponse>;

/** The 301 incident report of one case: what the record holds, blank where it holds nothing. */
export const osha301Response = z.object({
  establishment: oshaEstablishmentSchema,
  incident_id: z.string(),
  incident_serial: z.string(),
  /** Information about the employee (1–5): name (the 301 keeps it; it is not posted), gender, age range, employee id, job title. */
  employee: z.object({
    name: z.string(),
    employee_id: z.string().nullable(),
    gender: z.enum(VICTIM_GENDERS),
    age_range: z.enum(VICTIM_AGE_RANGES).nullable(),
    job_title: z.string().nullable(),
  }),
  /** Information about the treatment (6–9): as far as the record says. */
  treatment: z.object({
    treatment: z.string().nullable(),
    /** Taken to hospital (the form's "treated in an emergency room"). */
    taken_to_hospital: z.boolean(),
  }),
  /** Information about the case (10–18). */
  case: z.object({
    case_number: z.string(),
    date_of_injury: z.string(),
    time_of_event: z.string(),
    what_happened: z.string(),
    injury: z.string().nullable(),
    body_parts: z.array(z.enum(BODY_PARTS)),
    action_taken: z.string(),
    date_of_death: z.string().nullable(),
    classification: z.enum(OSHA_CLASSIFICATIONS),
    days_away: z.number(),
    days_restricted: z.number(),
    injury_type: z.enum(OSHA_INJURY_TYPES),
    privacy_case: z.boolean(),
  }),
});
export type Osha301 = z.infer<typeof osha301Response>;
