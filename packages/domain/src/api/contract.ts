import type { z } from 'zod';
import type { Action, Subject } from '../access/subjects.js';
import type { FilePurpose } from '../storage/rules.js';

/**
 * What a caller needs to reach an endpoint; the server refuses everyone else before reading any field.
 * - public: anyone; the handler asks for the organisation of the sub-domain when it needs one.
 * - session: any signed-in member of the request's organisation.
 * - platform: the platform super admin only.
 * - admin: the organisation admin (is_admin) only.
 * - subject/action: the `can()` right of the role matrix (access/can.ts).
 */
export type Access = { public: true } | { session: true } | { platform: true } | { admin: true } | { subject: Subject; action: Action };

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** Statuses an endpoint may refuse with besides the ones its access and inputs imply (documentation). */
export type RefusalStatus = 404 | 405 | 409 | 410 | 413 | 415 | 429 | 503;

/**
 * One endpoint, declared once: the server mounts it (validation, rights, OpenAPI) and the web's typed
 * client calls it. Schemas are zod; the response is what a 2xx answer carries.
 */
export type EndpointDef = {
  method: HttpMethod;
  /** Fastify's path syntax (`/api/observations/:id`); every `:name` must be a key of `params`. */
  path: `/api/${string}`;
  access: Access;
  summary: string;
  description?: string;
  params?: z.ZodType;
  query?: z.ZodType;
  body?: z.ZodType;
  response: z.ZodType;
  /** The success status; 200 unless said. */
  status?: 200 | 201 | 202;
  /**
   * A binary answer instead of JSON: 'always' (a PDF, a template), or 'on_export' for a list that
   * answers its filtered rows as a workbook when asked (`export_to_excel=true`).
   */
  file?: 'always' | 'on_export';
  /**
   * With `file: 'on_export'`: past `LIST_EXPORT_INLINE_MAX` rows (list-exports) the export runs as a job
   * and the list answers 202 with `listExportStartedResponse` (the export it started) instead of the file.
   */
  exportJob?: true;
  /** A multipart upload of one file (field `file`) under the rule of this purpose (size, types). */
  upload?: FilePurpose;
  refusals?: readonly RefusalStatus[];
  /** Registration module: a write that stays open once the free trial has ended. */
  allowedAfterTrial?: true;
  /**
   * Whether a guest (a self-registered visitor, `GuestAccess`) may call it; absent, the router refuses
   * every guest (403) whatever its role holds.
   */
  guests?: GuestAccess;
  /**
   * A write that stays open once the organisation's storage is used up (password, language): every
   * other create, update and upload then answers `memory_exhausted`; reads and deletes go on.
   */
  allowedWhenStorageFull?: true;
};

/**
 * What a guest may reach (DECISIONS: guests create observations and incidents and read their own
 * reports, nothing else):
 * - personal: about the caller alone (profile, password, language, sign-out, its own notifications);
 * - own: a reporting route whose handler narrows to the guest's own reports and uploads (server-side,
 *   never trusting the web) and shows no other person's name or e-mail. Incidents, once built, mark
 *   their create, upload, list and detail routes `own` and filter by their reporter the same way.
 */
export type GuestAccess = 'personal' | 'own';

/** An endpoint as a module's API holds it: its definition plus the names it is known by. */
export type Endpoint<D extends EndpointDef = EndpointDef> = D & {
  /** `<module>.<name>`: the OpenAPI operation id and the route's name in logs and tests. */
  readonly id: string;
  readonly module: string;
  readonly name: string;
};

/** The `:name` parameters of a path, as a union of names. */
export type PathParamNames<P extends string> = P extends `${string}:${infer Name}/${infer Rest}`
  ? Name | PathParamNames<`/${Rest}`>
  : P extends `${string}:${infer Name}`
    ? Name
    : never;

/** A path with parameters needs a params schema naming each of them (and only then may have one). */
type ParamsFit<D> = D extends { path: infer P extends string }
  ? [PathParamNames<P>] extends [never]
    ? { params?: undefined }
    : { params: z.ZodType<{ [N in PathParamNames<P>]: unknown }> }
  : never;

type Checked<Defs> = { [K in keyof Defs]: Defs[K] & ParamsFit<Defs[K]> };

export type Api<M extends string = string, Defs extends Record<string, EndpointDef> = Record<string, EndpointDef>> = {
  readonly [K in keyof Defs & string]: Endpoint<Defs[K]> & { readonly module: M; readonly name: K };
};

/**
 * A module's endpoints. The names become the web client's methods (`api.list(...)`) and, with the
 * module, the OpenAPI operation ids.
 */
export function defineApi<const M extends string, const Defs extends Record<string, EndpointDef>>(
  module: M,
  defs: Checked<Defs>,
): Api<M, Defs> {
  const out: Record<string, Endpoint> = {};
  for (const [name, def] of Object.entries(defs as Record<string, EndpointDef>)) {
    out[name] = Object.freeze({ ...def, id: `${module}.${name}`, module, name });
  }
  return Object.freeze(out) as Api<M, Defs>;
}

// --- Types the server and the web read off an endpoint ---------------------------------------------

type SchemaOf<E, K extends 'params' | 'query' | 'body'> = E extends { [P in K]: infer S extends z.ZodType } ? S : undefined;

/** What the server's handler receives (validated, defaults applied). */
export type ParamsOf<E> = SchemaOf<E, 'params'> extends z.ZodType ? z.output<SchemaOf<E, 'params'>> : Record<string, never>;
export type QueryOf<E> = SchemaOf<E, 'query'> extends z.ZodType ? z.output<SchemaOf<E, 'query'>> : Record<string, never>;
export type BodyOf<E> = SchemaOf<E, 'body'> extends z.ZodType ? z.output<SchemaOf<E, 'body'>> : undefined;
/** What the handler returns (the serializer encodes it with the response schema). */
export type ResultOf<E> = E extends { response: infer S extends z.ZodType } ? z.output<S> : never;
/** What a client reads from a 2xx answer. */
export type ResponseOf<E> = E extends { response: infer S extends z.ZodType } ? z.input<S> : never;

/**
 * A field the server coerces (`z.coerce.number()`) has no input type of its own; a client sends its
 * value (or its text). Transformed fields keep their input type (`'true' | 'false'`).
 */
type Loose<T> = { [K in keyof T]: unknown extends T[K] ? string | number | boolean | null | undefined : T[K] };

/** What a client sends. */
export type ParamsInput<E> = E extends { path: infer P extends string } ? { [N in PathParamNames<P>]: string | number } : never;
export type QueryInput<E> = SchemaOf<E, 'query'> extends z.ZodType ? Loose<z.input<SchemaOf<E, 'query'>>> : never;
export type BodyInput<E> = SchemaOf<E, 'body'> extends z.ZodType ? z.input<SchemaOf<E, 'body'>> : never;

/** The input of a call: `{ params, query, body }`, each present only when the endpoint has it. */
export type CallInput<E> = ([PathParamNames<E extends { path: infer P extends string } ? P : never>] extends [never]
  ? unknown
  : { params: ParamsInput<E> }) &
  (SchemaOf<E, 'query'> extends z.ZodType ? OptionalWhenEmpty<'query', QueryInput<E>> : unknown) &
  (SchemaOf<E, 'body'> extends z.ZodType ? { body: BodyInput<E> } : unknown);

type RequiredKeys<T> = { [K in keyof T]-?: undefined extends T[K] ? never : K }[keyof T];
type OptionalWhenEmpty<K extends string, T> = [RequiredKeys<T>] extends [never] ? { [P in K]?: T } : { [P in K]: T };

/** Fills a path's parameters: `/api/observations/:id` with `{ id }` gives `/api/observations/0190…`. */
export function fillPath(path: string, params: Record<string, string | number> | undefined): string {
  return path.replace(/:(\w+)/g, (_, name: string) => {
    const value = params?.[name];
    if (value === undefined || value === '') throw new Error(`Missing path parameter "${name}" of ${path}`);
    return encodeURIComponent(String(value));
  });
}

/** A query object as URL search parameters: absent and null values are left out, arrays repeat their key. */
export function queryString(query: Record<string, unknown> | undefined): string {
  if (!query) return '';
  const pairs: string[] = [];
  const add = (key: string, value: unknown) => pairs.push(`${encodeURIComponent(key)}=${encodeURIComponent(String(value))}`);
  for (const [key, value] of Object.entries(query)) {
    if (value === undefined || value === null) continue;
    if (Array.isArray(value)) for (const v of value) add(key, v);
    else add(key, value);
  }
  return pairs.length ? `?${pairs.join('&')}` : '';
}
