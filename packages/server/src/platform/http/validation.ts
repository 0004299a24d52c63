import type { FastifyRequest, FastifySchemaCompiler } from 'fastify';
import { hasZodFastifySchemaValidationErrors, validatorCompiler as zodValidatorCompiler } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { AppError } from '../errors.js';

/**
 * Routes validate with `attachValidation: true` and call this first in the handler, so the rights guard
 * answers before any field error (a user without the right learns nothing about the fields). Every
 * refused field gets its own i18n key: module keys such as `sites.validation.phone` pass through,
 * anything else becomes `validation.required` or `validation.invalid`.
 */
export function refuseInvalid(req: FastifyRequest): void {
  const err = req.validationError;
  if (!err) return;
  if (!hasZodFastifySchemaValidationErrors(err)) throw new AppError('bad_request');
  const fields: Record<string, string> = {};
  for (const issue of err.validation) {
    const field = issue.instancePath.replace(/^\//, '').replace(/\//g, '.') || err.validationContext || 'body';
    const message = issue.message ?? '';
    fields[field] ??= /^[a-z]\w*(\.\w+)+$/i.test(message)
      ? message
      : /received undefined|required/i.test(message)
        ? 'validation.required'
        : 'validation.invalid';
  }
  throw new AppError('validation_failed', { fields });
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
