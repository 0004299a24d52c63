import { PassThrough } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { AppError } from '../errors.js';

/** Deepest nesting of arrays and objects a JSON body may have; no form of the app comes near it. */
export const MAX_JSON_DEPTH = 32;

/**
 * True when the text nests arrays or objects deeper than `max`. One pass over the characters, before
 * anything is parsed: a deep body costs its parse and every walk of the result (validation, logging).
 */
export function jsonDeeperThan(text: string, max: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c)
        i += 1; // backslash: the next character is escaped
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) {
      inString = true;
    } else if (c === 0x5b || c === 0x7b) {
      depth += 1;
      if (depth > max) return true;
    } else if (c === 0x5d || c === 0x7d) {
      depth -= 1;
    }
  }
  return false;
}

function isJson(contentType: string | undefined): boolean {
  return (contentType ?? '').split(';')[0]!.trim().toLowerCase() === 'application/json';
}

/**
 * JSON bodies: the parser refuses a nesting deeper than MAX_JSON_DEPTH (400 in the API's error shape)
 * before parsing, then parses as Fastify does (prototype poisoning refused). A JSON body must arrive
 * within `bodyTimeoutMs` of its headers, or the answer is 408 and the connection closes: a body sent
 * a byte at a time would otherwise hold a connection for as long as the whole request may take
 * (the server's requestTimeout, sized for uploads).
 */
export function registerJsonBody(app: FastifyInstance, options: { bodyTimeoutMs: number }) {
  const parse = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (req, body, done) => {
    const text = body as string;
    if (jsonDeeperThan(text, MAX_JSON_DEPTH)) {
      done(new AppError('bad_request', { messageKey: 'errors.jsonTooDeep', vars: { max: MAX_JSON_DEPTH } }), undefined);
      return;
    }
    parse(req, text, done);
  });

  // A callback hook, not an async one: it runs on every request, GETs included, and most carry no JSON.
  app.addHook('preParsing', (req, reply, payload, done) => {
    if (!isJson(req.headers['content-type'])) {
      done(null, payload);
      return;
    }
    const guarded = new PassThrough();
    const timer = setTimeout(() => {
      payload.unpipe(guarded);
      if (!reply.sent) reply.header('connection', 'close');
      guarded.destroy(new AppError('request_timeout'));
    }, options.bodyTimeoutMs);
    const stop = () => clearTimeout(timer);
    payload.once('end', stop);
    payload.once('error', (err: Error) => {
      stop();
      guarded.destroy(err);
    });
    // The answer may leave before the body is read (a refusal in onRequest): then nobody waits for it.
    reply.raw.once('close', stop);
    // Fastify listens once it reads the body; an error before that must not throw out of the stream.
    guarded.on('error', () => {});
    payload.pipe(guarded);
    done(null, guarded);
  });
}
