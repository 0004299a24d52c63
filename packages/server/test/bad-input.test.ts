import fc from 'fast-check';
import { ERROR_STATUS } from '@bulwark/domain';
import type { LightMyRequestResponse } from 'fastify';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { createOrganizationService } from '../src/modules/organizations/service.js';
import type { RouteRecord } from '../src/platform/http/access.js';
import { withTextCheck } from '../src/platform/http/validation.js';
import { DEMO, seedDemo } from '../src/seed.js';
import { changes, describeChanges, openFootprint, type Footprint, type FootprintReader } from './attack/footprint.js';
import {
  bodyAttacks,
  fieldsOf,
  getAt,
  HOSTILE_TEXT,
  isZod,
  jsonSchemaOf,
  oneOf,
  pathKey,
  setAt,
  UNSTORABLE,
  urlAttacks,
  urlEncode,
  validSample,
  type Attack,
  type Field,
  type Path,
} from './attack/hostile.js';
import { createTestApp, nextIp, PASSWORD, signIn, type Session, type TestApp } from './helpers.js';

/**
 * Spec 000 §8 under attack: every registered route, read from `app.registeredRoutes`, gets inputs
 * derived from its own zod schemas. Invalid input is refused with a 4xx that says which field is wrong
 * and writes nothing; valid but hostile text is stored byte for byte or refused, and does nothing else.
 * The seed is fixed so a failure reproduces; BAD_INPUT_SEED picks another, BAD_INPUT_RUNS tries more per route.
 */
const SEED = Number(process.env.BAD_INPUT_SEED ?? 20_260_505);
/** Attacks per route and part; the whole file stays well inside CI's budget. BAD_INPUT_RUNS digs deeper by hand. */
const RUNS = Number(process.env.BAD_INPUT_RUNS ?? 4);
const TEXT_RUNS = Math.max(3, Math.round(RUNS * 0.75));
/**
 * Each test walks every route; on a busy two-core machine that takes longer than vitest's default minute.
 * Five minutes since the incidents module (32 routes) took the walk past three on such a machine.
 */
const TIMEOUT = 300_000 * Math.max(1, RUNS / 4);
const BODY_LIMIT = 1024 * 1024;
const WITH_BODY = new Set(['POST', 'PUT', 'PATCH']);

type Part = 'body' | 'querystring' | 'params';
type Who = 'admin' | 'platform' | 'nobody';
type Target = {
  route: RouteRecord;
  who: Who;
  params: Record<string, string>;
  body?: z.ZodType;
  query?: z.ZodType;
  paramSchema?: z.ZodType;
  base?: unknown;
  queryBase: Record<string, string>;
  fields: Field[];
};
type Sent = { res: LightMyRequestResponse; before: Footprint; after: Footprint };

let t: TestApp;
let fp: FootprintReader;
let admin: Session;
let root: Session;
let orgId: string;
let adminId: string;
const ids = new Map<string, string[]>();
let requests = 0;
let routesAttacked = 0;
const statuses = new Map<number, number>();
const stored = new Set<string>();

beforeAll(async () => {
  t = await createTestApp();
  // The demo organisation has data in every module (each module seeds it), so real ids exist for params.
  await seedDemo(t.deps.db.app);
  await createOrganizationService(t.deps.db.app).createPlatformAdmin({ email: 'root@platform.test', password: PASSWORD, fullName: 'Root' });
  admin = await signIn(t, DEMO.subDomain, DEMO.admin.email, DEMO.password);
  root = await signIn(t, 'public', 'root@platform.test');
  orgId = admin.profile.organization!.id;
  adminId = admin.profile.user.id;
  await readIds();
  fp = await openFootprint(t.ownerUrl);
  console.log(`bad input: seed ${SEED} (BAD_INPUT_SEED=${SEED} reproduces)`);
});

afterAll(async () => {
  console.log(`bad input: ${routesAttacked} routes, ${requests} requests`);
  console.log(
    `bad input: slowest ${[...slowest]
      .sort((a, b) => b[1] - a[1])
      .slice(0, 8)
      .map(([r, ms]) => `${r} ${Math.round(ms)} ms`)
      .join(', ')}`,
  );
  await fp?.close();
  await t?.close();
});

/** Up to five ids per table of the demo organisation, the signed-in admin first among users. */
async function readIds() {
  const client = new pg.Client({ connectionString: t.ownerUrl });
  await client.connect();
  try {
    const { rows } = await client.query<{ table_name: string }>(`
      select c.table_name from information_schema.columns c
      join information_schema.columns o on o.table_schema = c.table_schema and o.table_name = c.table_name and o.column_name = 'organization_id'
      where c.table_schema = 'public' and c.column_name = 'id' and c.data_type = 'uuid'`);
    for (const { table_name: table } of rows) {
      const found = await client.query<{ id: string }>(
        `select id::text from "${table}" where organization_id = $1 order by (id = $2) desc, id limit 5`,
        [orgId, adminId],
      );
      ids.set(
        table,
        found.rows.map((r) => r.id),
      );
    }
    ids.set('organizations', [orgId]);
  } finally {
    await client.end();
  }
}

/** Names that mean a person, whatever the module calls them. */
const PEOPLE =
  /(^|_)(user|responsible|observer|head|supervisor|reviewer|escalation_user|head_of_safety|head_of_site|assignee|owner|manager|reporter|creator)$/;
const ALIASES: Record<string, string> = {
  sub: 'sub_categories',
  file: 'files',
  attachment: 'files',
  attachments: 'files',
  area: 'site_nodes',
  node: 'site_nodes',
  site_node: 'site_nodes',
  divisions: 'site_nodes',
};

/**
 * A real id of the demo organisation for a field or path parameter, found by name: `site_id` → sites,
 * `category_id` → categories, `schedules/:id` → si_schedules (a table ending in the word), people →
 * users. Nothing found means a fresh uuid (the route answers 404 then, which is still a refusal).
 */
function realId(name: string, segment?: string, forParam = false): string | undefined {
  const word = name === 'id' && segment ? segment : name.replace(/_?(ids?|Ids?)$/, '');
  const table = tableFor(word);
  const list = table ? ids.get(table) : undefined;
  if (!list?.length) return undefined;
  // A path parameter naming a person should not be the acting admin: the route may change that person.
  return forParam && table === 'users' && list.length > 1 ? list[1] : list[0];
}

function tableFor(word: string): string | undefined {
  if (ALIASES[word]) return ALIASES[word];
  if (PEOPLE.test(word) || word === 'users') return 'users';
  const names = [...ids.keys()];
  const singular = word.replace(/ies$/, 'y').replace(/s$/, '');
  const tries = [word, `${word}s`, `${singular}s`, `${singular.replace(/y$/, 'ies')}`];
  return tries.find((n) => ids.has(n)) ?? names.find((n) => n.endsWith(`_${word}`) || n.endsWith(`_${singular}s`));
}

function idForPath(path: Path): string | undefined {
  const name = [...path].reverse().find((p): p is string => typeof p === 'string');
  return name ? realId(name) : undefined;
}

function targetsOf(route: RouteRecord): Target[] {
  const schema = route.schema ?? {};
  const body = WITH_BODY.has(route.method) && isZod(schema.body) ? schema.body : undefined;
  const query = isZod(schema.querystring) ? schema.querystring : undefined;
  const paramSchema = isZod(schema.params) ? schema.params : undefined;
  if (!body && !query && !paramSchema) return [];
  const segments = route.url.split('/');
  const segmentBefore = (name: string) => {
    const i = segments.indexOf(`:${name}`);
    return segments[i - 1]?.startsWith(':') ? undefined : segments[i - 1];
  };
  const paramIds = (path: Path) => (typeof path[0] === 'string' ? realId(path[0], segmentBefore(path[0]), true) : undefined);
  const sampled = paramSchema ? validSample(paramSchema, paramIds) : undefined;
  const params: Record<string, string> = {};
  for (const seg of segments.filter((x) => x.startsWith(':'))) {
    const name = seg.slice(1);
    const value = getAt(sampled, [name]);
    params[name] = typeof value === 'string' || typeof value === 'number' ? String(value) : (paramIds([name]) ?? 'x');
  }
  const queryBase = query ? ((validSample(query, idForPath) as Record<string, unknown> | undefined) ?? {}) : {};
  const base = body ? validSample(body, idForPath) : undefined;
  const who: Who[] = 'public' in route.access ? ['nobody', 'admin'] : 'platform' in route.access ? ['platform'] : ['admin'];
  const fields = body ? fieldsOf(jsonSchemaOf(body)) : [];
  return who.map((w) => ({ route, who: w, params, body, query, paramSchema, base, queryBase: stringify(queryBase), fields }));
}

function stringify(record: Record<string, unknown>): Record<string, string> {
  return Object.fromEntries(
    Object.entries(record)
      .filter(([, v]) => v !== undefined)
      .map(([k, v]) => [k, String(v)]),
  );
}

/** The URL of a request; `encoded` names the one value sent as it is (already percent-encoded, maybe badly). */
function urlOf(target: Target, params: Record<string, unknown>, query: Record<string, unknown>, encoded?: string): string {
  const encode = (name: string, v: unknown) => (name === encoded ? String(v) : urlEncode(String(v)));
  const path = target.route.url.replace(/:(\w+)/g, (_m, name: string) => {
    const v = params[name];
    return v === undefined ? '' : encode(name, v);
  });
  const pairs = Object.entries(query).flatMap(([k, v]) => (Array.isArray(v) ? v : [v]).map((x) => `${urlEncode(k)}=${encode(k, x)}`));
  return pairs.length ? `${path}?${pairs.join('&')}` : path;
}

function headersOf(who: Who, lang?: string): Record<string, string> {
  const s = who === 'admin' ? admin : who === 'platform' ? root : null;
  return {
    ...(s ? { 'x-tenant': s.tenant, authorization: `Bearer ${s.token}`, 'x-csrf-token': s.csrf } : { 'x-tenant': DEMO.subDomain }),
    ...(lang ? { 'accept-language': lang } : {}),
  };
}

type Input = { params: Record<string, unknown>; query: Record<string, unknown>; body?: unknown; raw?: string; encoded?: string };

let last: Footprint | undefined;
/** Sends one request; the reading after it is the next request's reading before (nothing else writes meanwhile). */
async function send(target: Target, input: Input, lang?: string): Promise<Sent> {
  const before = last ?? (await fp.read());
  const payload = input.raw ?? (input.body === undefined ? undefined : JSON.stringify(input.body));
  const res = await t.app.inject({
    method: target.route.method as 'GET',
    url: urlOf(target, input.params, input.query, input.encoded),
    headers: { ...headersOf(target.who, lang), ...(payload === undefined ? {} : { 'content-type': 'application/json' }) },
    remoteAddress: nextIp(),
    ...(payload === undefined ? {} : { payload }),
  });
  requests += 1;
  statuses.set(res.statusCode, (statuses.get(res.statusCode) ?? 0) + 1);
  last = await fp.read();
  return { res, before, after: last };
}

type ErrorBody = { errors: string[]; code: string; fields?: Record<string, string> };

/** The error shape of spec 000 §8: a non-empty text first, a known code whose status is the one sent. */
function errorBody(where: string, res: LightMyRequestResponse): ErrorBody {
  expect(res.headers['content-type'], where).toMatch(/json/);
  const body = res.json() as ErrorBody;
  expect(
    Array.isArray(body.errors) && body.errors.length > 0 && body.errors.every((e) => typeof e === 'string' && e.trim().length > 0),
    `${where}: ${res.body.slice(0, 300)}`,
  ).toBe(true);
  expect(body.code in ERROR_STATUS, `${where}: unknown code ${body.code}`).toBe(true);
  expect(ERROR_STATUS[body.code as keyof typeof ERROR_STATUS], `${where}: code ${body.code} with status ${res.statusCode}`).toBe(
    res.statusCode,
  );
  return body;
}

/** Zod's verdict on one part of an input, with the field names of its complaints as the server would name them. */
function verdict(schema: z.ZodType | undefined, value: unknown, part: Part): { valid: boolean; fields: Set<string> } {
  if (!schema) return { valid: true, fields: new Set() };
  const result = withTextCheck(schema).safeParse(value);
  if (result.success) return { valid: true, fields: new Set() };
  return {
    valid: false,
    fields: new Set(result.error.issues.map((i) => pathKey(i.path.map((p) => (typeof p === 'symbol' ? String(p) : p))) || part)),
  };
}

function inputFor(target: Target, part: Part, attack: Attack): Input {
  const input: Input = { params: target.params, query: target.queryBase, ...(target.body ? { body: target.base ?? {} } : {}) };
  if (part === 'body') return { ...input, body: attack.value, ...(attack.raw === undefined ? {} : { raw: attack.raw }) };
  const encoded = attack.encoded === undefined ? {} : { encoded: attack.encoded };
  if (part === 'querystring') return { ...input, ...encoded, query: attack.value as Record<string, unknown> };
  return { ...input, ...encoded, params: attack.value as Record<string, unknown> };
}

function label(target: Target, part: Part, attack: Attack): string {
  return `${target.route.method} ${target.route.url} as ${target.who}, ${part}: ${attack.label}`;
}

/** Whether zod refuses the attack; some raw bodies (prototype keys, broken JSON) are refused by the parser before zod. */
function refused(target: Target, part: Part, attack: Attack): { valid: boolean; fields: Set<string> } {
  if (attack.parser) return { valid: false, fields: new Set() };
  // What a badly encoded value decodes to is the server's business: it goes with the valid ones (no 5xx, nothing written).
  if (attack.encoded !== undefined) return { valid: true, fields: new Set() };
  const schema = part === 'body' ? target.body : part === 'querystring' ? target.query : target.paramSchema;
  return verdict(schema, attack.value, part);
}

function attacksOf(target: Target): { part: Part; attack: Attack }[] {
  const out: { part: Part; attack: Attack }[] = [];
  if (target.body) out.push(...bodyAttacks(target.body, target.base).map((attack) => ({ part: 'body' as const, attack })));
  if (target.query) out.push(...urlAttacks(target.query, target.queryBase).map((attack) => ({ part: 'querystring' as const, attack })));
  if (target.paramSchema)
    out.push(...urlAttacks(target.paramSchema, stringify(target.params)).map((attack) => ({ part: 'params' as const, attack })));
  return out;
}

const routes = () => createTestAppRoutes();
function createTestAppRoutes(): RouteRecord[] {
  return t.app.registeredRoutes.filter((r) => r.method !== 'HEAD' && !r.url.startsWith('/api/docs'));
}

describe('bad input on every route (spec 000 §8)', () => {
  it(
    "refuses invalid input with a 4xx that names the field, in the reader's language, and writes nothing",
    async () => {
      let routeCount = 0;
      let languageChecks = 0;
      const failures: string[] = [];
      for (const route of routes()) {
        const targets = targetsOf(route);
        if (targets.length) routeCount += 1;
        for (const target of targets) {
          const invalid = attacksOf(target).filter(({ part, attack }) => !refused(target, part, attack).valid);
          if (!invalid.length) continue;
          await collect(
            failures,
            fc.asyncProperty(oneOf(invalid.map((x) => x.attack)), async (attack) => {
              await checkRefusal(target, invalid.find((x) => x.attack === attack)!.part, attack);
            }),
            Math.min(RUNS, invalid.length),
            `${route.method} ${route.url}`,
          );
          // Besides the sample, each route always gets these: a missing field, a 1 MB text, a prototype key,
          // a number past 2^53 or infinite, and the texts PostgreSQL or UTF-8 cannot keep.
          const free = target.fields.find((f) => f.free);
          const core = [
            invalid.find((x) => x.attack.label.startsWith('missing ')),
            invalid.find((x) => x.attack.label.endsWith(' of 1 MB')),
            invalid.find((x) => x.attack.label === 'prototype key __proto__'),
            invalid.find((x) => / = -?(9007199254740993|1e400)$/.test(x.attack.label)),
            ...UNSTORABLE.map((name) =>
              invalid.find((x) => free && x.part === 'body' && x.attack.label === `${pathKey(free.path)} = ${name}`),
            ),
          ];
          for (const x of core) {
            if (!x) continue;
            try {
              await checkRefusal(target, x.part, x.attack);
            } catch (err) {
              failures.push(String(err).split('\n')[0]!.slice(0, 600));
            }
          }
          try {
            languageChecks += await checkLanguages(target, invalid);
          } catch (err) {
            failures.push(String(err));
          }
        }
      }
      routesAttacked = routeCount;
      console.log(
        `bad input: invalid input on ${routeCount} routes, ${requests} requests, ${languageChecks} refusals asked again in es, tr or zh; statuses ${[
          ...statuses,
        ]
          .sort()
          .map(([s, n]) => `${s}×${n}`)
          .join(' ')}`,
      );
      expect(failures).toEqual([]);
      expect(routeCount).toBeGreaterThan(50);
    },
    TIMEOUT,
  );

  it(
    'stores valid but hostile text byte for byte (or refuses it, naming the field) and changes nothing else',
    async () => {
      let tried = 0;
      const before = requests;
      const failures: string[] = [];
      for (const route of routes()) {
        for (const target of targetsOf(route).filter((x) => x.body && x.base !== undefined && x.who !== 'nobody')) {
          const free = target.fields.filter((f) => f.free && reachable(target.base, f.path));
          if (!free.length) continue;
          tried += 1;
          const texts = fc.oneof(
            fc
              .constantFrom(...(Object.keys(HOSTILE_TEXT) as (keyof typeof HOSTILE_TEXT)[]))
              .map((name) => ({ name: String(name), text: HOSTILE_TEXT[name] })),
            fc.string({ unit: 'binary', minLength: 1, maxLength: 12 }).map((text) => ({ name: 'random', text })),
          );
          await collect(
            failures,
            fc.asyncProperty(fc.constantFrom(...free), texts, async (field, { name, text }) => {
              await hostileTextCase(target, field, name, text);
            }),
            TEXT_RUNS,
            `${route.method} ${route.url} text`,
          );
        }
      }
      console.log(
        `bad input: hostile text on ${tried} routes, ${requests - before} requests, stored verbatim through ${stored.size}: ${[...stored].join(', ')}`,
      );
      expect(failures).toEqual([]);
      expect(tried).toBeGreaterThan(10);
    },
    TIMEOUT,
  );
});

describe('hostile but valid values in paths, query strings and numbers', () => {
  it(
    'is answered without a 5xx, and a read or a refusal writes nothing',
    async () => {
      const failures: string[] = [];
      let tried = 0;
      const before = requests;
      for (const route of routes()) {
        for (const target of targetsOf(route)) {
          // Body attacks zod accepts are hostile text (the test above) or numbers JSON rounds (here).
          const valid = attacksOf(target).filter(
            ({ part, attack }) => (part !== 'body' || attack.raw !== undefined) && refused(target, part, attack).valid,
          );
          if (!valid.length) continue;
          tried += 1;
          await collect(
            failures,
            fc.asyncProperty(oneOf(valid.map((x) => x.attack)), async (attack) => {
              const { part } = valid.find((x) => x.attack === attack)!;
              const where = label(target, part, attack);
              const { res, before: b, after } = await send(target, inputFor(target, part, attack));
              expect(res.statusCode, `${where}: ${res.body.slice(0, 300)}`).toBeLessThan(500);
              if (res.statusCode >= 400) errorBody(where, res);
              if (res.statusCode >= 400 || route.method === 'GET')
                expect(describeChanges(changes(b, after)), `${where} wrote rows`).toBe('nothing');
            }),
            Math.min(RUNS, valid.length),
            `${route.method} ${route.url} url`,
          );
        }
      }
      console.log(`bad input: hostile path, query and number values on ${tried} routes, ${requests - before} requests`);
      expect(failures).toEqual([]);
    },
    TIMEOUT,
  );
});

/**
 * Runs a property for one route and keeps its failure (the counterexample and the first lines of the
 * cause), so one run reports every route that fails, not only the first.
 */
const slowest = new Map<string, number>();
async function collect<T extends unknown[]>(failures: string[], property: fc.IAsyncProperty<T>, numRuns: number, name = '') {
  const started = performance.now();
  const details = await fc.check(property, { numRuns, seed: SEED, endOnFailure: true });
  slowest.set(name, (slowest.get(name) ?? 0) + performance.now() - started);
  if (!details.failed) return;
  const cause = details.errorInstance instanceof Error ? details.errorInstance.message : String(details.errorInstance);
  failures.push(cause.split('\n').slice(0, 3).join(' ').slice(0, 600));
}

/** Invalid input: a 4xx in the error shape, naming the field zod names, and no row written anywhere. */
async function checkRefusal(target: Target, part: Part, attack: Attack) {
  const where = label(target, part, attack);
  const { res, before, after } = await send(target, inputFor(target, part, attack));
  expect(res.statusCode, `${where}: ${res.body.slice(0, 300)}`).toBeGreaterThanOrEqual(400);
  expect(res.statusCode, `${where}: ${res.body.slice(0, 300)}`).toBeLessThan(500);
  const body = errorBody(where, res);
  const size = attack.raw?.length ?? JSON.stringify(attack.value ?? null).length;
  if (part === 'body' && size > BODY_LIMIT) expect(body.code, where).toBe('payload_too_large');
  if (res.statusCode === 400 && body.code === 'validation_failed') {
    // The field at fault is named, with a text of its own.
    const expected = refused(target, part, attack).fields;
    const named = Object.keys(body.fields ?? {});
    const aimed = attack.path && expected.has(pathKey(attack.path) || part) ? pathKey(attack.path) || part : undefined;
    if (aimed) expect(named, where).toContain(aimed);
    if (expected.size)
      expect(
        named.some((n) => expected.has(n)),
        `${where}: named ${named.join(', ')}, zod says ${[...expected].join(', ')}`,
      ).toBe(true);
    expect(
      Object.values(body.fields ?? {}).every((text) => text.trim().length > 0),
      where,
    ).toBe(true);
  }
  expect(describeChanges(changes(before, after)), `${where} wrote rows`).toBe('nothing');
  expect(({} as Record<string, unknown>)['polluted'], `${where} polluted Object.prototype`).toBeUndefined();
}

/** A free-text field present in (or addable to) the valid sample: arrays are reached through their first item. */
function reachable(base: unknown, path: Path): boolean {
  return path.every((p, i) => typeof p === 'string' || getAt(base, path.slice(0, i)) !== undefined);
}

let nonce = 0;
async function hostileTextCase(target: Target, field: Field, name: string, text: string) {
  nonce += 1;
  const control = setAt(unique(target, nonce * 2), field.path, `Plain ${nonce}`);
  const hostile = setAt(unique(target, nonce * 2 + 1), field.path, `${text} ${nonce}`);
  const where = `${target.route.method} ${target.route.url}, ${pathKey(field.path)} = ${name} ${JSON.stringify(text)}`;
  const check = withTextCheck(target.body!).safeParse(hostile);
  const controlValid = target.body!.safeParse(control).success;
  if (!check.success || !controlValid) return;
  const plain = await send(target, { params: target.params, query: target.queryBase, body: control });
  const sent = await send(target, { params: target.params, query: target.queryBase, body: hostile });
  expect(sent.res.statusCode, `${where}: ${sent.res.body.slice(0, 300)}`).toBeLessThan(500);
  const written = changes(sent.before, sent.after);
  if (sent.res.statusCode >= 400) {
    const body = errorBody(where, sent.res);
    // Refused where plain text was accepted: the text is at fault, so the refusal must name its field.
    // A conflict is the control's own record in the way (one pending request, one per site), not the text.
    if (plain.res.statusCode < 300 && body.code !== 'conflict') {
      expect(body.code, `${where}: plain text was accepted`).toBe('validation_failed');
      expect(Object.keys(body.fields ?? {}), `${where}: the refusal names the field`).toContain(pathKey(field.path));
    }
    expect(describeChanges(written), `${where} was refused but wrote rows`).toBe('nothing');
    return;
  }
  expect(plain.res.statusCode, `${where}: hostile text accepted where plain text was not`).toBeLessThan(300);
  // Nothing else happens than with plain text: the same tables change by the same number of rows.
  // Nothing else happens than with plain text: the same tables change, and none gains more rows (a
  // counter row the plain request created is only updated the second time).
  const plainChanges = changes(plain.before, plain.after);
  const expected = describeChanges(plainChanges);
  expect([...written.keys()], `${where}: plain text changed ${expected}, hostile ${describeChanges(written)}`).toEqual([
    ...plainChanges.keys(),
  ]);
  for (const [table, delta] of written) {
    const plainDelta = plainChanges.get(table)!;
    expect(
      delta <= plainDelta && (plainDelta < 0 || delta >= 0),
      `${where}: plain text changed ${expected}, hostile ${describeChanges(written)}`,
    ).toBe(true);
  }
  const parsed = getAt(check.data, field.path);
  if (typeof parsed !== 'string') return;
  const plainKept = await fp.rowsHolding(
    [...changes(plain.before, plain.after).keys()],
    String(getAt(target.body!.parse(control), field.path)),
  );
  if (!plainKept) return; // the field is not kept as text (a password, a search): nothing to compare
  expect(await fp.rowsHolding([...written.keys()], parsed), `${where}: stored text differs from the text sent`).toBeGreaterThan(0);
  stored.add(`${target.route.method} ${target.route.url} ${pathKey(field.path)}`);
}

/** Letters for a number, so a unique suffix also fits names that allow letters only. */
function letters(n: number): string {
  let out = '';
  let rest = n;
  do {
    out = String.fromCharCode(97 + (rest % 26)) + out;
    rest = Math.floor(rest / 26);
  } while (rest > 0);
  return out;
}

/** The valid sample with each text made unique where the schema still accepts it, so creates do not collide on names or e-mails. */
function unique(target: Target, n: number): unknown {
  let value = target.base;
  for (const f of target.fields) {
    const current = getAt(value, f.path);
    if (typeof current !== 'string') continue;
    const next = setAt(value, f.path, current.includes('@') ? current.replace('@', `+${letters(n)}@`) : `${current} ${letters(n)}`);
    if (target.body!.safeParse(next).success) value = next;
  }
  return value;
}

/** The first refusal of a route, asked again in Spanish, Turkish or Chinese, must not answer in English. */
const LANGUAGES = ['es', 'tr', 'zh'];
let languageTurn = 0;
async function checkLanguages(target: Target, invalid: { part: Part; attack: Attack }[]): Promise<number> {
  const first = invalid.find(({ attack }) => attack.raw === undefined && JSON.stringify(attack.value ?? null).length < 10_000);
  if (!first) return 0;
  const input = inputFor(target, first.part, first.attack);
  const english = (await send(target, input, 'en')).res;
  if (english.statusCode >= 500) return 0;
  const en = english.json() as ErrorBody;
  // One language per route, in turn: every language is asked across the routes without tripling the requests.
  for (const lang of [LANGUAGES[languageTurn++ % LANGUAGES.length]!]) {
    const where = `${label(target, first.part, first.attack)} in ${lang}`;
    const { res } = await send(target, input, lang);
    expect(res.statusCode, where).toBe(english.statusCode);
    const body = errorBody(where, res);
    expect(body.errors[0], where).not.toBe(en.errors[0]);
    for (const [f, text] of Object.entries(body.fields ?? {})) expect(text, `${where}: field ${f}`).not.toBe(en.fields?.[f]);
    if (lang === 'zh') expect(body.errors[0], where).toMatch(/\p{Script=Han}/u);
  }
  return 1;
}
