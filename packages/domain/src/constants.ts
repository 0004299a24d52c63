/** Platform constants from spec 000 §9. Times are in milliseconds unless the name says otherwise. */
export const PRODUCT_NAME = 'Bulwark EHS';

export const PROFILE_RELOAD_INTERVAL_MS = 60_000;
export const FAILURE_THRESHOLD = 3;
export const FAILURE_RESET_WINDOW_MS = 30_000;
export const PUSH_SUBSCRIBE_DELAYS_MS = [50, 500] as const;
export const POST_NAVIGATION_DELAY_MS = 500;
export const STATUS_CHECK_MS = 3_000;
export const SUCCESS_TOAST_MS = 10_000;
export const CHUNK_LOAD_TIMEOUT_MS = 120_000;

export const PAGE_SIZES = { observations: 15, actions: 50, incidents: 50 } as const;
export const PERMIT_DEFAULT_HOURS = 8;
export const PERMIT_EXTENSION_HOURS = 4;

export const LANGUAGES = ['en', 'es', 'tr', 'zh'] as const;
export type Language = (typeof LANGUAGES)[number];
export const DEFAULT_LANGUAGE: Language = 'en';

/** The tenant label used for the bare domain, where the platform super admin signs in. */
export const PUBLIC_TENANT = 'public';
/** Header the client sends with the tenant label of its host (spec 000 §7). */
export const TENANT_HEADER = 'x-tenant';
export const CSRF_HEADER = 'x-csrf-token';
export const REFRESH_HEADER = 'x-refresh-token';
export const LANGUAGE_HEADER = 'accept-language';

/** Sub-domains no organisation may take. */
export const RESERVED_SUBDOMAINS = [
  'public',
  'www',
  'app',
  'api',
  'admin',
  'lvh',
  'mail',
  'static',
  'assets',
  'docs',
  'status',
  'support',
  'help',
  'login',
  'auth',
  'sso',
  'platform',
] as const;

export const ACCESS_TOKEN_TTL_SECONDS = 15 * 60;
export const REFRESH_TOKEN_TTL_SECONDS = 30 * 24 * 60 * 60;
export const PASSWORD_RESET_TTL_SECONDS = 60 * 60;
