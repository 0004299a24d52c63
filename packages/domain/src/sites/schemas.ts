import { getCountries, isValidPhoneNumber, parsePhoneNumberFromString, type CountryCode } from 'libphonenumber-js';
import { z } from 'zod';
import { exportFlag, idParams, listEnvelope, listQuery } from '../api/shared.js';
import { isSiteTimeZone } from './time-zones.js';

/** Spec 001 §5: a site name is "alphabets only"; spaces and the punctuation of real names are allowed. */
export const SITE_NAME_PATTERN = /^\p{L}[\p{L}\p{M} .,'’&()/-]*$/u;
/** Division, department and unit names: letters and digits ("Unit 3"), spaces and basic punctuation. */
export const SITE_NODE_NAME_PATTERN = /^[\p{L}\p{N}][\p{L}\p{M}\p{N} .,'’&()/#_-]*$/u;
export const SITE_CODE_PATTERN = /^[A-Za-z0-9][A-Za-z0-9_-]*$/;
export const SITE_ZIP_PATTERN = /^[A-Za-z0-9][A-Za-z0-9 -]{1,11}$/;

export const SITE_COUNTRIES: readonly CountryCode[] = getCountries();
export const SITE_LEVELS = ['division', 'department', 'unit'] as const;
export type SiteLevel = (typeof SITE_LEVELS)[number];

/** Spec 001 §9: the manpower of a site for a month it was never set. */
export const MANPOWER_DEFAULT = 100;
export const MANPOWER_MAX = 1_000_000;
export const MANPOWER_YEAR_MIN = 2000;
export const MANPOWER_YEAR_MAX = 2100;

const required = { message: 'validation.required' };
const tooLong = { message: 'validation.tooLong' };

const requiredText = (max: number) => z.string(required).trim().min(1, required).max(max, tooLong);

/** Empty text and null both mean "not given"; what is left must pass `inner`. */
const optional = <T extends z.ZodType>(inner: T) =>
  z
    .preprocess((v) => (typeof v === 'string' && v.trim() === '' ? null : v), inner.nullable().optional())
    .transform((v) => (v ?? null) as z.output<T> | null);

const userRef = (requiredMessage: string) => z.uuid({ message: requiredMessage });

export function isSiteCountry(value: string): value is CountryCode {
  return (SITE_COUNTRIES as readonly string[]).includes(value);
}

/** The emergency phone in international form (E.164), read in the site's country; null when invalid. */
export function normalizeSitePhone(phone: string, country: string): string | null {
  const cc = isSiteCountry(country) ? country : undefined;
  if (!isValidPhoneNumber(phone, cc)) return null;
  return parsePhoneNumberFromString(phone, cc)?.number ?? null;
}

/** Every field of a site as a form or a call gives it (spec 001 §3 Site, §5). */
export const siteFields = z.object({
  name: requiredText(100).regex(SITE_NAME_PATTERN, { message: 'sites.validation.nameLetters' }),
  short_name: optional(z.string().trim().max(20, tooLong)),
  site_code: optional(z.string().trim().max(30, tooLong).regex(SITE_CODE_PATTERN, { message: 'sites.validation.siteCode' })),
  time_zone: z
    .string(required)
    .trim()
    .min(1, { message: 'sites.validation.timeZone' })
    .refine(isSiteTimeZone, { message: 'sites.validation.timeZone' }),
  head_of_safety_id: userRef('sites.validation.headOfSafety'),
  head_of_site_id: optional(userRef('validation.invalid')),
  emergency_phone: requiredText(30),
  emergency_email: optional(
    z
      .string()
      .trim()
      .toLowerCase()
      .max(254, tooLong)
      .pipe(z.email({ message: 'validation.email' })),
  ),
  address: requiredText(500),
  city: requiredText(100),
  state: requiredText(100),
  country: z
    .string(required)
    .trim()
    .min(1, { message: 'sites.validation.country' })
    .refine(isSiteCountry, { message: 'sites.validation.country' }),
  zip: requiredText(12).regex(SITE_ZIP_PATTERN, { message: 'sites.validation.zip' }),
  latitude: optional(
    z
      .number({ message: 'sites.validation.latitude' })
      .min(-90, { message: 'sites.validation.latitude' })
      .max(90, { message: 'sites.validation.latitude' }),
  ),
  longitude: optional(
    z
      .number({ message: 'sites.validation.longitude' })
      .min(-180, { message: 'sites.validation.longitude' })
      .max(180, { message: 'sites.validation.longitude' }),
  ),
  is_active: z.boolean({ message: 'validation.invalid' }).optional(),
});

/** A whole site: the fields plus the rule that the phone is a real number of the site's country. */
export const siteSchema = siteFields.superRefine((site, ctx) => {
  if (site.emergency_phone && normalizeSitePhone(site.emergency_phone, site.country) === null) {
    ctx.addIssue({ code: 'custom', path: ['emergency_phone'], message: 'sites.validation.phone' });
  }
});
export type SiteInput = z.input<typeof siteSchema>;
export type SiteValues = z.output<typeof siteSchema>;

/** PATCH /api/sites/{id}: any subset; the server checks the merged whole with `siteSchema`. */
export const siteUpdateSchema = siteFields.partial().refine((v) => Object.keys(v).length > 0, { message: 'validation.required' });

export const siteNodeSchema = z.object({
  name: requiredText(100).regex(SITE_NODE_NAME_PATTERN, { message: 'sites.validation.nodeName' }),
  head_id: optional(userRef('validation.invalid')),
  supervisor_id: optional(userRef('validation.invalid')),
});
/** A new division (no parent), department (parent: a division) or unit (parent: a department). */
export const siteNodeCreateSchema = siteNodeSchema.extend({ parent_id: optional(z.uuid({ message: 'validation.invalid' })) });
export type SiteNodeInput = z.input<typeof siteNodeCreateSchema>;

export const siteListQuerySchema = z.object({
  active: z.enum(['all', 'active', 'inactive'], { message: 'validation.invalid' }).default('all'),
});
/** GET /api/sites: a page, searched and filtered by status, or (export_to_excel=true) every matching row. */
export const siteListQuery = listQuery.extend(siteListQuerySchema.shape).extend(exportFlag.shape);
export type SiteListQuery = z.output<typeof siteListQuery>;

/** `:id/divisions/:node_id`: a division, department or unit of a site. */
export const siteNodeParams = idParams.extend({ node_id: z.uuid({ message: 'validation.invalid' }) });
/** PATCH /api/sites/{id}/divisions/{node_id}: the fields sent change; an explicit null clears a person. */
export const siteNodeUpdateSchema = siteNodeSchema.partial();
export type SiteNodeUpdateInput = z.input<typeof siteNodeUpdateSchema>;

/** GET /api/organizations/{organization_id}/site_data. */
export const siteDataParams = z.object({ organization_id: z.uuid({ message: 'validation.invalid' }) });

/** GET /api/sites/user_options. */
export const siteUserOptionsQuery = z.object({ search: z.string().trim().max(200, tooLong).optional() });

export const manpowerYearSchema = z.coerce
  .number({ message: 'validation.invalid' })
  .int({ message: 'validation.invalid' })
  .min(MANPOWER_YEAR_MIN, { message: 'sites.validation.year' })
  .max(MANPOWER_YEAR_MAX, { message: 'sites.validation.year' });

/** GET /api/sites/manpower: the year of the grid. */
export const manpowerQuery = z.object({ year: manpowerYearSchema });

export const manpowerUpdateSchema = z.object({
  year: manpowerYearSchema,
  entries: z
    .array(
      z.object({
        site_id: z.uuid({ message: 'validation.invalid' }),
        month: z
          .number({ message: 'validation.invalid' })
          .int({ message: 'validation.invalid' })
          .min(1, { message: 'sites.validation.month' })
          .max(12, { message: 'sites.validation.month' }),
        /** null puts the month back to the default. */
        total: z
          .number({ message: 'sites.validation.manpower' })
          .int({ message: 'sites.validation.manpower' })
          .min(0, { message: 'sites.validation.manpower' })
          .max(MANPOWER_MAX, { message: 'sites.validation.manpower' })
          .nullable(),
      }),
    )
    .min(1, required)
    .max(12 * 1000, tooLong),
});
export type ManpowerUpdate = z.input<typeof manpowerUpdateSchema>;

/* ---- What the server answers ---- */

/** A person as the sites screens name them (heads, supervisors, pickers). */
export const siteUserSummarySchema = z.object({ id: z.string(), full_name: z.string(), email: z.string() });
const userSummary = siteUserSummarySchema;
export type SiteUserSummary = z.infer<typeof userSummary>;

export const siteResponseSchema = z.object({
  id: z.string(),
  name: z.string(),
  short_name: z.string().nullable(),
  site_code: z.string().nullable(),
  time_zone: z.string(),
  head_of_safety: userSummary.nullable(),
  head_of_site: userSummary.nullable(),
  emergency_phone: z.string(),
  emergency_email: z.string().nullable(),
  address: z.string(),
  city: z.string(),
  state: z.string(),
  country: z.string(),
  zip: z.string(),
  latitude: z.number().nullable(),
  longitude: z.number().nullable(),
  is_active: z.boolean(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type SiteResponse = z.infer<typeof siteResponseSchema>;

export const siteListResponseSchema = listEnvelope('sites', siteResponseSchema);
export type SiteListResponse = z.infer<typeof siteListResponseSchema>;

export type SiteNodeResponse = {
  id: string;
  level: SiteLevel;
  parent_id: string | null;
  name: string;
  head: SiteUserSummary | null;
  supervisor: SiteUserSummary | null;
  children: SiteNodeResponse[];
};
export const siteNodeResponseSchema: z.ZodType<SiteNodeResponse, SiteNodeResponse> = z
  .lazy(
    () =>
      z.object({
        id: z.string(),
        level: z.enum(SITE_LEVELS),
        parent_id: z.string().nullable(),
        name: z.string(),
        head: userSummary.nullable(),
        supervisor: userSummary.nullable(),
        children: z.array(siteNodeResponseSchema),
      }),
    // A recursive schema is a named component of the OpenAPI document, which refers to itself by that name.
  )
  .meta({ id: 'SiteNode' });

export const siteTreeResponseSchema = z.object({
  site: z.object({ id: z.string(), name: z.string(), is_active: z.boolean() }),
  divisions: z.array(siteNodeResponseSchema),
});
export type SiteTreeResponse = z.infer<typeof siteTreeResponseSchema>;

export const siteFullNameSchema = z.object({
  id: z.string(),
  site_id: z.string(),
  level: z.enum(['site', ...SITE_LEVELS]),
  division_id: z.string().nullable(),
  department_id: z.string().nullable(),
  unit_id: z.string().nullable(),
  full_name: z.string(),
});
export type SiteFullName = z.infer<typeof siteFullNameSchema>;

export const manpowerResponseSchema = z.object({
  year: z.number(),
  default_total: z.number(),
  sites: z.array(
    z.object({
      site_id: z.string(),
      name: z.string(),
      is_active: z.boolean(),
      /** Twelve totals, January first; a month never set holds the default. */
      months: z.array(z.number()).length(12),
      /** Which of the twelve months were set explicitly. */
      set: z.array(z.boolean()).length(12),
      yearly_total: z.number(),
    }),
  ),
});
export type ManpowerResponse = z.infer<typeof manpowerResponseSchema>;

/** A division, department or unit as its create and change answer it (without people or children). */
export const siteNodeItemResponse = z.object({ id: z.string(), level: z.string(), parent_id: z.string().nullable(), name: z.string() });
export type SiteNodeItem = z.infer<typeof siteNodeItemResponse>;

export const siteFullNamesResponse = z.object({ sites: z.array(siteFullNameSchema) });
export type SiteFullNamesResponse = z.infer<typeof siteFullNamesResponse>;

export const siteHeadOfSafetySchema = z.object({ site_id: z.string(), site_name: z.string(), user: userSummary });
export const siteHeadsOfSafetyResponse = z.object({ heads_of_safety: z.array(siteHeadOfSafetySchema) });
export type SiteHeadOfSafety = z.infer<typeof siteHeadOfSafetySchema>;

export const siteUserOptionsResponse = z.object({ users: z.array(userSummary) });
export type SiteUserOptionsResponse = z.infer<typeof siteUserOptionsResponse>;

/** A site with its divisions, departments and units (the organisation's site data). */
export const siteWithDivisionsSchema = siteResponseSchema.extend({ divisions: z.array(siteNodeResponseSchema) });
export const siteDataResponse = z.object({ sites: z.array(siteWithDivisionsSchema) });
export type SiteWithDivisions = z.infer<typeof siteWithDivisionsSchema>;

/** An active site of the signed-in user, as pickers and time zone conversions need it. */
export const activeSiteSchema = z.object({
  id: z.string(),
  name: z.string(),
  short_name: z.string().nullable(),
  site_code: z.string().nullable(),
  time_zone: z.string(),
});
export const activeSitesResponse = z.object({ sites: z.array(activeSiteSchema) });
export type ActiveSite = z.infer<typeof activeSiteSchema>;

/** Monthly totals with the default for unset months, and their sum (spec 001 §3 Site manpower, §9). */
export function manpowerYear(setMonths: ReadonlyMap<number, number>): { months: number[]; set: boolean[]; yearly_total: number } {
  const months: number[] = [];
  const set: boolean[] = [];
  for (let m = 1; m <= 12; m += 1) {
    const v = setMonths.get(m);
    months.push(v ?? MANPOWER_DEFAULT);
    set.push(v !== undefined);
  }
  return { months, set, yearly_total: months.reduce((a, b) => a + b, 0) };
}

/** "Site / Division / Department / Unit": the full name pickers show. */
export function siteFullName(parts: ReadonlyArray<string | null | undefined>): string {
  return parts.filter((p): p is string => !!p).join(' / ');
}
