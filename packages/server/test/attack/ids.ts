import { randomBytes, randomUUID } from 'node:crypto';
import { actionDateIn, localDateTimeIn } from '@bulwark/domain';
import { z } from 'zod';
import type { RouteRecord } from '../../src/platform/http/access.js';

/**
 * Filling a route's path, query and body from its own zod schemas, with the victim's ids wherever an id
 * goes. What a value stands for (a kind) is read from its name: a table of the world (`sites`), or one
 * of `tokens`, `emails`, `sub_domains`. A name nobody can classify falls back to every id the victim
 * has, so a new module's `:whatever_id` is still probed without anyone naming it.
 */

/** Values per kind: table name (or tokens, emails, sub_domains) to the victim's values. */
export type Pool = Record<string, string[]>;

/** Path parameters that are not records: a valid constant lets the request reach the tenant checks. */
export const LITERALS: Record<string, string> = { step: 'headOfSafety', module: 'permits', moduleId: '3', scenarioId: 'action_assigned' };

/** Names whose kind is not their own plural. */
const NAME_KINDS: Record<string, string> = {
  node_id: 'site_nodes',
  area_id: 'site_nodes',
  site_node_id: 'site_nodes',
  subId: 'sub_categories',
  sub_category_id: 'sub_categories',
  fileId: 'files',
  attachment_ids: 'files',
  photo_id: 'files',
  responsible_id: 'users',
  observer_id: 'users',
  head_of_safety_id: 'users',
  head_of_site_id: 'users',
  reviewer_ids: 'users',
  escalation_user_id: 'users',
  reporter_id: 'users',
  participant_ids: 'users',
  head_id: 'users',
  supervisor_id: 'users',
  role_id: 'roles',
  default_role_id: 'roles',
  schedule_id: 'si_schedules',
  victim_id: 'incident_victims',
  root_cause_ids: 'root_cause_settings',
  factor_id: 'incident_factors',
  lead_id: 'users',
  member_ids: 'users',
  user_ids: 'users',
  evidence_ids: 'files',
  token: 'tokens',
  email: 'emails',
  reporter_email: 'emails',
  sub_domain: 'sub_domains',
};

/** Path segments whose `:id` is not a row of the table of the same name. */
const SEGMENT_KINDS: Record<string, string> = { divisions: 'site_nodes', schedules: 'si_schedules', attachments: 'files' };

export type Classified = { kind: string } | { literal: string } | { fallback: true };

function kindFromStem(stem: string, pool: Pool): string | null {
  const snake = stem.replace(/([a-z])([A-Z])/g, '$1_$2').toLowerCase();
  for (const k of [`${snake}s`, `${snake}es`, snake.replace(/y$/, 'ies'), snake]) if (pool[k]?.length) return k;
  return null;
}

/** The kind of the records a path names: its last fixed segment before `upTo` (`/api/sites/:id/divisions` → site_nodes). */
function resourceOf(url: string, pool: Pool, upTo?: string): string | null {
  const segments = url.split('?')[0]!.split('/');
  const end = upTo ? segments.indexOf(upTo) : segments.length;
  const before = segments
    .slice(0, end)
    .reverse()
    .find((s) => s && !s.startsWith(':'));
  const kind = before ? (SEGMENT_KINDS[before] ?? before) : '';
  return pool[kind]?.length ? kind : null;
}

/**
 * What a field or parameter called `name` holds. `url` is the route: it gives a path's `:id` its
 * meaning (the segment before it), and a body's `parent_id` (a record of the route's own kind).
 */
export function classify(name: string, pool: Pool, url: string, inPath = false): Classified {
  if (inPath && LITERALS[name] !== undefined) return { literal: LITERALS[name] };
  const named = NAME_KINDS[name];
  if (named && pool[named]?.length) return { kind: named };
  const own = name === 'id' && inPath ? resourceOf(url, pool, ':id') : name === 'parent_id' ? resourceOf(url, pool) : undefined;
  if (own !== undefined) return own ? { kind: own } : { fallback: true };
  const stem = /^(.+?)(_ids|_id|Ids|Id)$/.exec(name)?.[1] ?? name.replace(/\[\]$/, '');
  const kind = stem ? kindFromStem(stem, pool) : null;
  return kind ? { kind } : { fallback: true };
}

/** The values a parameter is tried with: its kind's values, its constant, or every value of every kind. */
export function candidates(c: Classified, pool: Pool, perKind = 8): string[] {
  if ('literal' in c) return [c.literal];
  if ('kind' in c) return (pool[c.kind] ?? []).slice(0, perKind);
  return fallbackIds(pool, perKind);
}

/** The fallback: every id the victim holds, of every kind (at most `perKind` of a table, for the audit log's sake). */
export function fallbackIds(pool: Pool, perKind = 8): string[] {
  return Object.entries(pool)
    .filter(([k]) => !['emails', 'sub_domains', 'tokens'].includes(k))
    .flatMap(([, v]) => v.slice(0, perKind));
}

/** What the filler needs besides the schema: the victim's values and the route (for names read in context). */
type Ctx = { pool: Pool; url: string };

/** A JSON Schema node as zod writes it (the parts the filler reads). */
type Json = {
  type?: string | string[];
  format?: string;
  properties?: Record<string, Json>;
  required?: string[];
  items?: Json;
  anyOf?: Json[];
  oneOf?: Json[];
  allOf?: Json[];
  enum?: unknown[];
  const?: unknown;
  minimum?: number;
  exclusiveMinimum?: number;
  maximum?: number;
  minLength?: number;
  maxLength?: number;
  minItems?: number;
  maxItems?: number;
  pattern?: string;
  default?: unknown;
  $ref?: string;
  $defs?: Record<string, Json>;
};

export function zodOf(x: unknown): z.ZodType | null {
  return x instanceof z.ZodType ? x : null;
}

const jsonCache = new WeakMap<z.ZodType, Json>();

/** The JSON Schema of a route's zod schema, converted once per schema (probes fill the same route many times). */
export function jsonOf(schema: unknown): Json | null {
  const zod = zodOf(schema);
  if (!zod) return null;
  let json = jsonCache.get(zod);
  if (!json) {
    json = JSON.parse(JSON.stringify(z.toJSONSchema(zod, { io: 'input', unrepresentable: 'any' }))) as Json;
    jsonCache.set(zod, json);
  }
  return json;
}

/** One place in a request that carries a victim value. */
export type Slot = { key: string; name: string; kind: Classified; many: boolean; format: 'uuid' | 'text'; max?: number };

/** Chooses the value of a slot: the victim's, a random twin's, or the attacker's own. */
export type Pick = (slot: Slot) => string | string[];

const TZ = 'Europe/London';

/** Random letters: names accept letters, and a fresh name never collides with one an earlier request created. */
function letters(n = 8): string {
  return [...randomBytes(n)].map((b) => String.fromCharCode(97 + (b % 26))).join('');
}

function plainString(name: string, node: Json): string {
  const min = node.minLength ?? 0;
  const max = node.maxLength ?? 200;
  const choices = [
    /_at$/.test(name) ? localDateTimeIn(TZ, new Date(Date.now() - 3_600_000)) : null,
    /(^|_)(date|from|to)$/.test(name) ? actionDateIn(TZ, new Date(Date.now() + 2 * 86_400_000)) : null,
    /password/.test(name) ? 'Probe#Pass123' : null,
    /time_?zone/.test(name) ? TZ : null,
    /phone/.test(name) ? '+44 20 7946 0958' : null,
    /url$/.test(name) || node.format === 'uri' ? 'http://127.0.0.1:9/' : null,
    name === 'country' ? 'GB' : null,
    name === 'zip' ? 'E16 2QU' : null,
    name === 'code' ? '123456' : null,
    node.format === 'date' ? actionDateIn(TZ) : null,
    node.format === 'date-time' ? new Date(Date.now() - 3_600_000).toISOString() : null,
    `Probe ${letters()}`,
    'PROBE',
    'probe',
    '123456',
    actionDateIn(TZ),
    localDateTimeIn(TZ, new Date(Date.now() - 3_600_000)),
  ].filter((v): v is string => v !== null);
  const pattern = node.pattern ? new RegExp(node.pattern) : null;
  const fits = (v: string) => (!pattern || pattern.test(v)) && v.length <= max;
  const found = choices.find((v) => fits(v) && v.length >= min) ?? choices.find(fits) ?? 'Probe';
  return found.length >= min ? found : found.padEnd(min, 'x');
}

function hasSlot(node: Json, name: string, defs: Record<string, Json>, depth = 0): boolean {
  if (depth > 6) return false;
  const n = resolve(node, defs);
  if (textKind(name)) return true;
  if (n.format === 'uuid') return true;
  if (n.anyOf ?? n.oneOf) return (n.anyOf ?? n.oneOf ?? []).some((o) => hasSlot(o, name, defs, depth + 1));
  if (n.items) return hasSlot(n.items, name, defs, depth + 1);
  if (n.properties) return Object.entries(n.properties).some(([k, v]) => hasSlot(v, k, defs, depth + 1));
  return false;
}

/** Text (non-uuid) fields that still carry a victim value. */
function textKind(name: string): boolean {
  return ['token', 'email', 'reporter_email', 'sub_domain'].includes(name);
}

function resolve(node: Json, defs: Record<string, Json>): Json {
  if (node.$ref) return defs[node.$ref.replace(/^#\/\$defs\//, '')] ?? {};
  if (node.allOf?.length) return node.allOf.reduce<Json>((acc, part) => ({ ...acc, ...resolve(part, defs) }), {});
  return node;
}

/**
 * A value for the schema: every required field, and every optional one that carries a slot, so the
 * request gets as far as the server's own checks of the victim's ids.
 */
export function fillValue(
  node: Json,
  name: string,
  key: string,
  pick: Pick,
  ctx: Ctx,
  defs: Record<string, Json> = node.$defs ?? {},
  depth = 0,
): unknown {
  const n = resolve(node, defs);
  if (depth > 8) return null;
  const options = n.anyOf ?? n.oneOf;
  if (options?.length) {
    const usable = options.filter((o) => resolve(o, defs).type !== 'null');
    const withSlot = usable.find((o) => hasSlot(o, name, defs));
    return fillValue(withSlot ?? usable[0] ?? options[0]!, name, key, pick, ctx, defs, depth + 1);
  }
  if (n.const !== undefined) return n.const;
  if (n.enum?.length) return n.enum[0];
  const type = Array.isArray(n.type) ? n.type.find((x) => x !== 'null') : n.type;
  if (type === 'string' && (n.format === 'uuid' || textKind(name))) {
    return pick({ key, name, kind: classify(name, ctx.pool, ctx.url), many: false, format: n.format === 'uuid' ? 'uuid' : 'text' });
  }
  if (type === 'array' && n.items) {
    const item = resolve(n.items, defs);
    if (item.format === 'uuid')
      return pick({
        key,
        name,
        kind: classify(name, ctx.pool, ctx.url),
        many: true,
        format: 'uuid',
        ...(n.maxItems ? { max: n.maxItems } : {}),
      });
    if ((n.minItems ?? 0) > 0 || hasSlot(item, name, defs)) return [fillValue(item, name, `${key}[0]`, pick, ctx, defs, depth + 1)];
    return Array.isArray(n.default) ? n.default : [];
  }
  if (type === 'object' || n.properties) {
    const out: Record<string, unknown> = {};
    const required = new Set(n.required ?? []);
    const entries = Object.entries(n.properties ?? {});
    for (const [k, v] of entries) {
      if (required.has(k) || hasSlot(v, k, defs)) out[k] = fillValue(v, k, key ? `${key}.${k}` : k, pick, ctx, defs, depth + 1);
    }
    // An empty change is refused before the record is looked up: one field lets the lookup happen.
    const [firstKey, firstNode] = entries[0] ?? [];
    if (key === 'body' && firstKey && firstNode && Object.keys(out).length === 0)
      out[firstKey] = fillValue(firstNode, firstKey, `body.${firstKey}`, pick, ctx, defs, depth + 1);
    return out;
  }
  if (type === 'string') return plainString(name, n);
  if (type === 'integer' || type === 'number') {
    if (name === 'year') return 2026;
    const low = n.minimum ?? (n.exclusiveMinimum !== undefined ? n.exclusiveMinimum + 1 : 1);
    return n.maximum !== undefined ? Math.min(low, n.maximum) : low;
  }
  // True switches on what hangs off a flag (action_required → the actions and their responsible ids).
  if (type === 'boolean') return true;
  return n.default ?? null;
}

/** A request to send: the filled URL (with query) and body. */
export type Filled = { url: string; payload?: unknown };

/** The slots of a route's path (`:name` parts), typed by its params schema. */
export function pathSlots(route: RouteRecord, pool: Pool): Slot[] {
  const params = jsonOf(route.schema?.params)?.properties ?? {};
  return [...route.url.matchAll(/:(\w+)/g)].map((m) => {
    const name = m[1]!;
    return {
      key: `path.${name}`,
      name,
      kind: classify(name, pool, route.url, true),
      many: false,
      format: params[name]?.format === 'uuid' ? 'uuid' : 'text',
    };
  });
}

/** The route filled through `pick`: path parameters, querystring and (JSON) body. */
export function fillRoute(route: RouteRecord, pool: Pool, pick: Pick): Filled {
  let url = route.url;
  for (const slot of pathSlots(route, pool)) {
    url = url.replace(`:${slot.name}`, encodeURIComponent(String(pick(slot))));
  }
  const query = jsonOf(route.schema?.querystring);
  if (query) {
    const values = fillValue(query, '', 'query', pick, { pool, url: route.url });
    const params = new URLSearchParams();
    for (const [k, v] of Object.entries(values as Record<string, unknown>)) {
      if (v === null || v === undefined) continue;
      params.set(k, Array.isArray(v) ? v.join(',') : String(v));
    }
    const text = params.toString();
    if (text) url = `${url}?${text}`;
  }
  const body = jsonOf(route.schema?.body);
  return body ? { url, payload: fillValue(body, '', 'body', pick, { pool, url: route.url }) } : { url };
}

/** Every slot of a route, in order: what a probe varies. */
export function slotsOf(route: RouteRecord, pool: Pool): Slot[] {
  const seen: Slot[] = [];
  fillRoute(route, pool, (slot) => {
    seen.push(slot);
    return slot.many ? [] : slot.format === 'uuid' ? randomUUID() : 'x';
  });
  return seen;
}

/** A value that exists nowhere, of the slot's shape (`count` values for a list): the twin a victim value is compared with. */
export function nowhere(slot: Slot, count = 1): string | string[] {
  const one = () => {
    if (slot.format === 'uuid') return randomUUID();
    const kind = 'kind' in slot.kind ? slot.kind.kind : '';
    if (kind === 'emails') return `nobody-${randomBytes(4).toString('hex')}@nowhere.test`;
    if (kind === 'sub_domains') return `nowhere-${randomBytes(4).toString('hex')}`;
    if ('literal' in slot.kind) return slot.kind.literal;
    return randomBytes(24).toString('base64url');
  };
  return slot.many ? Array.from({ length: Math.max(1, count) }, one) : one();
}

/**
 * The twin of a request: every victim value swapped for one that exists nowhere, the same value for
 * the same value (a rule such as "the escalation user is not a reviewer" then answers alike).
 */
export function twinOf(pick: Pick, keep: (s: Slot) => boolean = () => false): Pick {
  const memo = new Map<string, string>();
  const swap = (s: Slot, v: string) => {
    if ('literal' in s.kind || keep(s)) return v;
    let other = memo.get(v);
    if (!other) {
      other = String(nowhere({ ...s, many: false }));
      memo.set(v, other);
    }
    return other;
  };
  return (s) => {
    const v = pick(s);
    return Array.isArray(v) ? v.map((x) => swap(s, x)) : swap(s, v);
  };
}

/** Whether a path parameter's own schema accepts a value (else the probe never gets past validation). */
export function paramAccepts(route: RouteRecord, name: string, value: string, others: Record<string, string>): boolean {
  const schema = zodOf(route.schema?.params);
  if (!schema) return true;
  const result = schema.safeParse({ ...others, [name]: value });
  return result.success || !result.error.issues.some((i) => i.path[0] === name);
}

/** How each path parameter of a route is covered: its classification and the candidates its schema accepts. */
export function coverage(route: RouteRecord, pool: Pool) {
  const slots = pathSlots(route, pool);
  const base = Object.fromEntries(slots.map((s) => [s.name, candidates(s.kind, pool)[0] ?? '']));
  return slots.map((s) => {
    const values = candidates(s.kind, pool);
    return {
      name: s.name,
      how: 'literal' in s.kind ? 'literal' : 'kind' in s.kind ? `kind ${s.kind.kind}` : 'fallback',
      tried: values.length,
      accepted: values.filter((v) => paramAccepts(route, s.name, v, base)).length,
    };
  });
}
