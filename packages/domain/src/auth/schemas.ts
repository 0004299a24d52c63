import { z } from 'zod';
import { ACTIONS, SUBJECTS } from '../access/subjects.js';
import { LANGUAGES } from '../constants.js';
import { LICENCE_MODULES } from '../users/licences.js';
import { emailSchema, passwordSchema } from './password.js';

export const signInBody = z.object({
  email: emailSchema,
  // Sign-in checks the stored hash only; the strength rule applies when a password is set.
  password: z.string().min(1, { message: 'validation.required' }).max(256, { message: 'validation.tooLong' }),
});
export type SignInBody = z.infer<typeof signInBody>;

export const ruleSchema = z.object({ subject: z.enum(SUBJECTS), actions: z.array(z.enum(ACTIONS)) });

export const USER_STATUSES = ['Active', 'Inactive', 'Error', 'Deleted'] as const;
export const ORGANIZATION_STATUSES = ['Active', 'Inactive'] as const;
export const SUBSCRIPTION_TYPES = ['free_trial', 'active', 'cancelled'] as const;

export const tenantMemorySchema = z.object({
  mem_exhausted: z.boolean(),
  used_bytes: z.number(),
  quota_bytes: z.number(),
});

export const organizationSchema = z.object({
  id: z.string(),
  name: z.string(),
  sub_domain_name: z.string(),
  is_enterprise: z.boolean(),
  organization_status: z.enum(ORGANIZATION_STATUSES),
  subscription_type: z.enum(SUBSCRIPTION_TYPES),
  onboarding_pending: z.boolean(),
  trial_ends_at: z.string().nullable(),
  trial_expired: z.boolean(),
  timezone: z.string(),
});
export type Organization = z.infer<typeof organizationSchema>;

export const currentUserSchema = z.object({
  id: z.string(),
  organization_id: z.string().nullable(),
  email: z.string(),
  full_name: z.string(),
  role_name: z.string().nullable(),
  status: z.enum(USER_STATUSES),
  is_admin: z.boolean(),
  is_platform_admin: z.boolean(),
  /** A self-registered guest (DECISIONS): it reports and follows its own reports, nothing else. */
  is_guest: z.boolean(),
  can_issue_permit: z.boolean(),
  hira_v2_allowed: z.boolean(),
  locale: z.enum(LANGUAGES),
  notifications: z.object({ unread: z.number() }),
  tenant_memory_details: tenantMemorySchema,
  /** The modules the user holds a licence for; on a paid plan `can()` asks for them (access/licences.ts). */
  licences: z.array(z.enum(LICENCE_MODULES)),
});
export type CurrentUser = z.infer<typeof currentUserSchema>;

/** GET /api/users/user_profile and /api/v2/users/user_profile (spec 000 §7). */
export const profileResponse = z.object({
  user: currentUserSchema,
  organization: organizationSchema.nullable(),
  rules: z.array(ruleSchema),
  organization_modules: z.array(z.string()),
});
export type ProfileResponse = z.infer<typeof profileResponse>;

export const tokenPairResponse = z.object({
  token: z.string(),
  csrf: z.string(),
  refresh: z.string(),
  expires_in: z.number(),
});
export type TokenPairResponse = z.infer<typeof tokenPairResponse>;

/** POST /api/v1/authorize: the session of spec 000 §3 (token, csrf, refresh, rules, domain, auth). */
export const signInResponse = tokenPairResponse.extend({
  auth: z.literal(true),
  domain: z.string(),
  profile: profileResponse,
});
export type SignInResponse = z.infer<typeof signInResponse>;

export const passwordResetRequestBody = z.object({ email: emailSchema });
export const passwordResetBody = z.object({ password: passwordSchema });

export const updateMyProfileBody = z.object({ locale: z.enum(LANGUAGES) });

/** GET /api/auth: the session is valid, and whose it is. */
export const sessionCheckResponse = z.object({ auth: z.literal(true), user_id: z.string(), organization_id: z.string() });
export type SessionCheckResponse = z.infer<typeof sessionCheckResponse>;

/** The token of an e-mailed password reset link. */
export const passwordResetParams = z.object({ token: z.string().min(10).max(200) });
