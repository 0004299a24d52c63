import { PRODUCT_NAME, type Endpoint } from '@bulwark/domain';
import type { FastifyDynamicSwaggerOptions } from '@fastify/swagger';
import { jsonSchemaTransform, jsonSchemaTransformObject } from 'fastify-type-provider-zod';
import type { Config } from '../config.js';
import { isApiPath } from './access.js';

/**
 * The served OpenAPI document (`/api/docs/json`), generated from the endpoint contracts every API
 * route is mounted from: an operation per contract with its id, summary, module tag, inputs, answers
 * and the security it needs. Whatever a future module adds is documented the same way, without being
 * named here; `test/openapi-lint.test.ts` runs Redocly's recommended rules on the served document.
 */

/** Module names whose title is not the name with its first letter raised. */
const MODULE_TITLES: Record<string, string> = {
  sso: 'SSO',
  'root-cause-settings': 'Root-cause settings',
  'api-tokens': 'API tokens',
  'hierarchy-of-controls': 'Hierarchy of controls',
};

/** What each module's operations are about, shown above them in the document. */
const MODULE_DESCRIPTIONS: Record<string, string> = {
  session: 'Sign-in, tokens, sign-out and password resets.',
  notifications: 'The signed-in person’s notifications.',
  organizations: 'Organisations of the platform, and an organisation’s own settings and plan.',
  files: 'Stored files: uploads, downloads and the storage used.',
  registration: 'Sign-up of a new organisation and its free trial.',
  guests: 'Self-registered guests who report observations and incidents.',
  onboarding: 'The first steps of a new organisation.',
  sites: 'Sites, their divisions, departments and units, their people and monthly manpower.',
  users: 'People of the organisation: accounts, profiles, licences and imports.',
  roles: 'Roles and the rights each grants.',
  categories: 'Categories and sub-categories of each module.',
  'root-cause-settings': 'The root-cause tree and phenomena incidents are analysed with.',
  workflows: 'Review workflows of incidents, permits, audits and HIRA.',
  settings: 'Organisation settings: EHS operational control procedures and others.',
  mailers: 'The e-mails each module sends, and their texts.',
  sso: 'Single sign-on with the organisation’s OpenID provider.',
  observations: 'Observations: unsafe acts and conditions, near misses and good practice.',
  incidents: 'Incidents, their victims, investigation, CAPA and OSHA records.',
  actions: 'Corrective and preventive actions of every module.',
  'safety-interactions': 'Safety interactions and their schedules.',
  tours: 'Guided tours a person has seen.',
  home: 'The home page’s figures.',
  permits: 'Permits to work.',
  'api-tokens': 'Service accounts and their API tokens, for integrations.',
  webhooks: 'Webhook endpoints and their deliveries.',
  'data-export': 'The export of everything the organisation owns.',
};

/** `safety-interactions` -> `Safety interactions`: the OpenAPI tag of a module. */
export function tagOf(module: string): string {
  const known = MODULE_TITLES[module];
  if (known) return known;
  const words = module.replace(/[-_]/g, ' ');
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/** What each refusal means, the same for every operation (the body is always `errorResponse`). */
const REFUSALS: Record<number, string> = {
  400: 'Bad input or a malformed request: the errors in the reader’s language, a code, and the fields at fault',
  401: 'No token, or an expired, revoked or unknown one',
  403: 'Signed in without the right this call needs (or, on a write with a sign-in token, without the CSRF token)',
  404: 'Not found: no such record, or one of another organisation',
  405: 'Refused by design',
  409: 'The record’s state forbids this',
  410: 'The link has expired',
  413: 'The body or the file is too large',
  415: 'The file’s type is refused',
  429: 'Too many requests: wait and try again',
  500: 'An unexpected failure (no detail is given)',
  503: 'The database is unavailable',
};

/** Security schemes: how a caller proves who it is (README "API and integrations"). */
const SECURITY_SCHEMES = {
  session: {
    type: 'http',
    scheme: 'bearer',
    bearerFormat: 'JWT',
    description: 'The access token of a signed-in person (`POST /api/v1/authorize`), valid for minutes and refreshed.',
  },
  csrf: {
    type: 'apiKey',
    in: 'header',
    name: 'X-CSRF-Token',
    description: 'The CSRF token issued with the sign-in token; every write made with a sign-in token sends it.',
  },
  apiToken: {
    type: 'http',
    scheme: 'bearer',
    bearerFormat: 'API token',
    description:
      'An API token of a service account (Settings > Integrations), sent as `Authorization: Bearer bwk_…`. No CSRF token; valid only at its organisation’s address; rate-limited per token.',
  },
} as const;

type Security = Array<Record<string, string[]>>;

/** Who may call a contract, as OpenAPI security requirements (any one of them). */
export function securityOf(contract: Pick<Endpoint, 'access' | 'method'>): Security {
  const { access } = contract;
  if ('public' in access) return [];
  const write = contract.method !== 'GET';
  const session: Record<string, string[]> = write ? { session: [], csrf: [] } : { session: [] };
  // Service accounts are never administrators (modules/api-tokens): admin and platform calls need a person.
  if ('admin' in access || 'platform' in access) return [session];
  return [session, { apiToken: [] }];
}

/** The right a contract declares, said in words for the operation's description. */
function accessText(contract: Endpoint): string {
  const { access } = contract;
  if ('public' in access) return 'Public: no token.';
  if ('session' in access) return 'Any signed-in member of the organisation.';
  if ('admin' in access) return 'The organisation’s administrators only.';
  if ('platform' in access) return 'The platform’s super administrator only.';
  return `Needs the right ${access.subject} ${access.action}.`;
}

type TransformInput = Parameters<typeof jsonSchemaTransform>[0] & {
  route: { config?: { contract?: Endpoint } };
};

/** Wraps a status's schema with the description the document shows for it. */
function described(description: string, schema: unknown): unknown {
  // Binary and multi-type answers already carry their content map (route.ts routeSchema).
  if (schema && typeof schema === 'object' && 'content' in schema) return { description, ...(schema as object) };
  return { description, content: { 'application/json': { schema } } };
}

/** One route's operation: the zod schemas turned to JSON Schema, plus what only the contract knows. */
export function documentRoute(input: TransformInput): ReturnType<typeof jsonSchemaTransform> {
  const contract = input.route.config?.contract;
  // Only API routes from a contract are documented: the web app's pages and the document's own routes are not.
  if (!isApiPath(input.url) || !contract) return { schema: { hide: true }, url: input.url };
  const schema = input.schema as Record<string, unknown> & { response?: Record<string, unknown> };
  const success = contract.status ?? 200;
  const response = Object.fromEntries(
    Object.entries(schema.response ?? {}).map(([status, s]) => [
      status,
      described(Number(status) === success ? successText(contract) : (REFUSALS[Number(status)] ?? 'Refused'), s),
    ]),
  );
  const out = jsonSchemaTransform({ ...input, schema: { ...schema, response } } as Parameters<typeof jsonSchemaTransform>[0]);
  const description = [contract.description, accessText(contract)].filter(Boolean).join('\n\n');
  return {
    ...out,
    schema: { ...out.schema, description, security: securityOf(contract), 'x-access': contract.access },
  } as ReturnType<typeof jsonSchemaTransform>;
}

function successText(contract: Endpoint): string {
  if (contract.file === 'always') return 'The file';
  if (contract.status === 201) return 'Created';
  if (contract.status === 202) return 'Accepted: the work goes on in the background';
  return 'OK';
}

type Doc = Record<string, unknown> & {
  paths?: Record<string, Record<string, { tags?: string[] }>>;
  components?: { schemas?: Record<string, unknown> } & Record<string, unknown>;
};

/** The whole document: schemas of named (recursive) zod types, servers, tags, and nothing unused. */
export function finishDocument(config: Pick<Config, 'publicUrlTemplate'>) {
  return (input: Parameters<typeof jsonSchemaTransformObject>[0]): Doc => {
    const doc = jsonSchemaTransformObject(input) as Doc;
    const tags = new Set<string>();
    const tagDescriptions = new Map(Object.entries(MODULE_DESCRIPTIONS).map(([m, d]) => [tagOf(m), d]));
    for (const ops of Object.values(doc.paths ?? {})) for (const op of Object.values(ops)) for (const t of op.tags ?? []) tags.add(t);
    fixNullables(doc.paths);
    fixNullables(doc.components?.schemas);
    return {
      ...doc,
      servers: [
        {
          url: config.publicUrlTemplate,
          description: 'Each organisation is served at its own sub-domain.',
          variables: { tenant: { default: 'demo', description: 'The organisation’s sub-domain' } },
        },
      ],
      tags: [...tags].sort().map((name) => ({ name, description: tagDescriptions.get(name) ?? `Calls of the ${name} module.` })),
      components: { ...doc.components, schemas: usedSchemas(doc) },
    };
  };
}

/**
 * OpenAPI 3.0 says `nullable` only beside a `type`. The zod provider writes a union with null as
 * `{ anyOf: [...], nullable: true }`, which accepts no null at all: the null becomes a branch of its
 * own, the form 3.0 defines (`enum: [null]` of a nullable type). A nullable "anything" is anything.
 */
function fixNullables(value: unknown): void {
  if (Array.isArray(value)) return value.forEach(fixNullables);
  if (!value || typeof value !== 'object') return;
  const node = value as Record<string, unknown>;
  if (node.nullable === true && node.type === undefined) {
    delete node.nullable;
    const branches = (node.anyOf ?? node.oneOf) as unknown[] | undefined;
    if (branches) branches.push({ type: 'string', nullable: true, enum: [null] });
  }
  for (const child of Object.values(node)) fixNullables(child);
}

/**
 * Named schemas that some operation references, directly or through another: the registry holds an
 * input and an output form of every named zod type, and a document listing unused ones misleads.
 */
function usedSchemas(doc: Doc): Record<string, unknown> {
  const all = doc.components?.schemas ?? {};
  const used = new Set<string>();
  const visit = (value: unknown) => {
    const text = JSON.stringify(value) ?? '';
    for (const m of text.matchAll(/"#\/components\/schemas\/([^"]+)"/g)) {
      const name = m[1]!;
      if (used.has(name)) continue;
      used.add(name);
      visit(all[name]);
    }
  };
  visit(doc.paths);
  return Object.fromEntries(Object.entries(all).filter(([name]) => used.has(name)));
}

/** The @fastify/swagger options of the app. */
export function openApiOptions(config: Pick<Config, 'publicUrlTemplate'>): FastifyDynamicSwaggerOptions {
  return {
    openapi: {
      openapi: '3.0.3',
      info: {
        title: `${PRODUCT_NAME} API`,
        version: '1.0.0',
        description: [
          'Every operation declares the right it needs. Each organisation is served at its own sub-domain;',
          'a client that cannot use the sub-domain names the organisation in the X-Tenant header.',
          'People sign in for a short-lived token and send the X-CSRF-Token header with it on writes;',
          'integrations use an API token of a service account and send no CSRF token.',
          'Errors always have the body `{ errors, code, fields }`, in the language of Accept-Language.',
        ].join(' '),
      },
      components: { securitySchemes: SECURITY_SCHEMES },
    },
    transform: documentRoute as FastifyDynamicSwaggerOptions['transform'],
    transformObject: finishDocument(config) as FastifyDynamicSwaggerOptions['transformObject'],
  } as FastifyDynamicSwaggerOptions;
}
