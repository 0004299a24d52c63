import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import { z } from 'zod';

/**
 * Hostile inputs derived from a route's zod schema, so a module added later is attacked without being
 * named. The zod schema is read as JSON Schema (`z.toJSONSchema`, input side) to find the fields and
 * their kinds; whether a generated input is valid is then always decided by the zod schema itself
 * (`safeParse`), never guessed: the suites expect a refusal exactly when zod refuses.
 */

type Js = z.core.JSONSchema.JSONSchema;
export type Path = (string | number)[];
export type Kind = 'string' | 'number' | 'integer' | 'boolean' | 'array' | 'object' | 'any';
export type Field = { path: Path; schema: Js; kind: Kind; required: boolean; free: boolean };

export function isZod(value: unknown): value is z.ZodType {
  return value instanceof z.ZodType;
}

export function jsonSchemaOf(schema: z.ZodType): Js {
  return z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any', cycles: 'ref', reused: 'inline' });
}

/** Texts that are valid characters but hostile meaning: a free-text field must store them verbatim or refuse them. */
export const HOSTILE_TEXT = {
  sqlOr: "' OR 1=1 --",
  sqlDrop: "'; drop table observations; --",
  sqlUnion: "x' union select password_hash from users --",
  sqlComment: 'a/**/OR/**/1=1;--',
  script: '<script>alert(1)</script>',
  imgOnError: '"><img src=x onerror=alert(1)>',
  traversal: '../../etc/passwd',
  traversalWindows: '..\\..\\windows\\win.ini',
  rtlOverride: 'invoice\u202Egnp.exe',
  zeroWidth: 'a\u200Bb\u200Cc\u200Dd\u2060e\uFEFF',
  emoji: 'Hard hat 👷🏽‍♀️ fire 🔥 flag 🇹🇷',
  combining: 'Z\u0351\u0363\u036A\u0352a\u0300\u0301\u0302lgo e\u0301',
  nul: 'before\u0000after',
  loneHigh: 'half \uD83D pair',
  loneLow: 'half \uDE00 pair',
  crlf: 'line\r\nSet-Cookie: hacked=1',
  template: '{{7*7}} ${7*7} %s%n%x',
  json: '{"__proto__":{"polluted":true}}',
} as const;
export type HostileTextName = keyof typeof HOSTILE_TEXT;

/** Texts PostgreSQL or UTF-8 cannot keep byte for byte: the server must refuse them, naming the field. */
export const UNSTORABLE: readonly HostileTextName[] = ['nul', 'loneHigh', 'loneLow'];

/** Just under the 1 MiB body limit, so it reaches validation; and just over it. */
export const HUGE = 1_000_000;
export const OVER_LIMIT = 1_100_000;

/**
 * Values a query string or path segment carries (always text): numbers at their edges. Half surrogate
 * pairs cannot travel in a URL at all; their bytes are sent as `BAD_ENCODINGS` instead.
 */
export const HOSTILE_URL_TEXT = [
  ...Object.entries(HOSTILE_TEXT)
    .filter(([name]) => name !== 'loneHigh' && name !== 'loneLow')
    .map(([, text]) => text),
  'NaN',
  'Infinity',
  '-1',
  '0',
  '1e308',
  '9007199254740993',
  '-9007199254740993',
  '1.5',
  '0x10',
  '',
  ' ',
  'not-a-uuid',
  '00000000-0000-0000-0000-00000000000g',
  'true',
  'null',
  'undefined',
  '[]',
  '{}',
  'x'.repeat(5_000),
] as const;

/** Fields a client may fill with any text: strings without enum, format or pattern. */
function isFreeText(js: Js): boolean {
  return js.type === 'string' && js.enum === undefined && js.format === undefined && js.pattern === undefined;
}

export function resolve(js: Js, root: Js): Js {
  let current = js;
  for (let i = 0; i < 10 && current.$ref; i++) {
    const ref = current.$ref;
    const next: Js | undefined = ref === '#' ? root : ref.startsWith('#/$defs/') ? root.$defs?.[ref.slice(8)] : undefined;
    if (!next) return {};
    current = next;
  }
  return current;
}

function branches(js: Js): Js[] {
  return js.anyOf ?? js.oneOf ?? [js];
}

function nonNull(js: Js, root: Js): Js {
  const options = branches(resolve(js, root))
    .map((b) => resolve(b, root))
    .filter((b) => b.type !== 'null');
  return options[0] ?? {};
}

export function kindOf(js: Js, root: Js): Kind {
  const main = nonNull(js, root);
  const type = Array.isArray(main.type) ? main.type.find((t) => t !== 'null') : main.type;
  if (type === 'string' || type === 'number' || type === 'integer' || type === 'boolean' || type === 'array' || type === 'object')
    return type;
  if (main.enum?.length) {
    const first = main.enum[0];
    return typeof first === 'number' ? 'number' : typeof first === 'boolean' ? 'boolean' : 'string';
  }
  if (typeof main.const === 'string') return 'string';
  return 'any';
}

function child(js: z.core.JSONSchema._JSONSchema | z.core.JSONSchema._JSONSchema[] | undefined): Js {
  return js === undefined || typeof js === 'boolean' || Array.isArray(js) ? {} : js;
}

/** Every field of an object schema, and the fields of objects in its arrays (path with index 0), three levels deep. */
export function fieldsOf(js: Js, root: Js = js, path: Path = [], depth = 0): Field[] {
  const main = nonNull(js, root);
  if (depth > 3) return [];
  if (main.properties) {
    const required = new Set(main.required ?? []);
    return Object.entries(main.properties).flatMap(([name, sub]) => {
      const schema = resolve(child(sub), root);
      const here: Field = {
        path: [...path, name],
        schema,
        kind: kindOf(schema, root),
        required: required.has(name),
        free: isFreeText(nonNull(schema, root)),
      };
      return [here, ...fieldsOf(schema, root, here.path, depth + 1)];
    });
  }
  if (main.type === 'array') {
    const item = resolve(child(main.items), root);
    const kind = kindOf(item, root);
    const here: Field = {
      path: [...path, 0],
      schema: item,
      kind,
      required: (main.minItems ?? 0) > 0,
      free: isFreeText(nonNull(item, root)),
    };
    return kind === 'object' ? fieldsOf(item, root, here.path, depth + 1) : [here];
  }
  return [];
}

export function pathKey(path: Path): string {
  return path.join('.');
}

export function getAt(value: unknown, path: Path): unknown {
  let current = value;
  for (const key of path) {
    if (current === null || typeof current !== 'object') return undefined;
    current = (current as Record<string | number, unknown>)[key];
  }
  return current;
}

/**
 * A copy of `value` with `path` set (or removed with `remove`); missing containers on the way are made
 * (an array for a number key). The copy is a JSON round trip, as a body travels.
 */
export function setAt(value: unknown, path: Path, next: unknown, remove = false): unknown {
  if (path.length === 0) return next;
  const copy: unknown = value === undefined ? (typeof path[0] === 'number' ? [] : {}) : structuredClone(value);
  let current = copy as Record<string | number, unknown>;
  for (let i = 0; i < path.length - 1; i++) {
    const key = path[i]!;
    const existing = current[key];
    if (existing === null || typeof existing !== 'object') current[key] = typeof path[i + 1] === 'number' ? [] : {};
    current = current[key] as Record<string | number, unknown>;
  }
  const last = path[path.length - 1]!;
  if (remove) {
    if (Array.isArray(current) && typeof last === 'number') current.splice(last, 1);
    else delete current[last];
  } else {
    current[last] = next;
  }
  return copy;
}

/** Dates a schema may want, all safely in the past or the future in every time zone. */
function dateTexts(): string[] {
  const day = 86_400_000;
  const past = new Date(Date.now() - 2 * day);
  const future = new Date(Date.now() + 3 * day);
  const local = (d: Date) => d.toISOString().slice(0, 16);
  return [local(past), future.toISOString().slice(0, 10), past.toISOString().slice(0, 10), past.toISOString(), '10:00'];
}

const TEXT_CANDIDATES = [
  'Sample text',
  'Sample',
  ...dateTexts(),
  'sample@example.com',
  'Europe/London',
  '+44 20 7946 0958',
  '020 7946 0958',
  'E16 2QU',
  'GB',
  'A1',
  'AB-12',
  '123456',
  'abc',
  'https://example.com',
  '#336699',
];

export type IdFor = (path: Path) => string | undefined;

/** Values worth trying for one field, the most likely valid first. */
export function candidatesFor(js: Js, root: Js, path: Path, idFor: IdFor): unknown[] {
  const resolved = resolve(js, root);
  const options = branches(resolved).map((b) => resolve(b, root));
  const out: unknown[] = [];
  for (const o of options) {
    if (o.type === 'null') continue;
    if (o.enum) out.push(...o.enum.filter((v) => v !== null));
    else if (o.const !== undefined) out.push(o.const);
    else if (o.type === 'string') out.push(...stringCandidates(o, path, idFor));
    else if (o.type === 'integer' || o.type === 'number') out.push(...numberCandidates(o));
    else if (o.type === 'boolean') out.push(false, true);
    else if (o.type === 'array') {
      const item = resolve(child(o.items), root);
      const min = o.minItems ?? 0;
      const first = candidatesFor(item, root, [...path, 0], idFor)[0];
      out.push(min === 0 ? [] : Array.from({ length: min }, () => first));
      if (min === 0 && first !== undefined) out.push([first]);
    } else if (o.type === 'object' || o.properties) out.push(sampleObject(o, root, path, idFor));
    else out.push('Sample text', 1, true);
  }
  if (options.some((o) => o.type === 'null')) out.push(null);
  return out;
}

function stringCandidates(o: Js, path: Path, idFor: IdFor): string[] {
  if (o.format === 'uuid') return [idFor(path), randomUUID()].filter((v): v is string => v !== undefined);
  if (o.format === 'email') return ['sample@example.com'];
  if (o.format === 'date') return dateTexts().filter((d) => /^\d{4}-\d\d-\d\d$/.test(d));
  if (o.format === 'date-time') return [new Date(Date.now() - 2 * 86_400_000).toISOString()];
  const min = o.minLength ?? 0;
  const max = o.maxLength ?? Infinity;
  const pattern = o.pattern ? new RegExp(o.pattern, 'u') : null;
  const fits = TEXT_CANDIDATES.filter((c) => c.length >= min && c.length <= max && (!pattern || pattern.test(c)));
  return fits.length ? fits : ['x'.repeat(Math.max(min, 1))];
}

function numberCandidates(o: Js): number[] {
  const low = o.minimum ?? (typeof o.exclusiveMinimum === 'number' ? o.exclusiveMinimum + 1 : undefined);
  const high = o.maximum ?? (typeof o.exclusiveMaximum === 'number' ? o.exclusiveMaximum - 1 : undefined);
  return [...new Set([low ?? 1, 1, 0, 10, 2026, high ?? 100])].filter(
    (n) => (low === undefined || n >= low) && (high === undefined || n <= high),
  );
}

function sampleObject(js: Js, root: Js, path: Path, idFor: IdFor, all = false): Record<string, unknown> {
  const main = nonNull(js, root);
  const required = new Set(main.required ?? []);
  const out: Record<string, unknown> = {};
  for (const [name, sub] of Object.entries(main.properties ?? {})) {
    if (!all && !required.has(name)) continue;
    const first = candidatesFor(child(sub), root, [...path, name], idFor)[0];
    if (first !== undefined) out[name] = first;
  }
  return out;
}

/**
 * The smallest input the zod schema accepts: required fields first, each tried through its candidates
 * until zod is content (refinements included); then, if needed, with one optional field, then all.
 * Undefined when nothing fits (the route then gets only the invalid-input attacks).
 */
export function validSample(schema: z.ZodType, idFor: IdFor): unknown {
  const root = jsonSchemaOf(schema);
  if (kindOf(root, root) !== 'object') return undefined;
  const fields = new Map(fieldsOf(root).map((f) => [pathKey(f.path), f]));
  const required = sampleObject(root, root, [], idFor);
  // A schema may want at least one optional field ("nothing to change"): then each is tried alone, then all.
  const optional = Object.keys(nonNull(root, root).properties ?? {}).filter((name) => !(name in required));
  const starts: unknown[] = [
    required,
    ...optional.map((name) => setAt(required, [name], getAt(sampleObject(root, root, [], idFor, true), [name]))),
    sampleObject(root, root, [], idFor, true),
  ];
  for (const start of starts) {
    let value: unknown = start;
    const tried = new Map<string, number>();
    for (let step = 0; step < 80; step++) {
      const result = schema.safeParse(value);
      if (result.success) return value;
      const issue = result.error.issues[0]!;
      let field: Field | undefined;
      for (let n = issue.path.length; n > 0 && !field; n--)
        field = fields.get(pathKey(issue.path.slice(0, n).map((p) => (typeof p === 'symbol' ? String(p) : p))));
      if (!field) break;
      const key = pathKey(field.path);
      const candidates = candidatesFor(field.schema, root, field.path, idFor);
      const index = getAt(value, field.path) === undefined ? 0 : (tried.get(key) ?? 0) + 1;
      if (index >= candidates.length) break;
      tried.set(key, index);
      value = setAt(value, field.path, candidates[index]);
    }
  }
  return undefined;
}

/**
 * One attack on a structured input: the input to send, the field it aims at, and a label for the report.
 * `raw` is sent as the body text instead of `value` (then `value` is what that text parses to), and
 * `parser` marks a text the JSON parser itself must refuse before any schema sees it.
 */
export type Attack = { label: string; path: Path | null; value: unknown; raw?: string; parser?: true; encoded?: string };

function nested(depth: number): unknown {
  let value: unknown = 'deep';
  for (let i = 0; i < depth; i++) value = { a: value };
  return value;
}

function wrongTypes(kind: Kind): unknown[] {
  switch (kind) {
    case 'string':
      return [12345, true, { text: 'x' }, ['x']];
    case 'number':
    case 'integer':
      return ['NaN', 'abc', '1e308', true, [1], 1e308, -1, 2 ** 53 + 1, -(2 ** 53 + 1), 1.5, -0.0001];
    case 'boolean':
      return ['yes', 1, 'true', [true]];
    case 'array':
      return [{ 0: 'x' }, 'x', 1];
    case 'object':
      return [['x'], [{}], 'x', 1];
    default:
      return [];
  }
}

/**
 * Every attack on an object schema (body): a missing required field, wrong types, huge strings, hostile
 * and unstorable texts, numbers at their edges, arrays for objects, deep nesting, prototype keys.
 * `base` is the valid sample when there is one (so the attacked field is the only wrong one), else {}.
 */
export function bodyAttacks(schema: z.ZodType, base: unknown): Attack[] {
  const root = jsonSchemaOf(schema);
  const start = base ?? {};
  const fields = fieldsOf(root);
  const attacks: Attack[] = [
    { label: 'array for the object', path: [], value: [start] },
    { label: 'text for the object', path: [], value: 'hello' },
    { label: 'null for the object', path: [], value: null },
    { label: '1000 objects deep for the object', path: [], value: nested(1_000) },
    {
      label: 'prototype key __proto__',
      path: null,
      value: start,
      parser: true,
      raw: protoJson(start, '"__proto__":{"polluted":"yes","is_admin":true}'),
    },
    {
      label: 'prototype key constructor',
      path: null,
      value: start,
      parser: true,
      raw: protoJson(start, '"constructor":{"prototype":{"polluted":"yes"}}'),
    },
    { label: 'broken JSON', path: null, value: start, parser: true, raw: '{"a":' },
    // Too deep to build as a value here (the stack would not hold it): a small array stands for it.
    { label: 'arrays nested 400000 deep', path: [], value: [[[]]], raw: `${'['.repeat(400_000)}${']'.repeat(400_000)}` },
  ];
  for (const f of fields) {
    const label = pathKey(f.path);
    if (f.required && f.path.every((p) => typeof p === 'string' || getAt(start, f.path.slice(0, f.path.indexOf(p) + 1)) !== undefined)) {
      attacks.push({ label: `missing ${label}`, path: f.path, value: setAt(start, f.path, undefined, true) });
    }
    for (const wrong of wrongTypes(f.kind))
      attacks.push({ label: `${label} = ${JSON.stringify(wrong)}`, path: f.path, value: setAt(start, f.path, wrong) });
    if (f.kind === 'number' || f.kind === 'integer') {
      // Numbers JSON can say but JavaScript cannot keep: 2^53+1 arrives as 2^53, 1e400 as Infinity.
      for (const [text, parsed] of [
        ['9007199254740993', 2 ** 53],
        ['1e400', Infinity],
        ['-1e400', -Infinity],
      ] as const) {
        const marker = '"__number__"';
        attacks.push({
          label: `${label} = ${text}`,
          path: f.path,
          value: setAt(start, f.path, parsed),
          raw: JSON.stringify(setAt(start, f.path, '__number__')).replace(marker, text),
        });
      }
    }
    if (f.kind === 'array' || f.kind === 'object' || f.kind === 'string') {
      attacks.push({ label: `${label} nested 1000 deep`, path: f.path, value: setAt(start, f.path, nested(1_000)) });
    }
    if (f.kind === 'string' || f.kind === 'any') {
      attacks.push({ label: `${label} of 1 MB`, path: f.path, value: setAt(start, f.path, 'A'.repeat(HUGE)) });
      attacks.push({ label: `${label} over the body limit`, path: f.path, value: setAt(start, f.path, 'A'.repeat(OVER_LIMIT)) });
      for (const [name, text] of Object.entries(HOSTILE_TEXT))
        attacks.push({ label: `${label} = ${name}`, path: f.path, value: setAt(start, f.path, text) });
    }
    if (f.kind === 'array') {
      attacks.push({
        label: `${label} with 100000 items`,
        path: f.path,
        value: setAt(
          start,
          f.path,
          Array.from({ length: 100_000 }, () => 'x'),
        ),
      });
    }
  }
  return attacks;
}

function protoJson(start: unknown, member: string): string {
  const inner = JSON.stringify(start ?? {});
  return inner === '{}' ? `{${member}}` : `{${member},${inner.slice(1)}`;
}

/** Attacks on a query string or path parameters: every field gets every hostile text (values are text there). */
export function urlAttacks(schema: z.ZodType, base: Record<string, string>): Attack[] {
  const root = jsonSchemaOf(schema);
  const attacks: Attack[] = [];
  for (const f of fieldsOf(root).filter((x) => x.path.length === 1)) {
    const name = String(f.path[0]);
    if (f.required) attacks.push({ label: `missing ${name}`, path: f.path, value: omit(base, name) });
    for (const text of HOSTILE_URL_TEXT)
      attacks.push({ label: `${name} = ${JSON.stringify(text.slice(0, 40))}`, path: f.path, value: { ...base, [name]: text } });
    attacks.push({ label: `${name} repeated`, path: f.path, value: { ...base, [name]: ['1', '2'] } });
    for (const bad of BAD_ENCODINGS)
      attacks.push({ label: `${name} sent as ${bad}`, path: f.path, value: { ...base, [name]: bad }, encoded: name });
  }
  return attacks;
}

/** Percent-encodings that decode to no text: half a surrogate pair, a truncated sequence, a bad escape. */
export const BAD_ENCODINGS = ['%ED%A0%80', '%ED%B8%80', '%C3', '%FF%FE', '%ZZ', '%', 'a%00b'];

function omit(record: Record<string, string>, name: string): Record<string, string> {
  return Object.fromEntries(Object.entries(record).filter(([k]) => k !== name));
}

/** One attack out of a list, as a fast-check arbitrary: the seed decides which, and shrinking walks back to the first. */
export function oneOf(attacks: Attack[]): fc.Arbitrary<Attack> {
  return fc.integer({ min: 0, max: Math.max(attacks.length - 1, 0) }).map((i) => attacks[i]!);
}

/** A valid input with one free-text field set to one hostile text, for the "stored verbatim" property. */
export function hostileTextArb(fields: Field[]): fc.Arbitrary<{ field: Field; name: HostileTextName; text: string }> {
  const names = Object.keys(HOSTILE_TEXT) as HostileTextName[];
  return fc
    .record({ field: fc.constantFrom(...fields), name: fc.constantFrom(...names) })
    .map(({ field, name }) => ({ field, name, text: HOSTILE_TEXT[name] }));
}

/** Percent-encodes text for a URL; a lone surrogate (which encodeURIComponent refuses) becomes the bytes of invalid UTF-8. */
export function urlEncode(text: string): string {
  let out = '';
  for (const ch of text) {
    const code = ch.codePointAt(0)!;
    out +=
      code >= 0xd800 && code <= 0xdfff
        ? `%ED%${(0xa0 + ((code >> 6) & 0x1f)).toString(16).toUpperCase()}%${(0x80 + (code & 0x3f)).toString(16).toUpperCase()}`
        : encodeURIComponent(ch);
  }
  return out;
}
