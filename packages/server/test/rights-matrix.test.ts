import { randomUUID } from 'node:crypto';
import { can, localDateTimeIn } from '@bulwark/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RouteRecord } from '../src/platform/http/access.js';
import { signInActors, type Actor, type ActorKind } from './attack/actors.js';
import { call, createOrg, createTestApp, nextIp, type TestApp } from './helpers.js';
import { createSite } from './safety-interactions-support.js';

/**
 * Spec 000 §5/§6: every API route answers each kind of caller exactly as its declared access says.
 * Routes come from `app.registeredRoutes` and readers from the domain's SUBJECTS, so a module or a subject
 * added later is in the matrix without being named here. The third leg of "deny by default", a route
 * that declares no access cannot be registered, is proven in routes.test.ts.
 */

type Outcome = 'passes' | 'refused: forbidden' | 'refused: unauthorized' | 'refused: tenant_mismatch';
type Answer = { status: number; code?: string };
type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
type Check = { route: RouteRecord; actor: Actor; got: Answer; stranger?: Answer };

const WITH_BODY = new Set(['POST', 'PUT', 'PATCH']);
const KINDS: ActorKind[] = ['admin', 'reader', 'none', 'guest', 'platform', 'platform-elsewhere', 'signed-out'];
const key = (r: RouteRecord) => `${r.method} ${r.url}`;

let t: TestApp;
let org: Awaited<ReturnType<typeof createOrg>>;
let actors: Actor[];
let routes: RouteRecord[];
let checks: Check[];

/** How the guard says no to this actor: no session, a session of another tenant, or no right. */
function refusal(a: Actor): Outcome {
  if (a.kind === 'signed-out') return 'refused: unauthorized';
  if (a.kind === 'platform-elsewhere') return 'refused: tenant_mismatch';
  return 'refused: forbidden';
}

const writesObservations = (a: Actor) => can(a.access, 'Observation', 'create') || can(a.access, 'Observation', 'update');
const anyOf =
  (...rights: Array<[Parameters<typeof can>[1], Parameters<typeof can>[2]]>) =>
  (a: Actor) =>
    rights.some(([subject, action]) => can(a.access, subject, action));
/** Lists of staff need a real right: User read or the read of a module that picks from them. */
const PEOPLE_LIST = 'a list of staff (names, e-mails, employee ids, roles) needs User read or a right of a module that picks from it';
const moduleReaders = anyOf(['User', 'read'], ['Permit', 'read'], ['Incident', 'read'], ['Audit', 'read']);

/**
 * Routes that need one of several rights, which a route cannot declare: they declare `session` and the
 * handler refuses the rest before anything else. The matrix holds them to the stricter rule, so the
 * handler's check is tested with every actor too. Rules that depend on the record are tested below.
 */
const STRICTER: Record<string, { why: string; passes: (a: Actor) => boolean }> = {
  'POST /api/observations/attachments': {
    why: 'uploading is for whoever may write an observation (create or update); the handler refuses everyone else before reading the file',
    passes: writesObservations,
  },
  'PATCH /api/safety_interactions/:id': {
    why: 'its observer holding Observation create, or anyone holding Observation update, may change it; the handler refuses the rest before reading the record',
    passes: writesObservations,
  },
  'GET /api/users/all_active_users': {
    why: `${PEOPLE_LIST}: whoever assigns or reads actions, or reads a record actions are raised from`,
    passes: anyOf(
      ['User', 'read'],
      ['Action', 'read'],
      ['Action', 'create'],
      ['Observation', 'read'],
      ['Incident', 'read'],
      ['Audit', 'read'],
    ),
  },
  'GET /api/users/users_with_si_trained': {
    why: `${PEOPLE_LIST}: safety interactions are written under the Observation rights`,
    passes: anyOf(['User', 'read'], ['Observation', 'read'], ['Observation', 'create']),
  },
  'GET /api/users/module_based_users': { why: `${PEOPLE_LIST}: the readers of users, permits, incidents, audits`, passes: moduleReaders },
  'GET /api/site_based_module_based_users/:site_id': { why: `${PEOPLE_LIST}: the same groups at one site`, passes: moduleReaders },
  'GET /api/site_based_module_based_users': { why: `${PEOPLE_LIST}: the same groups at several sites`, passes: moduleReaders },
  'GET /api/individual_module_site_based_all_users': {
    why: `${PEOPLE_LIST}: the readers of the asked module; without a valid module, the reader of any licensed module`,
    passes: anyOf(
      ['User', 'read'],
      ['Observation', 'read'],
      ['Incident', 'read'],
      ['Permit', 'read'],
      ['Audit', 'read'],
      ['HIRA', 'read'],
      ['Library', 'read'],
      ['Action', 'read'],
    ),
  },
};

/** What the declared access and spec 000 §6 say this actor gets at a guarded route. */
function expected(r: RouteRecord, a: Actor): Outcome {
  const access = r.access;
  if (a.kind === 'signed-out' || a.kind === 'platform-elsewhere') return refusal(a);
  let passes: boolean;
  // A guest is a principal of its own kind (DECISIONS): refused every route its contract does not open
  // to guests, whatever its role holds; test/guests-allow-list.test.ts pins that list.
  if (a.kind === 'guest' && !r.guests) return refusal(a);
  // Any member of the request's organisation; the platform admin is a member of its own tenant.
  if ('session' in access) passes = true;
  else if ('platform' in access) passes = a.isPlatformAdmin;
  else if ('admin' in access) passes = a.isAdmin;
  else if ('subject' in access) passes = can(a.access, access.subject, access.action);
  else throw new Error(`${key(r)}: an access the matrix does not know: ${JSON.stringify(access)}`);
  const stricter = STRICTER[key(r)];
  if (stricter) passes &&= stricter.passes(a);
  return passes ? 'passes' : refusal(a);
}

/** The guard's refusals; anything else is the route's own answer (200, 400, 404, 409 ...). */
function outcome(a: Answer): Outcome {
  if (a.status === 403 && a.code === 'forbidden') return 'refused: forbidden';
  if (a.status === 401 && (a.code === 'unauthorized' || a.code === 'tenant_mismatch')) return `refused: ${a.code}`;
  return 'passes';
}

/** Answers that prove nothing about rights: a crash, or a refusal for another reason than the one probed. */
const OFF_TARGET = new Set([
  'csrf_invalid',
  'session_expired',
  'tenant_not_found',
  'account_inactive',
  'organization_inactive',
  'free_trial_expired',
]);

const show = (a: Answer) => `${a.status}${a.code ? ` ${a.code}` : ''}`;

/** "GET /api/x as reader(Observation): expected refused (forbidden), got 200" */
function complaint(c: Check, want: Outcome): string {
  const wanted = want === 'passes' ? 'to pass' : `${want.replace(': ', ' (')})`;
  return `${key(c.route)} as ${c.actor.name}: expected ${wanted}, got ${outcome(c.got) === 'passes' ? show(c.got) : `refused (${show(c.got)})`}`;
}

/** A request that gets past nothing but the guard: random ids for every parameter, an empty body. */
async function send(
  r: RouteRecord,
  a: Actor,
  anonymous = false,
  url = r.url.replace(/:\w+/g, () => randomUUID()),
  payload: unknown = {},
): Promise<Answer> {
  const s = anonymous ? null : a.session();
  const res = await t.app.inject({
    method: r.method as Method,
    url,
    remoteAddress: nextIp(),
    headers: { 'x-tenant': a.tenant, ...(s ? { authorization: `Bearer ${s.token}`, 'x-csrf-token': s.csrf } : {}) },
    ...(WITH_BODY.has(r.method) ? { payload: payload as object } : {}),
  });
  const code = (res.headers['content-type'] ?? '').includes('json') ? (res.json() as { code?: string }).code : undefined;
  return { status: res.statusCode, code };
}

/** What a stranger gets at a public route of a tenant, asked once per route and tenant. */
const strangers = new Map<string, Promise<Answer>>();
function stranger(r: RouteRecord, a: Actor): Promise<Answer> {
  const k = `${key(r)} at ${a.tenant}`;
  if (!strangers.has(k)) strangers.set(k, send(r, a, true));
  return strangers.get(k)!;
}

async function probe(r: RouteRecord, a: Actor): Promise<Check> {
  if ('public' in r.access) return { route: r, actor: a, got: await send(r, a), stranger: await stranger(r, a) };
  let got = await send(r, a);
  // A sign-out route probed earlier ended this actor's session: sign in again and ask once more.
  if (got.code === 'session_expired' && a.kind !== 'signed-out') {
    await a.renew();
    got = await send(r, a);
  }
  return { route: r, actor: a, got };
}

beforeAll(async () => {
  t = await createTestApp();
  org = await createOrg(t, 'matrix');
  actors = await signInActors(t, org);
  routes = t.app.registeredRoutes.filter((r) => !r.url.startsWith('/api/docs') && r.method !== 'HEAD');
  // Sign-out routes end the session that probes them, so deletes go last.
  const ordered = [...routes].sort((x, y) => Number(x.method === 'DELETE') - Number(y.method === 'DELETE'));
  const perActor = await Promise.all(
    actors.map(async (a) => {
      const out: Check[] = [];
      for (const r of ordered) out.push(await probe(r, a));
      return out;
    }),
  );
  checks = perActor.flat();
  console.log(`rights matrix: ${routes.length} routes × ${actors.length} actors = ${checks.length} checks`);
});
afterAll(() => t?.close());

describe('rights matrix (spec 000 §5, §6)', () => {
  it('knows every kind of actor it was given, with a reader for every subject', () => {
    expect([...new Set(actors.map((a) => a.kind))].sort()).toEqual([...KINDS].sort());
    expect(routes.length).toBeGreaterThan(100);
  });

  it.each(KINDS)('%s: every guarded route answers exactly as its declared access says', (kind) => {
    const failures: string[] = [];
    for (const c of checks.filter((x) => x.actor.kind === kind && !('public' in x.route.access))) {
      const want = expected(c.route, c.actor);
      if (c.got.status >= 500 || OFF_TARGET.has(c.got.code ?? ''))
        failures.push(`${key(c.route)} as ${c.actor.name}: the probe proved nothing, got ${show(c.got)}`);
      else if (outcome(c.got) !== want) failures.push(complaint(c, want));
    }
    expect(failures.sort()).toEqual([]);
  });

  it('public routes answer every caller, signed in or not, as they answer a stranger', () => {
    const publics = checks.filter((c) => 'public' in c.route.access);
    expect(publics.length).toBeGreaterThan(0);
    const failures = publics
      .filter((c) => c.got.status >= 500 || c.got.status !== c.stranger!.status || c.got.code !== c.stranger!.code)
      .map((c) => `${key(c.route)} as ${c.actor.name}: expected what a stranger gets (${show(c.stranger!)}), got ${show(c.got)}`);
    expect(failures.sort()).toEqual([]);
  });

  it('pins the routes whose handler asks more than the declaration, with their reasons', () => {
    for (const [route, { why }] of Object.entries(STRICTER)) {
      const r = routes.find((x) => key(x) === route);
      expect(r, `${route} is no longer registered: drop it from STRICTER`).toBeDefined();
      expect(r!.access, `${route} (${why})`).toEqual({ session: true });
    }
  });
});

describe('deny by default', () => {
  const passed = (kind: ActorKind) =>
    checks
      .filter((c) => c.actor.kind === kind && outcome(c.got) === 'passes')
      .map((c) => key(c.route))
      .sort();
  const declared = (test: (r: RouteRecord) => boolean) => routes.filter(test).map(key).sort();

  it('a fresh role with no rights gets through public and session routes only', () => {
    const needsMore = routes.filter((r) => !('public' in r.access) && !('session' in r.access));
    expect(needsMore.length).toBeGreaterThan(50);
    expect(passed('none')).toEqual(declared((r) => ('public' in r.access || 'session' in r.access) && !(key(r) in STRICTER)));
  });

  it("the platform admin at an organisation's address gets through public routes only", () => {
    expect(passed('platform-elsewhere')).toEqual(declared((r) => 'public' in r.access));
  });

  it('nobody signed in gets through public routes only', () => {
    expect(passed('signed-out')).toEqual(declared((r) => 'public' in r.access));
  });

  it('an unknown API path is 404 for everyone, and an unknown method on a known path is refused', async () => {
    const admin = actors.find((a) => a.kind === 'admin')!;
    for (const a of [admin, actors.find((x) => x.kind === 'signed-out')!]) {
      for (const method of ['GET', 'POST', 'DELETE'] as const) {
        const res = await send({ method, url: '/api/v1/nothing-here/:id', access: { public: true } }, a);
        expect(res, `${method} /api/v1/nothing-here as ${a.name}`).toEqual({ status: 404, code: 'not_found' });
      }
    }
    const byPath = new Map<string, Set<string>>();
    for (const r of routes) byPath.set(r.url, (byPath.get(r.url) ?? new Set()).add(r.method));
    let tried = 0;
    for (const [url, methods] of byPath) {
      for (const method of ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const) {
        if (methods.has(method)) continue;
        const res = await send({ method, url, access: { public: true } }, admin);
        tried += 1;
        // Some land on a sibling pattern (GET /api/users/password is GET /api/users/:id): a refusal all the same.
        expect(res.status >= 400 && res.status < 500, `${method} ${url} as admin: ${show(res)}`).toBe(true);
      }
    }
    expect(tried).toBeGreaterThan(100);
  });
});

describe('rights that depend on the record (the declaration is the least a route needs)', () => {
  let observationId: string;
  let interaction: Record<string, unknown>;
  let interactionId: string;

  beforeAll(async () => {
    const admin = actors.find((a) => a.kind === 'admin')!;
    await admin.renew();
    const siteId = await createSite(t, admin.session()!, org.adminId, 'Matrix Works');
    const observedAt = localDateTimeIn('Europe/London', new Date(Date.now() - 3_600_000));
    const obs = await call(t, admin.session(), 'POST', '/api/observations', {
      type: 'unsafe_condition',
      description: 'Oil on the floor by press 2',
      site_id: siteId,
      observed_at: observedAt,
      risk_level: 'low',
      action_required: false,
      comment: 'Seen on the morning walk',
      anonymous: false,
      attachment_ids: [],
      actions: [],
    });
    expect(obs.statusCode, obs.body).toBe(201);
    observationId = (obs.json() as { id: string }).id;
    interaction = {
      site_id: siteId,
      location: 'Bay 4',
      held_at: observedAt,
      duration_minutes: 20,
      participants: [{ name: 'Jon Price (contractor)' }],
      topics: ['ppe'],
      safe_behaviours: [],
      at_risk_behaviours: [],
      recognition_given: false,
      status: 'draft',
    };
    const si = await call(t, admin.session(), 'POST', '/api/safety_interactions', interaction);
    expect(si.statusCode, si.body).toBe(201);
    interactionId = (si.json() as { id: string }).id;
  });

  const members = () => actors.filter((a) => a.kind !== 'signed-out' && a.kind !== 'platform-elsewhere');

  async function verdicts(route: RouteRecord, url: string, payload: unknown, passes: (a: Actor) => boolean) {
    const failures: string[] = [];
    for (const a of members()) {
      let got = await send(route, a, false, url, payload);
      if (got.code === 'session_expired') {
        await a.renew();
        got = await send(route, a, false, url, payload);
      }
      const want: Outcome = passes(a) ? 'passes' : 'refused: forbidden';
      if (got.status >= 500 || outcome(got) !== want) failures.push(complaint({ route, actor: a, got }, want));
    }
    return failures;
  }

  const read = (a: Actor) => can(a.access, 'Observation', 'read');

  it('PATCH /api/observations/:id: editing needs Observation update, closing needs close', async () => {
    const route = routes.find((r) => key(r) === 'PATCH /api/observations/:id')!;
    expect(route.access).toEqual({ subject: 'Observation', action: 'read' });
    const url = `/api/observations/${observationId}`;
    expect([
      ...(await verdicts(
        route,
        url,
        { description: 'Oil and swarf on the floor by press 2' },
        (a) => read(a) && can(a.access, 'Observation', 'update'),
      )),
      ...(await verdicts(
        route,
        url,
        { close: { remarks: 'Cleaned and bunded' } },
        (a) => read(a) && can(a.access, 'Observation', 'close'),
      )),
    ]).toEqual([]);
  });

  it('PATCH /api/safety_interactions/:id: Observation update, or create for its own observer only', async () => {
    const route = routes.find((r) => key(r) === 'PATCH /api/safety_interactions/:id')!;
    // The admin recorded it; the guest holds create but is not its observer.
    const own = (a: Actor) => a.kind === 'admin';
    expect(
      await verdicts(
        route,
        `/api/safety_interactions/${interactionId}`,
        interaction,
        (a) => can(a.access, 'Observation', 'update') || (own(a) && can(a.access, 'Observation', 'create')),
      ),
    ).toEqual([]);
  });
});
