import type { FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
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
    fields[field] ??= /^[a-z]\w*(\.\w+)+$/i.test(message) ? message : /received undefined|required/i.test(message) ? 'validation.required' : 'validation.invalid';
  }
  throw new AppError('validation_failed', { fields });
}
