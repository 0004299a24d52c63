import { SESSION_ENDING_CODES, type ErrorCode } from '@bulwark/domain';

/** A failed call, carrying what the UI needs: the text to show, the stable code and field texts. */
export class ApiError extends Error {
  readonly status: number;
  readonly code: string;
  readonly fields: Record<string, string>;

  constructor(message: string, status: number, code: string, fields: Record<string, string> = {}) {
    super(message);
    this.name = 'ApiError';
    this.status = status;
    this.code = code;
    this.fields = fields;
  }
}

export function isApiError(value: unknown): value is ApiError {
  return value instanceof ApiError;
}

export function isSessionEndingCode(code: string | undefined): boolean {
  return code !== undefined && (SESSION_ENDING_CODES as readonly string[]).includes(code as ErrorCode);
}

type ErrorPayload = { errors?: unknown; data?: { error?: unknown }; code?: unknown; fields?: unknown };

/**
 * Spec 000 §8: the first item of the `errors` array, else `data.error`, else the status text,
 * else the translated "Something went wrong."
 */
export function errorText(payload: unknown, statusText: string, fallback: string): string {
  const body = (payload && typeof payload === 'object' ? payload : {}) as ErrorPayload;
  if (Array.isArray(body.errors) && typeof body.errors[0] === 'string' && body.errors[0] !== '') return body.errors[0];
  if (body.data && typeof body.data.error === 'string' && body.data.error !== '') return body.data.error;
  if (statusText) return statusText;
  return fallback;
}

export function errorCode(payload: unknown): string | undefined {
  const body = (payload && typeof payload === 'object' ? payload : {}) as ErrorPayload;
  return typeof body.code === 'string' ? body.code : undefined;
}

export function errorFields(payload: unknown): Record<string, string> {
  const body = (payload && typeof payload === 'object' ? payload : {}) as ErrorPayload;
  if (!body.fields || typeof body.fields !== 'object') return {};
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(body.fields)) if (typeof v === 'string') out[k] = v;
  return out;
}
