import {
  errorResponse,
  fileResponse,
  type BodyOf,
  type Endpoint,
  type Language,
  type ParamsOf,
  type QueryOf,
  type ResultOf,
  FILE_RULES,
  LIST_EXPORT_INLINE_MAX,
  listExportStartedResponse,
} from '@bulwark/domain';
import type { FastifyInstance, FastifyReply, FastifyRequest, FastifySchema, onRequestHookHandler } from 'fastify';
import type { Principal } from '../auth/principal.js';
import { inTenant, inTenantRead, type Tx } from '../db/db.js';
import { bindAfterCommit } from '../db/after-commit.js';
import type { AppDeps } from '../deps.js';
import { AppError } from '../errors.js';
import { cachedPrincipalOfClaims, checkAccess, principalOfClaims, requireTenant, verifyRequest } from './access.js';
import { contentDisposition, FileAnswer, RedirectAnswer, StartedAnswer } from './answers.js';
import type { Tenant } from './tenancy.js';
import { tagOf } from './openapi.js';
import { readUpload, type Upload } from './upload.js';
import { refuseInvalid } from './validation.js';

/** Work that must wait for the commit: push events, job dispatch, mail delivery. */
export type AfterCommit = () => Promise<unknown> | unknown;

type UploadOf<E> = E extends { upload: string } ? Upload : undefined;

type Inputs<E> = {
  params: ParamsOf<E>;
  query: QueryOf<E>;
  body: BodyOf<E>;
  /** The file of a multipart endpoint (`upload` in the contract), read after the rights check. */
  upload: UploadOf<E>;
  lang: Language;
  req: FastifyRequest;
  reply: FastifyReply;
};

/** A signed-in request: the principal and the one transaction it runs in (the organisation is set). */
export type RouteContext<E> = Inputs<E> & {
  principal: Principal;
  tx: Tx;
  afterCommit: (work: AfterCommit) => void;
};

/** A signed-out request to an organisation's own address (guest forms): its one transaction. */
export type GuestContext<E> = Inputs<E> & {
  tenant: Tenant;
  tx: Tx;
  afterCommit: (work: AfterCommit) => void;
};

/** A public request: no organisation is assumed; `tenant()` resolves the address's when it is needed. */
export type PublicContext<E> = Inputs<E> & { tenant: () => Promise<Tenant> };

export type Outcome<E> = ResultOf<E> | FileAnswer | RedirectAnswer | (E extends { exportJob: true } ? StartedAnswer : never);
type Handler<C, E> = (ctx: C) => Promise<Outcome<E>> | Outcome<E>;

export type RouteOptions = {
  /** Runs before the body is read, e.g. a rate limit that counts floods of malformed requests too. */
  onRequest?: onRequestHookHandler;
  /**
   * A right the contract cannot declare (one of several), checked with the contract's own before any
   * input is read: throw to refuse.
   */
  authorize?: (principal: Principal) => void;
  /**
   * `false`: the handler sends no statement (its `tx` throws when touched), so a request whose
   * principal the node's cache holds runs no transaction at all (the session check). On a miss the
   * principal is read in a transaction as usual.
   *
   * `'read'`: the handler only reads (the lists): it runs without a transaction on a read-only connection
   * that holds the organisation (db.ts inTenantRead), two round trips fewer than `begin` … `commit`. An
   * export (`export_to_excel`, which may start a job) and a request with an API token (whose use is
   * recorded) run in a transaction as usual.
   */
  database?: false | 'read';
};

/** Options of an upload route. */
export type UploadRouteOptions<E> = RouteOptions & {
  /**
   * Checks that need the record (it exists here, this caller may add to it), run with the valid
   * params before the file is read, so a caller who may not reach the record is refused without
   * sending a byte more and without learning anything from the file's checks.
   */
  beforeUpload?: (ctx: { tx: Tx; principal: Principal; params: ParamsOf<E> }) => Promise<void>;
};

type PublicEndpoint = Endpoint & { access: { public: true } };
type SignedInEndpoint = Endpoint & { access: Exclude<Endpoint['access'], { public: true }> };

/**
 * Mounts endpoint contracts. `route` is the signed-in kind: the token is checked, then one transaction
 * sets the organisation, reads the principal, checks the contract's right, refuses bad input (after the
 * right, so a caller without it learns nothing of the fields) and runs the handler; work handed to
 * `afterCommit` runs once the transaction has committed. `guest` runs in the organisation of the
 * address for signed-out forms, and `public` leaves everything to the handler.
 */
export type Router = {
  app: FastifyInstance;
  deps: AppDeps;
  route<E extends SignedInEndpoint>(
    contract: E,
    handler: Handler<RouteContext<E>, E>,
    options?: E extends { upload: string } ? UploadRouteOptions<E> : RouteOptions,
  ): void;
  guest<E extends PublicEndpoint>(contract: E, handler: Handler<GuestContext<E>, E>, options?: RouteOptions): void;
  public<E extends PublicEndpoint>(contract: E, handler: Handler<PublicContext<E>, E>, options?: RouteOptions): void;
};

export function createRouter(app: FastifyInstance, deps: AppDeps): Router {
  const auth = {
    db: deps.db.app,
    tokens: deps.tokens,
    baseDomain: deps.config.baseDomain,
    apiTokenRequestsPerMinute: deps.config.apiTokenRequestsPerMinute,
    principals: deps.principals,
  };
  const tenantOf = (req: FastifyRequest) => requireTenant(req, deps.db.app, deps.config.baseDomain);

  function inputs<E extends Endpoint>(req: FastifyRequest, reply: FastifyReply, upload: Upload | undefined): Inputs<E> {
    return {
      params: req.params as ParamsOf<E>,
      query: req.query as QueryOf<E>,
      body: req.body as BodyOf<E>,
      upload: upload as UploadOf<E>,
      lang: req.lang,
      req,
      reply,
    };
  }

  /** One transaction in an organisation, then its after-commit work (a failure there is logged, the write stands). */
  async function inOrganization<T>(
    req: FastifyRequest,
    organizationId: string,
    work: (tx: Tx, afterCommit: (w: AfterCommit) => void) => Promise<T>,
    read = false,
  ): Promise<T> {
    const pending: AfterCommit[] = [];
    const run = async (tx: Tx) => {
      bindAfterCommit(tx, (w) => pending.push(w));
      return work(tx, (w) => pending.push(w));
    };
    const result = read ? await inTenantRead(deps.db, organizationId, run) : await inTenant(deps.db.app, organizationId, run);
    for (const w of pending) {
      try {
        await w();
      } catch (err) {
        req.log.error({ err }, 'after-commit work failed');
      }
    }
    return result;
  }

  async function readFile(contract: Endpoint, req: FastifyRequest, reply: FastifyReply): Promise<Upload | undefined> {
    if (!contract.upload) return undefined;
    const upload = await readUpload(req, FILE_RULES[contract.upload].maxBytes);
    // The spooled file goes once the answer has left (or the client has gone), whatever the handler did.
    reply.raw.once('close', () => void upload.discard());
    return upload;
  }

  function mount(
    contract: Endpoint,
    options: RouteOptions | undefined,
    handle: (req: FastifyRequest, reply: FastifyReply) => Promise<unknown>,
  ) {
    app.route({
      method: contract.method,
      url: contract.path,
      config: { contract },
      // Field errors are refused by the handlers' preamble, after the rights check.
      attachValidation: true,
      schema: routeSchema(contract),
      ...(options?.onRequest ? { onRequest: options.onRequest } : {}),
      handler: async (req, reply) => send(reply, contract, await handle(req, reply)),
    });
  }

  return {
    app,
    deps,
    route(contract, handler, options) {
      if ('public' in contract.access) throw new Error(`${contract.id}: a public contract is mounted with router.public or router.guest`);
      mount(contract, options, async (req, reply) => {
        const claims = await verifyRequest(req, auth);
        // From the node's cache (no statement) when it holds this session, else read in the transaction.
        const cached = await cachedPrincipalOfClaims(req, claims, auth);
        const principalIn = (tx: Tx) => (cached ? Promise.resolve(cached) : principalOfClaims(tx, req, claims, auth));
        const check = (p: Principal) => {
          checkAccess(p, contract);
          options?.authorize?.(p);
          refuseInvalid(req);
        };
        if (contract.upload) {
          // A file is never read while a transaction holds a connection: the rights are checked in a
          // transaction of their own (none for a cached principal without record checks), the file is
          // read, then the handler runs in its transaction.
          const beforeUpload = (options as UploadRouteOptions<typeof contract> | undefined)?.beforeUpload;
          let principal: Principal;
          if (cached && !beforeUpload) {
            check(cached);
            principal = cached;
          } else {
            principal = await inOrganization(req, claims.org, async (tx) => {
              const p = await principalIn(tx);
              check(p);
              await beforeUpload?.({ tx, principal: p, params: req.params as ParamsOf<typeof contract> });
              return p;
            });
          }
          const upload = await readFile(contract, req, reply);
          return inOrganization(req, claims.org, (tx, afterCommit) =>
            Promise.resolve(handler({ ...inputs(req, reply, upload), principal, tx, afterCommit })),
          );
        }
        if (cached && options?.database === false) {
          check(cached);
          const pending: AfterCommit[] = [];
          const result = await handler({
            ...inputs(req, reply, undefined),
            principal: cached,
            get tx(): Tx {
              throw new Error(`${contract.id} is mounted with { database: false }: its handler has no transaction`);
            },
            afterCommit: (w) => pending.push(w),
          });
          for (const w of pending) await w();
          return result;
        }
        const read = options?.database === 'read' && !claims.apiToken && !exporting(contract, req);
        return inOrganization(
          req,
          claims.org,
          async (tx, afterCommit) => {
            const principal = await principalIn(tx);
            check(principal);
            return handler({ ...inputs(req, reply, undefined), principal, tx, afterCommit });
          },
          read,
        );
      });
    },
    guest(contract, handler, options) {
      mount(contract, options, async (req, reply) => {
        const tenant = await tenantOf(req);
        if (tenant.isPlatform) throw new AppError('tenant_not_found');
        if (tenant.status !== 'Active') throw new AppError('organization_inactive');
        refuseInvalid(req);
        const upload = await readFile(contract, req, reply);
        return inOrganization(req, tenant.id, (tx, afterCommit) =>
          Promise.resolve(handler({ ...inputs(req, reply, upload), tenant, tx, afterCommit })),
        );
      });
    },
    public(contract, handler, options) {
      mount(contract, options, async (req, reply) => {
        refuseInvalid(req);
        const upload = await readFile(contract, req, reply);
        return handler({ ...inputs(req, reply, upload), tenant: () => tenantOf(req) });
      });
    },
  };
}

/** Whether the request asks a list for its Excel export (which may record an export job). */
function exporting(contract: Endpoint, req: FastifyRequest): boolean {
  // A boolean once validated; the raw text when validation failed (refused either way, after the rights check).
  const flag = (req.query as { export_to_excel?: unknown } | undefined)?.export_to_excel;
  return contract.file === 'on_export' && Boolean(flag) && flag !== 'false';
}

async function send(reply: FastifyReply, contract: Endpoint, outcome: unknown) {
  if (outcome instanceof FileAnswer) {
    reply
      .header('content-type', outcome.contentType)
      .header('content-disposition', contentDisposition(outcome.options.disposition ?? 'attachment', outcome.fileName))
      .header('cache-control', outcome.options.cache ?? 'no-store');
    if (outcome.options.size !== undefined) reply.header('content-length', String(outcome.options.size));
    return reply.send(outcome.body);
  }
  if (outcome instanceof RedirectAnswer) return reply.redirect(outcome.location, outcome.status);
  if (outcome instanceof StartedAnswer) return reply.status(202).send(outcome.body);
  // A handler that answered by itself (a status or headers of its own) has sent already.
  if (reply.sent) return reply;
  return reply.status(contract.status ?? 200).send(outcome);
}

const FILE_TYPES = {
  always: 'application/octet-stream',
  on_export: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
} as const;

/** The Fastify schema of a contract: validation, serialisation and the OpenAPI operation in one. */
export function routeSchema(contract: Endpoint): FastifySchema {
  const status = contract.status ?? 200;
  // Any route may fail unexpectedly (500, the error body without detail) or find the database away (503),
  // and any address may be malformed (400, app.ts frameworkErrors), inputs or not.
  const refusals = new Set<number>([...(contract.refusals ?? []), 400, 500, 503]);
  if (!('public' in contract.access)) {
    refusals.add(401);
    refusals.add(403);
  }
  if (contract.params) refusals.add(404);
  if (contract.upload) {
    refusals.add(413);
    refusals.add(415);
  }
  let success: unknown = contract.response;
  if (contract.file === 'always') {
    success = { description: 'The file', content: { [FILE_TYPES.always]: { schema: contract.response } } };
  } else if (contract.file === 'on_export') {
    success = {
      description: 'A page of the list, or with export_to_excel=true its filtered rows as a workbook',
      content: { 'application/json': { schema: contract.response }, [FILE_TYPES.on_export]: { schema: fileResponse } },
    };
  }
  const started = contract.exportJob
    ? {
        202: {
          description: `With export_to_excel=true past ${LIST_EXPORT_INLINE_MAX} rows: the export job it started`,
          content: { 'application/json': { schema: listExportStartedResponse } },
        },
      }
    : {};
  return {
    tags: [tagOf(contract.module)],
    summary: contract.summary,
    ...(contract.description ? { description: contract.description } : {}),
    operationId: contract.id,
    ...(contract.params ? { params: contract.params } : {}),
    ...(contract.query ? { querystring: contract.query } : {}),
    ...(contract.body ? { body: contract.body } : {}),
    ...(contract.upload ? { consumes: ['multipart/form-data'] } : {}),
    response: {
      [status]: success,
      ...started,
      ...Object.fromEntries([...refusals].sort().map((s) => [s, errorResponse])),
    },
  } as FastifySchema;
}
