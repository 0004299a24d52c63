import { translate, type ErrorCode, type Language } from '@bulwark/domain';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors, isResponseSerializationError } from 'fastify-type-provider-zod';
import { AppError } from '../errors.js';
import { validationFailure } from './validation.js';

/** Every error leaves as `{ errors: [text], code, fields? }`, translated; nothing leaks a stack. */
export function registerErrorHandler(app: FastifyInstance) {
  app.setErrorHandler((err: FastifyError, req: FastifyRequest, reply: FastifyReply) => {
    const lang: Language = req.lang ?? 'en';
    // Validation that ran outside the route helper's preamble answers the same body as everywhere else.
    if (hasZodFastifySchemaValidationErrors(err)) err = validationFailure(err) as unknown as FastifyError;
    if (err instanceof AppError) {
      const fields = err.options.fields
        ? Object.fromEntries(Object.entries(err.options.fields).map(([k, v]) => [k, translate(lang, v, err.options.vars)]))
        : undefined;
      const text = translate(lang, err.options.messageKey ?? `errors.${err.code}`, err.options.vars);
      return reply.status(err.status).send({ ...err.options.extra, errors: [text], code: err.code, ...(fields ? { fields } : {}) });
    }
    if (isResponseSerializationError(err)) {
      req.log.error({ err }, 'response did not match its schema');
      return send(reply, lang, 500, 'internal');
    }
    const status = err.statusCode ?? 500;
    if (status < 500) return send(reply, lang, status, codeForStatus(status));
    if (databaseUnavailable(err)) {
      req.log.warn({ err }, 'database unavailable');
      return send(reply.header('retry-after', '5'), lang, 503, 'unavailable');
    }
    req.log.error({ err }, 'unhandled error');
    return send(reply, lang, 500, 'internal');
  });
}

function send(reply: FastifyReply, lang: Language, status: number, code: ErrorCode) {
  return reply.status(status).send({ errors: [translate(lang, `errors.${code}`)], code });
}

// Class 08 (connection exception) and 57P01-57P03 (shut down, crashed, starting up) from PostgreSQL,
// and the socket errors of a server that is not there.
const UNAVAILABLE_CODES = new Set(['57P01', '57P02', '57P03', 'ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT']);
const UNAVAILABLE_MESSAGES = /^(Connection terminated|Client has encountered a connection error|timeout exceeded when trying to connect)/;

/**
 * PostgreSQL away (restarting, unreachable): the same request will work again shortly, so the client
 * hears 503 "unavailable" rather than a 500. Query errors arrive wrapped (Drizzle's `cause`).
 */
function databaseUnavailable(err: unknown): boolean {
  for (let e = err, depth = 0; e instanceof Error && depth < 5; e = e.cause, depth += 1) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && (UNAVAILABLE_CODES.has(code) || code.startsWith('08'))) return true;
    if (UNAVAILABLE_MESSAGES.test(e.message)) return true;
  }
  return false;
}

function codeForStatus(status: number): ErrorCode {
  switch (status) {
    case 401:
      return 'unauthorized';
    case 403:
      return 'forbidden';
    case 404:
      return 'not_found';
    case 405:
      return 'method_not_allowed';
    case 413:
      return 'payload_too_large';
    case 429:
      return 'rate_limited';
    default:
      return 'bad_request';
  }
}
