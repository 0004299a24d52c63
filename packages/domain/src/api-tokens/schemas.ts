import { z } from 'zod';

/**
 * API tokens (issue 19): an organisation's administrators create service accounts (users of kind
 * "integration", with a role like anyone) and named tokens for them. A token is shown once, stored
 * hashed, valid only at its organisation's address, rate-limited per token, and needs no CSRF token.
 */

/** Every API token starts so: a request's bearer token is told from a sign-in token (a JWT) by it. */
export const API_TOKEN_PREFIX = 'bwk_';
/** How many characters of a token are kept in clear to tell tokens apart in lists (prefix included). */
export const API_TOKEN_HINT_LENGTH = 10;
/** Requests one token may make per minute unless the server is configured otherwise. */
export const API_TOKEN_REQUESTS_PER_MINUTE = 600;
export const API_TOKEN_NAME_MAX = 100;
export const SERVICE_ACCOUNT_NAME_MAX = 100;
/** The longest a token may be made to live; without an expiry it lives until revoked. */
export const API_TOKEN_MAX_DAYS = 730;
export const API_TOKENS_PER_ACCOUNT_MAX = 20;

const required = { message: 'validation.required' };
const tooLong = { message: 'validation.tooLong' };
const invalid = { message: 'validation.invalid' };
const requiredOrInvalid = (iss: { input?: unknown }) =>
  iss.input === undefined || iss.input === null || iss.input === '' ? 'validation.required' : 'validation.invalid';
const name = (max: number) => z.string({ error: requiredOrInvalid }).trim().min(1, required).max(max, tooLong);

export const serviceAccountCreateBody = z.object({
  name: name(SERVICE_ACCOUNT_NAME_MAX),
  role_id: z.uuid({ error: requiredOrInvalid }),
});
export type ServiceAccountCreateBody = z.infer<typeof serviceAccountCreateBody>;

export const serviceAccountUpdateBody = z
  .object({
    name: name(SERVICE_ACCOUNT_NAME_MAX).optional(),
    role_id: z.uuid(invalid).optional(),
    active: z.boolean(invalid).optional(),
  })
  .strict();
export type ServiceAccountUpdateBody = z.infer<typeof serviceAccountUpdateBody>;

export const apiTokenCreateBody = z.object({
  name: name(API_TOKEN_NAME_MAX),
  /** Days until the token stops working; null or absent: until revoked. */
  expires_in_days: z
    .number(invalid)
    .int(invalid)
    .min(1, invalid)
    .max(API_TOKEN_MAX_DAYS, { message: 'apiTokens.validation.tooLongLived' })
    .nullable()
    .optional()
    .transform((v) => v ?? null),
});
export type ApiTokenCreateBody = z.infer<typeof apiTokenCreateBody>;

export const apiTokenSchema = z.object({
  id: z.string(),
  name: z.string(),
  /** The first characters of the token, to recognise it (`bwk_Ab3dE…`). */
  hint: z.string(),
  created_at: z.string(),
  created_by_name: z.string().nullable(),
  last_used_at: z.string().nullable(),
  expires_at: z.string().nullable(),
  revoked_at: z.string().nullable(),
});
export type ApiToken = z.infer<typeof apiTokenSchema>;

export const serviceAccountSchema = z.object({
  id: z.string(),
  name: z.string(),
  role_id: z.string().nullable(),
  role_name: z.string().nullable(),
  active: z.boolean(),
  created_at: z.string(),
  tokens: z.array(apiTokenSchema),
});
export type ServiceAccount = z.infer<typeof serviceAccountSchema>;

export const serviceAccountListResponse = z.object({ service_accounts: z.array(serviceAccountSchema) });
export type ServiceAccountListResponse = z.infer<typeof serviceAccountListResponse>;

export const serviceAccountResponse = z.object({ service_account: serviceAccountSchema });
export type ServiceAccountResponse = z.infer<typeof serviceAccountResponse>;

/** The only answer that carries the token itself: it is never shown again. */
export const apiTokenCreatedResponse = z.object({ token: apiTokenSchema, secret: z.string() });
export type ApiTokenCreatedResponse = z.infer<typeof apiTokenCreatedResponse>;
