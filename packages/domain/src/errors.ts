/**
 * Stable error codes (spec 000 §8, 001 §8). The server maps each to an HTTP status; both sides
 * translate them through the `errors.<code>` key of the catalogues.
 */
export const ERROR_STATUS = {
  validation_failed: 400,
  bad_request: 400,
  unauthorized: 401,
  session_expired: 401,
  csrf_invalid: 403,
  forbidden: 403,
  tenant_mismatch: 401,
  not_found: 404,
  tenant_not_found: 404,
  method_not_allowed: 405,
  conflict: 409,
  // One answer for every failed sign-in, whatever the cause (DECISIONS.md: no account enumeration).
  sign_in_failed: 401,
  incorrect_password: 401,
  not_registered: 403,
  account_inactive: 403,
  organization_inactive: 403,
  link_expired: 410,
  memory_exhausted: 403,
  subscription_cancelled: 403,
  free_trial_expired: 403,
  /** Paid plan: the user's role grants the write but they hold no licence for the module (DECISIONS). */
  licence_required: 403,
  rate_limited: 429,
  payload_too_large: 413,
  request_timeout: 408,
  email_taken: 409,
  plan_limit_reached: 403,
  file_too_large: 413,
  file_type_refused: 415,
  bad_format: 400,
  otp_invalid: 400,
  payments_forbidden: 403,
  sso_failed: 401,
  system_record: 409,
  internal: 500,
  unavailable: 503,
} as const;

export type ErrorCode = keyof typeof ERROR_STATUS;
export const ERROR_CODES = Object.keys(ERROR_STATUS) as ErrorCode[];

/** Codes after which the session is over and the client must sign in again. */
export const SESSION_ENDING_CODES: readonly ErrorCode[] = ['account_inactive', 'organization_inactive', 'not_registered'];
