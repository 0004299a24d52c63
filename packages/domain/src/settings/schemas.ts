import { z } from 'zod';
import { listEnvelope, listQuery } from '../api/shared.js';
import { MAILER_SCENARIO_IDS, type MailerScenarioId } from '../mailers/catalogue.js';

/**
 * KPI targets of one year (spec 001 §9 dashboards: LTIFR, closure-rate targets for critical and
 * serious potential; observation participation; training hours). Rates are percentages.
 */
export const KPI_FIELDS = [
  'ltifr_target',
  'observations_per_employee_month',
  'critical_closure_rate_target',
  'serious_closure_rate_target',
  'training_hours_per_employee',
] as const;
export type KpiField = (typeof KPI_FIELDS)[number];

export const KPI_YEAR_MIN = 2000;
export const KPI_YEAR_MAX = 2100;

const nonNegative = (max: number) =>
  z
    .number({ message: 'validation.required' })
    .finite({ message: 'validation.invalid' })
    .min(0, { message: 'settings.validation.nonNegative' })
    .max(max, { message: 'settings.validation.tooLarge' });
const percent = () =>
  z
    .number({ message: 'validation.required' })
    .finite({ message: 'validation.invalid' })
    .min(0, { message: 'settings.validation.percent' })
    .max(100, { message: 'settings.validation.percent' });

export const kpiSettingsSchema = z.object({
  ltifr_target: nonNegative(1_000_000),
  observations_per_employee_month: nonNegative(1_000),
  critical_closure_rate_target: percent(),
  serious_closure_rate_target: percent(),
  training_hours_per_employee: nonNegative(10_000),
});
export type KpiSettingsInput = z.infer<typeof kpiSettingsSchema>;

export const kpiYearQuery = z.object({
  year: z.coerce
    .number({ message: 'validation.invalid' })
    .int({ message: 'validation.invalid' })
    .min(KPI_YEAR_MIN, { message: 'settings.validation.year' })
    .max(KPI_YEAR_MAX, { message: 'settings.validation.year' }),
});

/** Targets a year starts with until an admin saves its own (closure targets as the dashboards' 100 / 90). */
export const KPI_DEFAULTS: KpiSettingsInput = {
  ltifr_target: 0,
  observations_per_employee_month: 1,
  critical_closure_rate_target: 100,
  serious_closure_rate_target: 90,
  training_hours_per_employee: 16,
};

export const kpiSettingsResponse = kpiSettingsSchema.extend({
  year: z.number(),
  is_default: z.boolean(),
  updated_at: z.string().nullable(),
});
export type KpiSettings = z.infer<typeof kpiSettingsResponse>;

/**
 * The organisation's action rules (issue 15 item 8): closing (verifying) an action needs someone other
 * than the person who completed it (`close_by_other`, on by default; see mayCloseAction).
 */
export const actionSettingsSchema = z.object({ close_by_other: z.boolean({ message: 'validation.invalid' }) });
export type ActionSettings = z.infer<typeof actionSettingsSchema>;

/** EHS operational control procedures: a code, a title, what it controls, the sites it applies to. */
export const EHS_OCP_CODE_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._/-]*$/;
export const ehsOcpSchema = z.object({
  code: z
    .string({ message: 'validation.required' })
    .trim()
    .min(1, { message: 'validation.required' })
    .max(30, { message: 'validation.tooLong' })
    .regex(EHS_OCP_CODE_PATTERN, { message: 'settings.validation.ocpCode' }),
  title: z
    .string({ message: 'validation.required' })
    .trim()
    .min(1, { message: 'validation.required' })
    .max(200, { message: 'validation.tooLong' }),
  description: z.string().trim().max(5_000, { message: 'validation.tooLong' }).default(''),
  site_ids: z
    .array(z.uuid({ message: 'validation.invalid' }))
    .max(500, { message: 'validation.tooLong' })
    .default([]),
  active: z.boolean().default(true),
});
export type EhsOcpInput = z.infer<typeof ehsOcpSchema>;
export const ehsOcpPatchSchema = ehsOcpSchema.partial();

export const ehsOcpItemSchema = z.object({
  id: z.string(),
  code: z.string(),
  title: z.string(),
  description: z.string(),
  active: z.boolean(),
  sites: z.array(z.object({ id: z.string(), name: z.string() })),
  created_at: z.string(),
  updated_at: z.string(),
});
export type EhsOcp = z.infer<typeof ehsOcpItemSchema>;

/** GET /api/v2/ehs_ocps: a page by code, searched, optionally only the active (true) or inactive (false) ones. */
export const ehsOcpListQuery = listQuery.extend({
  active: z
    .enum(['true', 'false'])
    .optional()
    .transform((v) => (v === undefined ? undefined : v === 'true')),
});
export const ehsOcpListResponse = listEnvelope('ehs_ocps', ehsOcpItemSchema);

const scenarioIdSchema = z.enum(MAILER_SCENARIO_IDS as [MailerScenarioId, ...MailerScenarioId[]], { message: 'validation.invalid' });

/** Which scenarios a user receives by e-mail (in-app notifications always arrive). */
export const emailSubscriptionsSchema = z.object({
  subscriptions: z
    .array(
      z.object({
        scenario_id: scenarioIdSchema,
        email: z.boolean(),
      }),
    )
    .max(MAILER_SCENARIO_IDS.length * 2, { message: 'validation.tooLong' }),
});
export type EmailSubscriptionsInput = z.infer<typeof emailSubscriptionsSchema>;

export const emailSubscriptionItemSchema = z.object({
  scenario_id: scenarioIdSchema,
  module: z.string(),
  email: z.boolean(),
  mandatory: z.boolean(),
});
export const emailSubscriptionsResponse = z.object({ subscriptions: z.array(emailSubscriptionItemSchema) });
export type EmailSubscriptionItem = z.infer<typeof emailSubscriptionItemSchema>;
