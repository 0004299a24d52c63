import { isValidPhoneNumber, parsePhoneNumberFromString } from 'libphonenumber-js';
import { z } from 'zod';
import { emailSchema, passwordSchema } from '../auth/password.js';
import { SUBSCRIPTION_TYPES } from '../auth/schemas.js';
import { subdomainProblem } from '../tenant.js';

/** Spec 001 §9: the free trial. */
export const FREE_TRIAL_DAYS = 14;
export const FREE_TRIAL_STORAGE_BYTES = 100 * 1024 * 1024;
export const FREE_TRIAL_USER_LIMIT = 50;
/** Days before the trial's end when the organisation's admins are reminded (then once at the end). */
export const TRIAL_REMINDER_DAYS = [3, 1] as const;

/** The e-mailed sign-up code: six digits, valid 15 minutes, five wrong tries, a minute between resends. */
export const REGISTRATION_CODE_LENGTH = 6;
export const REGISTRATION_CODE_TTL_MINUTES = 15;
export const REGISTRATION_MAX_ATTEMPTS = 5;
export const REGISTRATION_RESEND_COOLDOWN_SECONDS = 60;
export const REGISTRATION_MAX_RESENDS = 5;

/** What an approved extension adds when the platform admin names no other number. */
export const TRIAL_EXTENSION_DEFAULT_DAYS = 14;
export const TRIAL_EXTENSION_MAX_DAYS = 90;

const required = { message: 'validation.required' };

/** "Names: characters only" (spec 001 §5): letters of any script, with spaces, hyphens, apostrophes and dots between words. */
export const PERSON_NAME_PATTERN = /^[\p{L}\p{M}]+(?:[ '’.-]+[\p{L}\p{M}]+)*\.?$/u;

export const registrationPersonNameSchema = z
  .string()
  .trim()
  .min(1, required)
  .max(100, { message: 'validation.tooLong' })
  .regex(PERSON_NAME_PATTERN, { message: 'registration.validation.nameLetters' });

/** A phone number in international form (+ and country code), stored as E.164. */
export const registrationPhoneSchema = z
  .string()
  .trim()
  .min(1, required)
  .max(32, { message: 'validation.tooLong' })
  .refine((v) => isValidPhoneNumber(v), { message: 'registration.validation.phone' })
  .transform((v) => parsePhoneNumberFromString(v)?.number ?? v);

export const registrationSubdomainSchema = z
  .string()
  .trim()
  .toLowerCase()
  .min(1, required)
  .max(63, { message: 'validation.tooLong' })
  .superRefine((value, ctx) => {
    const problem = subdomainProblem(value);
    if (problem) ctx.addIssue({ code: 'custom', message: `validation.subdomain.${problem}` });
  });

/** POST /api/organizations (plain client): step 1 of sign-up. */
export const registrationBody = z.object({
  company_name: z.string().trim().min(1, required).max(120, { message: 'validation.tooLong' }),
  full_name: registrationPersonNameSchema,
  email: z.string().trim().min(1, required).pipe(emailSchema),
  phone: registrationPhoneSchema,
  password: z.string().min(1, required).pipe(passwordSchema),
  sub_domain: registrationSubdomainSchema,
});
export type RegistrationBody = z.input<typeof registrationBody>;

export const registrationCreatedResponse = z.object({
  registration_id: z.string(),
  email: z.string(),
  expires_at: z.string(),
  resend_after: z.string(),
});
export type RegistrationCreated = z.infer<typeof registrationCreatedResponse>;

/** Step 2: the code from the e-mail ("OTP required"). */
export const registrationVerifyBody = z.object({
  code: z
    .string()
    .trim()
    .min(1, { message: 'registration.validation.otpRequired' })
    .regex(/^\d{6}$/, { message: 'registration.validation.otpFormat' }),
});

export const registrationVerifiedResponse = z.object({
  organization_id: z.string(),
  organization_name: z.string(),
  sub_domain_name: z.string(),
  organization_url: z.string(),
  email: z.string(),
  trial_ends_at: z.string(),
});
export type RegistrationVerified = z.infer<typeof registrationVerifiedResponse>;

export const registrationResentResponse = z.object({ expires_at: z.string(), resend_after: z.string() });
export type RegistrationResent = z.infer<typeof registrationResentResponse>;

const uuidParam = z.uuid({ message: 'validation.invalid' });
/** `:registration_id` of a pending sign-up. */
export const registrationIdParams = z.object({ registration_id: uuidParam });
/** `:organization_id` of the caller's own organisation (extension requests). */
export const organizationIdParams = z.object({ organization_id: uuidParam });

export const SUBDOMAIN_UNAVAILABLE_REASONS = ['format', 'reserved', 'taken'] as const;
export const subdomainAvailabilityQuery = z.object({
  sub_domain: z.string().trim().toLowerCase().max(63).optional(),
  company_name: z.string().trim().max(120).optional(),
});
export const subdomainAvailabilityResponse = z.object({
  sub_domain: z.string(),
  available: z.boolean(),
  reason: z.enum(SUBDOMAIN_UNAVAILABLE_REASONS).nullable(),
  /** A free sub-domain close to what was asked (or made from the company name). */
  suggestion: z.string().nullable(),
});
export type SubdomainAvailability = z.infer<typeof subdomainAvailabilityResponse>;

/**
 * A sub-domain made from a company name: lower-case ASCII letters and digits joined by hyphens
 * ("Müller & Söhne GmbH" -> "muller-sohne-gmbh"); null when nothing usable is left.
 */
export function suggestSubdomain(companyName: string): string | null {
  const base = companyName
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 40)
    .replace(/-+$/g, '');
  if (!base) return null;
  return subdomainProblem(base) === null ? base : `${base}-ehs`;
}

/** Free-trial extension requests (spec 000 §7, 001 §3 "per organisation and provider-wide list"). */
export const EXTEND_REQUEST_STATUSES = ['pending', 'approved', 'rejected'] as const;
export type ExtendRequestStatus = (typeof EXTEND_REQUEST_STATUSES)[number];

export const extendRequestBody = z.object({
  reason: z.string().trim().min(1, required).max(1000, { message: 'validation.tooLong' }),
});

export const extendRequestSchema = z.object({
  id: z.string(),
  organization_id: z.string(),
  reason: z.string(),
  status: z.enum(EXTEND_REQUEST_STATUSES),
  requested_by: z.object({ id: z.string(), full_name: z.string(), email: z.string() }).nullable(),
  days_granted: z.number().nullable(),
  decision_reason: z.string().nullable(),
  decided_at: z.string().nullable(),
  created_at: z.string(),
});
export type ExtendRequest = z.infer<typeof extendRequestSchema>;

export const platformExtendRequestSchema = extendRequestSchema.extend({
  organization: z.object({
    name: z.string(),
    sub_domain_name: z.string(),
    subscription_type: z.enum(SUBSCRIPTION_TYPES),
    trial_ends_at: z.string().nullable(),
  }),
});
export type PlatformExtendRequest = z.infer<typeof platformExtendRequestSchema>;

export const extendRequestListQuery = z.object({ status: z.enum(EXTEND_REQUEST_STATUSES).optional() });

/** An organisation's own requests (its admin) and every organisation's (the platform admin). */
export const extendRequestListResponse = z.object({ requests: z.array(extendRequestSchema) });
export const platformExtendRequestListResponse = z.object({ requests: z.array(platformExtendRequestSchema) });

export const extendApproveBody = z.object({
  days: z.coerce
    .number({ message: 'validation.invalid' })
    .int({ message: 'validation.invalid' })
    .min(1, { message: 'registration.validation.days' })
    .max(TRIAL_EXTENSION_MAX_DAYS, { message: 'registration.validation.days' })
    .default(TRIAL_EXTENSION_DEFAULT_DAYS),
});
export const extendRejectBody = z.object({
  reason: z.string().trim().min(1, required).max(1000, { message: 'validation.tooLong' }),
});

/** The plan of the signed-in user's organisation: GET /api/v1/plan and the get_plan push request. */
export const PLAN_STATUSES = ['trial', 'active', 'cancelled'] as const;
export const planSchema = z.object({
  status: z.enum(PLAN_STATUSES),
  subscription_type: z.enum(SUBSCRIPTION_TYPES),
  trial_ends_at: z.string().nullable(),
  trial_expired: z.boolean(),
  /** Whole days left in the trial (0 on the last day and after); null outside a trial. */
  trial_days_left: z.number().nullable(),
  user_limit: z.number(),
  users_count: z.number(),
  storage_quota_bytes: z.number(),
  storage_used_bytes: z.number(),
  extension_request_pending: z.boolean(),
});
export type Plan = z.infer<typeof planSchema>;

export const saasFeaturesSchema = z.object({
  features: z.array(z.object({ key: z.string(), enabled: z.boolean() })),
});
export type SaasFeatures = z.infer<typeof saasFeaturesSchema>;

/** Whether a free trial has run out at `now` (the rule the server enforces on every write). */
export function isFreeTrialExpired(org: { subscription_type: string; trial_ends_at: string | Date | null }, now = Date.now()): boolean {
  if (org.subscription_type !== 'free_trial' || org.trial_ends_at === null) return false;
  return new Date(org.trial_ends_at).getTime() <= now;
}

/** Whole days from `now` to the trial's end, never below 0. */
export function trialDaysLeft(trialEndsAt: string | Date, now = Date.now()): number {
  return Math.max(0, Math.ceil((new Date(trialEndsAt).getTime() - now) / 86_400_000));
}

/** Where the sign-up form sends each field's problem (server field names = form field names). */
export const REGISTRATION_FIELDS = ['company_name', 'full_name', 'email', 'phone', 'password', 'sub_domain'] as const;
export * from './guests.js';
