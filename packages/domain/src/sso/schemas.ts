import { z } from 'zod';
import { passwordSchema } from '../auth/password.js';
import { signInResponse } from '../auth/schemas.js';

/** How long the one-time code that hands an SSO sign-in to the web stays usable (seconds). */
export const SSO_EXCHANGE_TTL_SECONDS = 60;
/** How long a started SSO sign-in (state, nonce, PKCE verifier) waits for the provider's answer (seconds). */
export const SSO_REQUEST_TTL_SECONDS = 600;
/** Query parameter of /login that carries the reason a single sign-on failed (spec 000 §3 "SSO error"). */
export const SSO_ERROR_PARAM = 'sso_error';

/**
 * Why a single sign-on failed, as sent to /login?sso_error=<code>. Codes that match a core error reuse
 * its text (the spec's "not registered to the application, contact the administrator").
 */
export const SSO_ERROR_CODES = [
  'not_registered',
  'account_inactive',
  'organization_inactive',
  'domain_not_allowed',
  'email_not_verified',
  'not_configured',
  'provider_error',
  'expired',
  'plan_limit_reached',
  'rate_limited',
] as const;
export type SsoErrorCode = (typeof SSO_ERROR_CODES)[number];

const CORE_TEXT: Partial<Record<SsoErrorCode, string>> = {
  not_registered: 'errors.not_registered',
  account_inactive: 'errors.account_inactive',
  organization_inactive: 'errors.organization_inactive',
  plan_limit_reached: 'errors.plan_limit_reached',
  rate_limited: 'errors.rate_limited',
};

export function isSsoErrorCode(value: unknown): value is SsoErrorCode {
  return typeof value === 'string' && (SSO_ERROR_CODES as readonly string[]).includes(value);
}

/** The i18n key of the text the login page shows for an `sso_error` value; an unknown value gets the general one. */
export function ssoErrorMessageKey(code: string | null | undefined): string {
  if (!isSsoErrorCode(code)) return 'errors.sso_failed';
  return CORE_TEXT[code] ?? `sso.errors.${code}`;
}

const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);
// scheme://host[:port][/path], nothing else (no user info, query or fragment). The domain package has no
// URL class (it runs without DOM or Node types), hence the pattern.
const ISSUER = /^([a-z][a-z0-9+.-]*):\/\/(\[[0-9a-f:.]+\]|[a-z0-9.-]+)(?::(\d{1,5}))?(\/[^\s?#@]*)?$/i;

function issuerParts(value: string): { scheme: string; host: string } | null {
  const m = ISSUER.exec(value.trim());
  if (!m) return null;
  if (m[3] !== undefined && Number(m[3]) > 65_535) return null;
  return { scheme: m[1]!.toLowerCase(), host: m[2]!.toLowerCase() };
}

/** An issuer must be https; plain http is accepted only on this machine's loopback (a provider run locally). */
export function issuerUrlProblem(value: string): 'format' | 'https' | null {
  const url = issuerParts(value);
  if (!url) return 'format';
  if (url.scheme === 'https') return null;
  if (url.scheme === 'http') return LOOPBACK_HOSTS.has(url.host) ? null : 'https';
  return 'format';
}

export function isLoopbackIssuer(value: string): boolean {
  const url = issuerParts(value);
  return url?.scheme === 'http' && LOOPBACK_HOSTS.has(url.host);
}

const DOMAIN = /^(?=.{1,253}$)(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/;

export const ssoDomainSchema = z
  .string()
  .trim()
  .toLowerCase()
  .transform((d) => d.replace(/^@/, ''))
  .refine((d) => DOMAIN.test(d), { message: 'sso.validation.domain' });

/** PUT /api/sso_configs: the organisation's OpenID Connect settings. */
export const ssoConfigBody = z
  .object({
    issuer_url: z
      .string()
      .trim()
      .min(1, { message: 'validation.required' })
      .max(500, { message: 'validation.tooLong' })
      .superRefine((value, ctx) => {
        const problem = issuerUrlProblem(value);
        if (problem)
          ctx.addIssue({ code: 'custom', message: problem === 'https' ? 'sso.validation.issuerHttps' : 'sso.validation.issuerUrl' });
      }),
    client_id: z.string().trim().min(1, { message: 'validation.required' }).max(255, { message: 'validation.tooLong' }),
    /** Empty or absent keeps the stored secret; it is never sent back. */
    client_secret: z.string().max(1000, { message: 'validation.tooLong' }).optional(),
    allowed_domains: z.array(ssoDomainSchema).max(50, { message: 'sso.validation.tooManyDomains' }),
    enabled: z.boolean(),
    create_users: z.boolean(),
    default_role_id: z.uuid({ message: 'validation.invalid' }).nullable(),
  })
  .superRefine((value, ctx) => {
    if (value.create_users && !value.default_role_id) {
      ctx.addIssue({ code: 'custom', path: ['default_role_id'], message: 'sso.validation.roleRequired' });
    }
  });
export type SsoConfigBody = z.infer<typeof ssoConfigBody>;

export const ssoRoleOption = z.object({ id: z.string(), name: z.string() });

/** GET /api/sso_configs: the settings without the secret (only whether one is set). */
export const ssoConfigResponse = z.object({
  configured: z.boolean(),
  issuer_url: z.string(),
  client_id: z.string(),
  client_secret_set: z.boolean(),
  allowed_domains: z.array(z.string()),
  enabled: z.boolean(),
  create_users: z.boolean(),
  default_role_id: z.string().nullable(),
  /** What the administrator registers at the provider. */
  redirect_uri: z.string(),
  roles: z.array(ssoRoleOption),
  updated_at: z.string().nullable(),
});
export type SsoConfigResponse = z.infer<typeof ssoConfigResponse>;

/** GET /api/sso/status: whether the sign-in page offers single sign-on for this organisation. */
export const ssoStatusResponse = z.object({ enabled: z.boolean() });
export type SsoStatus = z.infer<typeof ssoStatusResponse>;

/** The browser-facing steps answer no body: a 302 redirect (to the provider, to /sso or to /login?sso_error=…). */
export const ssoRedirectResponse = z.null().meta({ description: 'No body: a 302 redirect (Location header)' });

export const ssoExchangeBody = z.object({ code: z.string().min(20).max(200) });
export const ssoExchangeResponse = signInResponse;

/** PATCH /api/users/password: the signed-in user changes their own password. */
export const passwordChangeBody = z
  .object({
    current_password: z.string().min(1, { message: 'validation.required' }).max(256, { message: 'validation.tooLong' }),
    password: passwordSchema,
    password_confirmation: z.string().max(256, { message: 'validation.tooLong' }),
  })
  .superRefine((value, ctx) => {
    if (value.password !== value.password_confirmation) {
      ctx.addIssue({ code: 'custom', path: ['password_confirmation'], message: 'auth.passwordsDiffer' });
    }
  });
export type PasswordChangeBody = z.infer<typeof passwordChangeBody>;
