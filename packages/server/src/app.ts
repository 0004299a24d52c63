import { existsSync } from 'node:fs';
import path from 'node:path';
import multipart from '@fastify/multipart';
import fastifyStatic from '@fastify/static';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import { pickLanguage, translate, PUSH_REQUESTS, type PushRequest } from '@bulwark/domain';
import Fastify, { type FastifyInstance, type FastifyReply } from 'fastify';
import { serializerCompiler } from 'fastify-type-provider-zod';
import { MODULES } from './modules/index.js';
import { fastifyTrustProxy } from './platform/config.js';
import type { AppDeps } from './platform/deps.js';
import { isApiPath, registerRouteRecords, type RouteRecord } from './platform/http/access.js';
import { openApiOptions } from './platform/http/openapi.js';
import { createRouter } from './platform/http/route.js';
import { registerErrorHandler } from './platform/http/error-handler.js';
import { registerJsonBody } from './platform/http/json-body.js';
import { registerSecurityHeaders } from './platform/http/security-headers.js';
import { validatorCompiler } from './platform/http/validation.js';
import { MAX_UPLOAD_BYTES } from './platform/http/upload.js';
import type { PushRequestHandlers } from './platform/push/push.js';
import { AppError } from './platform/errors.js';
import { createOps, registerOps, type Ops } from './platform/ops/ops.js';
import type { JobHandlers, Schedules } from './platform/jobs/jobs.js';

declare module 'fastify' {
  interface FastifyInstance {
    registeredRoutes: RouteRecord[];
  }
}

/** Builds the HTTP app from the platform pieces and the modules. Listening is the caller's business. */
export async function buildApp(deps: AppDeps, options: { logger?: boolean; ops?: Ops } = {}): Promise<FastifyInstance> {
  const app = Fastify({
    logger:
      options.logger === false
        ? false
        : {
            level: deps.config.logLevel,
            redact: ['req.headers.authorization', 'req.headers["x-csrf-token"]', 'req.headers["x-refresh-token"]'],
            serializers: {
              // The spec puts password reset tokens in the path; whoever reads the logs must not be able to use one.
              req: (req: { method: string; url: string; ip?: string }) => ({
                method: req.method,
                url: maskTokens(req.url),
                remoteAddress: req.ip,
              }),
            },
          },
    // A hop count or the proxies' addresses, never "trust all" (platform/config.ts).
    trustProxy: fastifyTrustProxy(deps.config.trustProxy),
    bodyLimit: 1024 * 1024,
    // The whole request, body included, must arrive within this (sized for a 10 MB upload on a slow
    // line); JSON bodies have a much shorter limit of their own (registerJsonBody).
    requestTimeout: deps.config.requestTimeoutMs,
    // A connection with nothing moving either way for a minute is closed.
    connectionTimeout: 60_000,
    // Above the 60 s idle timeout of common load balancers, so that the balancer closes first.
    keepAliveTimeout: 65_000,
    // Headers trickled in one byte at a time hold a connection too; Node checks its limits this often.
    http: { headersTimeout: 10_000, connectionsCheckingInterval: 5_000 },
    // The router's own refusals (a malformed or over-long path segment) leave in the API's error shape too.
    frameworkErrors: (err, req, reply: FastifyReply) => {
      const code = err.code === 'FST_ERR_BAD_URL' || err.code === 'FST_ERR_MAX_PARAM_LENGTH' ? 'bad_request' : 'internal';
      void reply
        .status(code === 'bad_request' ? 400 : 500)
        .send({ errors: [translate(pickLanguage(req.headers['accept-language']), `errors.${code}`)], code });
    },
  });
  registerJsonBody(app, { bodyTimeoutMs: deps.config.bodyTimeoutMs });
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  app.decorateRequest('lang', 'en');
  app.addHook('onRequest', (req, _reply, done) => {
    req.lang = pickLanguage(req.headers['accept-language']);
    done();
  });

  registerSecurityHeaders(app, {
    contentSecurityPolicy: {
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'"],
        // Mantine sets style attributes at run time.
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", 'data:', 'blob:'],
        connectSrc: ["'self'"],
        frameAncestors: ["'none'"],
        objectSrc: ["'none'"],
        baseUri: ["'self'"],
        formAction: ["'self'"],
        upgradeInsecureRequests: null,
      },
    },
    strictTransportSecurity: false,
    referrerPolicy: { policy: 'strict-origin-when-cross-origin' },
  });
  registerErrorHandler(app);
  registerRouteRecords(app);
  // The node's principal cache listens from here on and stops with the app (platform/auth/principal-cache.ts).
  app.decorate('principals', deps.principals);
  await deps.principals.start();
  app.addHook('onClose', () => deps.principals.close());
  // /healthz, /readyz, /metrics and the request counters (platform/ops).
  registerOps(app, deps, options.ops ?? createOps());

  // The document is generated from the contracts (platform/http/openapi.ts).
  await app.register(swagger, openApiOptions(deps.config));
  await app.register(swaggerUi, { routePrefix: '/api/docs' });

  // Uploads are read one file at a time by the route that expects them (platform/http/upload.ts).
  await app.register(multipart, { limits: { fileSize: MAX_UPLOAD_BYTES, files: 1 } });

  const router = createRouter(app, deps);
  for (const m of MODULES) m.routes(router, deps);

  // wildcard: files are looked up on each request, so a rebuilt app is served without a restart.
  await app.register(fastifyStatic, {
    root: deps.config.webDist,
    wildcard: true,
    index: false,
    serve: existsSync(deps.config.webDist),
    // Vite names every file under assets/ after its content, so a browser may keep it for good instead of
    // asking again at each page load; index.html, which names them, is asked for again every time.
    setHeaders: (reply, filePath) => {
      const asset = path.relative(deps.config.webDist, filePath).startsWith(`assets${path.sep}`);
      reply.header('cache-control', asset ? 'public, max-age=31536000, immutable' : 'no-cache');
    },
  });
  // The static plugin refuses directories (403); the root path is the app itself. The page handlers
  // return nothing: a returned reply is a thenable that fastify awaits, and each await of a reply adds
  // listeners to the response (MaxListenersExceededWarning at every page load).
  app.get('/', (_req, reply) => {
    sendApp(deps, reply);
  });
  app.setNotFoundHandler((req, reply) => {
    // A missing API path or built asset is a real 404; only page paths fall back to the app.
    if (isApiPath(req.url) || req.method !== 'GET' || req.url.startsWith('/assets/')) {
      return reply.status(404).send({ errors: [translate(req.lang, 'errors.not_found')], code: 'not_found' });
    }
    // The single-page app answers every other path; its router decides what to show.
    sendApp(deps, reply);
  });

  return app;
}

/** A request's address as it may be logged: the token of a password reset link is hidden. */
export function maskTokens(url: string): string {
  return url.replace(/(\/password_resets\/)[^/?#]+/, '$1[token]');
}

function sendApp(deps: AppDeps, reply: FastifyReply): void {
  if (existsSync(path.join(deps.config.webDist, 'index.html'))) {
    reply.sendFile('index.html');
    return;
  }
  reply.status(404).type('text/plain').send('The web app is not built: run `npm run build`.');
}

/** Answers to the push requests of spec 000 §7: each module answers its own. */
export function pushRequestHandlers(deps: AppDeps): PushRequestHandlers {
  const handlers = Object.assign({}, ...MODULES.map((m) => m.push?.(deps) ?? {})) as Partial<PushRequestHandlers>;
  // A request no module answers yet is refused like an unknown one, never left hanging.
  const unanswered = async () => {
    throw new AppError('not_found');
  };
  return Object.fromEntries(Object.keys(PUSH_REQUESTS).map((k) => [k, handlers[k as PushRequest] ?? unanswered])) as PushRequestHandlers;
}

/** Job handlers and schedules of every module, for the runtime to start. */
export function moduleJobs(deps: AppDeps): { handlers: JobHandlers; schedules: Schedules } {
  const parts = MODULES.map((m) => m.jobs?.(deps)).filter((j) => j !== undefined);
  return {
    handlers: Object.assign({}, ...parts.map((p) => p.handlers)) as JobHandlers,
    schedules: parts.flatMap((p) => p.schedules ?? []),
  };
}
