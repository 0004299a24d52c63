import { isApiError } from '../../api/api-error.js';

type Issue = { path: readonly PropertyKey[]; message: string };
type ParseResult<T> = { success: true; data: T } | { success: false; error: { issues: readonly Issue[] } };

export type FieldErrors = Record<string, string>;

/**
 * Runs a domain zod schema. Schema messages are i18n keys ('validation.email'), so they are translated
 * here; the first problem of each field is the one shown.
 */
export function validate<T>(
  schema: { safeParse(value: unknown): ParseResult<T> },
  value: unknown,
  t: (key: string) => string,
): { data: T; errors: null } | { data: null; errors: FieldErrors } {
  const result = schema.safeParse(value);
  if (result.success) return { data: result.data, errors: null };
  const errors: FieldErrors = {};
  for (const issue of result.error.issues) {
    const field = String(issue.path[0] ?? '_');
    errors[field] ??= t(issue.message);
  }
  return { data: null, errors };
}

/** A server refusal for a form: field texts go under their fields, the rest above the form. */
export function serverErrors(error: unknown, fallback: string): { fields: FieldErrors; message: string | null } {
  if (!isApiError(error)) return { fields: {}, message: fallback };
  const hasFields = Object.keys(error.fields).length > 0;
  return { fields: error.fields, message: hasFields ? null : error.message };
}
