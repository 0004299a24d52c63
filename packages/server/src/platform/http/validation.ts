import type { FastifyRequest, FastifySchemaCompiler } from 'fastify';
import { hasZodFastifySchemaValidationErrors, validatorCompiler as zodValidatorCompiler } from 'fastify-type-provider-zod';
import { translate } from '@bulwark/domain';
import { z } from 'zod';
import { AppError } from '../errors.js';

/**
 * The route helper validates with `attachValidation` and calls this after the rights check, so a user
 * without the right learns nothing about the fields. Every refused field gets its own i18n key:
 * module keys such as `sites.validation.phone` pass through, anything else becomes
 * `validation.required`, `validation.tooLong` or `validation.invalid`. The one error body of every
 * refusal: `{ errors: [<"Some fields need your attention.">], code: 'validation_failed', fields }`.
 */
export function refuseInvalid(req: FastifyRequest): void {
  const err = req.validationError;
  if (!err) return;
  throw validationFailure(err);
}

type Issue = { instancePath?: string; message?: string; params?: Record<string, unknown> };

/** A schema validation error as the one refusal every route answers with. */
export function validationFailure(err: Error & { validation?: unknown; validationContext?: string }): AppError {
  if (!hasZodFastifySchemaValidationErrors(err)) return new AppError('bad_request');
  const fields: Record<string, string> = {};
  for (const issue of err.validation as Issue[]) {
    const field = (issue.instancePath ?? '').replace(/^\//, '').replace(/\//g, '.') || err.validationContext || 'body';
    fields[field] ??= issueKey(issue);
  }
  return new AppError('validation_failed', { fields });
}

function issueKey(issue: Issue): string {
  const message = issue.message ?? '';
  // Schema messages are catalogue keys ('validation.email', 'sites.validation.zip'); any known key is used.
  if (/^[a-z]\w*(\.\w+)+$/i.test(message) && translate('en', message) !== message) return message;
  if (/received undefined|required/i.test(message)) return 'validation.required';
  const inner = issue.params?.['issue'];
  const code = inner && typeof inner === 'object' ? (inner as { code?: string }).code : undefined;
  if (code === 'too_big') return 'validation.tooLong';
  return 'validation.invalid';
}

// A NUL character (PostgreSQL text refuses it) or half of a surrogate pair (not UTF-8 at all; jsonb refuses it).
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
const unstorable = (text: string) => text.includes('\u0000') || LONE_SURROGATE.test(text);

/**
 * Refuses text that cannot be stored as sent, at the field that carries it, before the route's schema
 * runs: otherwise PostgreSQL refuses it mid-write (a 500) or it is stored altered. Iterative, so deep
 * nesting cannot exhaust the stack.
 */
export function refuseUnstorableText(input: unknown, ctx: z.RefinementCtx): void {
  // Each entry keeps its parent rather than a copy of its path: a path is built only for a refusal.
  type Entry = { value: unknown; key: string | number | null; parent: Entry | null };
  const pathOf = (e: Entry) => {
    const path: (string | number)[] = [];
    for (let at: Entry | null = e; at && at.key !== null; at = at.parent) path.unshift(at.key);
    return path;
  };
  const stack: Entry[] = [{ value: input, key: null, parent: null }];
  while (stack.length) {
    const entry = stack.pop()!;
    const { value } = entry;
    if (typeof value === 'string') {
      if (unstorable(value)) ctx.addIssue({ code: 'custom', path: pathOf(entry), message: 'validation.invalid', input: value });
    } else if (Array.isArray(value)) {
      value.forEach((v, i) => stack.push({ value: v, key: i, parent: entry }));
    } else if (value !== null && typeof value === 'object') {
      for (const [k, v] of Object.entries(value)) {
        if (unstorable(k)) ctx.addIssue({ code: 'custom', path: pathOf(entry), message: 'validation.invalid', input: k });
        stack.push({ value: v, key: k, parent: entry });
      }
    }
  }
}

/** A route's schema behind the check for unstorable text: what every route validates with. */
export function withTextCheck(schema: z.ZodType): z.ZodType {
  return z.unknown().superRefine(refuseUnstorableText).pipe(schema);
}

export const validatorCompiler: FastifySchemaCompiler<z.ZodType> = (route) =>
  zodValidatorCompiler({ ...route, schema: withTextCheck(route.schema) });
