import { createRequire } from 'node:module';
import type { FastifyInstance } from 'fastify';

type HeaderSink = { setHeader: (name: string, value: string) => void; removeHeader: (name: string) => void };
type Middleware = (req: unknown, res: HeaderSink, next: (err?: unknown) => void) => void;

/**
 * helmet itself, resolved from @fastify/helmet (whose dependency it is), so that its version is the one
 * that plugin was made for.
 */
const require = createRequire(import.meta.url);
const helmet = createRequire(require.resolve('@fastify/helmet'))('helmet') as (options: object) => Middleware;

/** The headers helmet sets for these options: they depend on the options only, never on the request. */
export function securityHeaders(options: object): Record<string, string> {
  const headers: Record<string, string> = {};
  const sink: HeaderSink = {
    setHeader: (name, value) => {
      headers[name.toLowerCase()] = value;
    },
    removeHeader: () => {},
  };
  helmet(options)({}, sink, (err) => {
    if (err) throw err instanceof Error ? err : new Error(String(err));
  });
  return headers;
}

/**
 * Headers that only a document (a page the browser renders and scripts) acts on. An API answer is JSON
 * or a file: it keeps the policy (CSP, frame and type protections, referrer, resource policy) and leaves
 * these out, which saves every API answer about a third of its header bytes.
 */
const DOCUMENT_ONLY = [
  'cross-origin-opener-policy',
  'origin-agent-cluster',
  'x-dns-prefetch-control',
  'x-download-options',
  'x-xss-protection',
];

/** Paths answered with API data rather than a document (the API's own documentation is a page). */
const isApiAnswer = (url: string) => url.startsWith('/api/') && !url.startsWith('/api/docs');

/**
 * The security headers on every answer, computed once. @fastify/helmet builds helmet again on every
 * request (its CSP parsed each time, in two hooks): a tenth of the CPU of a cheap request.
 */
export function registerSecurityHeaders(app: FastifyInstance, options: object): void {
  const document = securityHeaders(options);
  const api = Object.fromEntries(Object.entries(document).filter(([name]) => !DOCUMENT_ONLY.includes(name)));
  app.addHook('onRequest', (req, reply, done) => {
    reply.headers(isApiAnswer(req.url) ? api : document);
    done();
  });
}
