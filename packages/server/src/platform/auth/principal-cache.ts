import pg from 'pg';
import { changedNothing } from '../db/db.js';
import type { Tenant } from '../http/tenancy.js';
import { isTrialExpired, sessionOutlived, type Principal } from './principal.js';

/**
 * The channel the triggers of migration 0213 notify on. NOTIFY is our bus for this: PostgreSQL delivers
 * it at commit, and only for committed changes, to every node listening on the database, whichever code
 * (a route, a job, the CLI, psql) made the change, with or without Redis. Socket.IO's serverSideEmit
 * through Redis would reach only nodes that share a Redis, and only for changes whose writer remembers
 * to emit; a trigger cannot forget.
 *
 * Payloads: `o:<organization id>` (the organisation, its roles or their rights), `u:<user id>` (the user
 * or their licences), `s:<session id>` (revoked), `b:<organization id>:<used>:<pending>` (storage figures
 * moved without the quota being crossed: the cached rows are patched, nothing is dropped).
 */
export const PRINCIPALS_CHANNEL = 'bulwark_principals';

const MAX_ENTRIES = 10_000;
/** A safety net only: invalidation is by notification. */
const TTL_MS = 60_000;
const RECENCY_MS = 1_000;
const FENCE_TEXT = "select 'principal-fence'";
const FENCE_TIMEOUT_MS = 2_000;

/** `at`: when the principal was read; `used`: when it last moved to the recent end of the map. */
type Entry = { principal: Principal; at: number; used: number };
type TenantEntry = { tenant: Tenant; at: number };

export type PrincipalCache = {
  /** Connects the listening connection (and keeps reconnecting); nothing is cached until it listens. */
  start: () => Promise<void>;
  close: () => Promise<void>;
  /** Taken before a load: `put` ignores the load if any notification came in meanwhile. */
  generation: () => number;
  /**
   * The session's principal, null when not cached. What requests use: when this node's pools have
   * finished any work since the last fence (a write may have committed), after a fence, so that every
   * change this node committed before the call has been applied here.
   */
  current: (sessionId: string, userId: string) => Promise<Principal | null>;
  /** A usable principal of this session as held now, or null (not cached, expired by time, or not listening). */
  get: (sessionId: string, userId: string, now?: number) => Principal | null;
  put: (principal: Principal, generation: number) => void;
  /** The organisation of an address (after a fence when needed, as `current`); null when not cached. */
  currentTenant: (label: string) => Promise<Tenant | null>;
  tenant: (label: string) => Tenant | null;
  putTenant: (tenant: Tenant, generation: number) => void;
  /**
   * Resolves once every notification of the transactions committed before the call, anywhere, has been
   * applied: a round trip on the listening connection, which PostgreSQL answers only after sending the
   * notifications already due to it (a commit signals its listeners before it is acknowledged). Requests
   * that arrive meanwhile share the next one.
   */
  fence: () => Promise<void>;
  listening: () => boolean;
  size: () => number;
};

/**
 * Principals per session, and tenants per label, of this node; dropped by the triggers' notifications
 * (one dedicated connection LISTENs). When that connection drops, everything is forgotten and nothing
 * is cached until it listens again.
 */
export function createPrincipalCache(options: {
  url: string;
  log: (msg: string) => void;
  /**
   * The node's own pools. Once one of them has released a client (a transaction or a statement has
   * ended, and may have committed a change), the next cached read waits for a fence: a change made on
   * this node (a sign-out, a role change, a job's or a test's SQL) is seen by its very next request here.
   * Other nodes hear it a notification's trip later (well under a millisecond on a local network), and
   * a node that only answers cached reads sends PostgreSQL nothing at all.
   */
  pools?: pg.Pool[];
}): PrincipalCache {
  // Map order is insertion order: a hit is moved to the end (at most once a second), the first key is the least recently used.
  const entries = new Map<string, Entry>();
  const tenants = new Map<string, TenantEntry>();
  let gen = 0;
  let client: pg.Client | null = null;
  let listening = false;
  let closed = false;
  let retryMs = 100;
  let retryTimer: NodeJS.Timeout | null = null;
  let fenceInFlight: Promise<void> | null = null;
  let fenceNext: Promise<void> | null = null;
  // Whether a pool of this node has finished work since the last fence was sent. A transaction known to
  // have changed nothing (db.ts: read-only) cannot have changed a principal: its release needs no fence.
  let dirty = true;
  const markDirty = (_err: unknown, released: pg.PoolClient | undefined) => {
    if (released && changedNothing(released)) return;
    dirty = true;
  };

  function forget() {
    gen += 1;
    entries.clear();
    tenants.clear();
  }

  function apply(payload: string) {
    gen += 1;
    const [kind, id, used, pending] = payload.split(':');
    for (const [key, e] of entries) {
      const p = e.principal;
      if (kind === 'b' && p.organizationId === id) {
        // Storage figures only: the quota was not crossed (that is an `o:`), so nothing a check reads changed.
        const organization = { ...p.organization, storageUsedBytes: Number(used), storagePendingBytes: Number(pending) };
        e.principal = { ...p, organization };
      } else if ((kind === 'o' && p.organizationId === id) || (kind === 'u' && p.userId === id) || (kind === 's' && p.sessionId === id)) {
        entries.delete(key);
      }
    }
    if (kind === 'o') {
      for (const [label, t] of tenants) if (t.tenant.id === id) tenants.delete(label);
    }
  }

  function lost(reason: string) {
    if (!listening && !client) return;
    listening = false;
    forget();
    const c = client;
    client = null;
    c?.removeAllListeners();
    c?.on('error', () => {});
    void c?.end().catch(() => {});
    if (closed) return;
    options.log(`principal cache: listening connection lost (${reason}); caching stops until it is back`);
    scheduleConnect();
  }

  function scheduleConnect() {
    if (closed || retryTimer) return;
    retryTimer = setTimeout(() => {
      retryTimer = null;
      void connect();
    }, retryMs);
    retryTimer.unref();
    retryMs = Math.min(retryMs * 2, 5_000);
  }

  async function connect(): Promise<void> {
    if (closed || client) return;
    const c = new pg.Client({ connectionString: options.url, application_name: 'bulwark-principals' });
    client = c;
    c.on('error', (err) => lost(err.message));
    c.on('end', () => lost('ended'));
    c.on('notification', (n) => {
      if (n.channel === PRINCIPALS_CHANNEL && n.payload) apply(n.payload);
    });
    try {
      await c.connect();
      await c.query(`listen ${PRINCIPALS_CHANNEL}`);
      if (client !== c || closed) return;
      // Loads that started before this point may have missed a change: they are not cached.
      forget();
      listening = true;
      retryMs = 100;
    } catch (err) {
      if (client === c) lost(err instanceof Error ? err.message : String(err));
    }
  }

  function runFence(): Promise<void> {
    const c = client;
    if (!listening || !c) return Promise.resolve();
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<void>((resolve) => {
      timer = setTimeout(() => {
        // A listening connection that does not answer cannot be trusted to deliver either.
        lost('no answer');
        resolve();
      }, FENCE_TIMEOUT_MS);
    });
    dirty = false;
    const answered = c.query(FENCE_TEXT).then(
      () => undefined,
      () => lost('fence failed'),
    );
    return Promise.race([answered, late]).finally(() => clearTimeout(timer));
  }

  const cache: PrincipalCache = {
    async start() {
      closed = false;
      for (const pool of options.pools ?? []) pool.on('release', markDirty);
      await connect();
    },
    async close() {
      closed = true;
      for (const pool of options.pools ?? []) pool.off('release', markDirty);
      if (retryTimer) clearTimeout(retryTimer);
      retryTimer = null;
      listening = false;
      forget();
      const c = client;
      client = null;
      if (c) {
        c.removeAllListeners();
        c.on('error', () => {});
        await c.end().catch(() => {});
      }
    },
    generation: () => gen,
    async current(sessionId, userId) {
      if (!listening || !entries.has(sessionId)) return null;
      if (dirty) await cache.fence();
      return cache.get(sessionId, userId);
    },
    async currentTenant(label) {
      if (!listening || !tenants.has(label)) return null;
      if (dirty) await cache.fence();
      return cache.tenant(label);
    },
    get(sessionId, userId, now = Date.now()) {
      if (!listening) return null;
      const e = entries.get(sessionId);
      if (!e || e.principal.userId !== userId) return null;
      const p = e.principal;
      // Time-based parts are judged at use: a session past its thirty days or a trial that has just
      // ended is read afresh (the load says so), never answered from here.
      const trialNow = !p.isPlatformAdmin && isTrialExpired(p.organization, now);
      if (now - e.at > TTL_MS || trialNow !== p.trialExpired || sessionOutlived(p.sessionStart, now)) {
        entries.delete(sessionId);
        return null;
      }
      // The map's order is its recency (the oldest goes when it is full). Moving an entry on every hit
      // churned the map's table under load (a rehash's worth of garbage every few thousand requests);
      // once a second is recent enough for choosing what to drop.
      if (now - e.used > RECENCY_MS) {
        e.used = now;
        entries.delete(sessionId);
        entries.set(sessionId, e);
      }
      return p;
    },
    put(principal, generation) {
      // API-token principals are not cached (their token's revocation, expiry and rate limit are per request).
      if (!listening || generation !== gen || principal.kind === 'integration') return;
      entries.delete(principal.sessionId);
      const now = Date.now();
      entries.set(principal.sessionId, { principal, at: now, used: now });
      if (entries.size > MAX_ENTRIES) entries.delete(entries.keys().next().value!);
    },
    tenant(label) {
      if (!listening) return null;
      const t = tenants.get(label);
      if (!t) return null;
      if (Date.now() - t.at > TTL_MS) {
        tenants.delete(label);
        return null;
      }
      return t.tenant;
    },
    putTenant(tenant, generation) {
      if (!listening || generation !== gen) return;
      tenants.set(tenant.label, { tenant, at: Date.now() });
      if (tenants.size > MAX_ENTRIES) tenants.delete(tenants.keys().next().value!);
    },
    fence() {
      if (!listening) return Promise.resolve();
      // A fence sent before this call's commit proves nothing for it: join the next one.
      if (!fenceInFlight) {
        fenceInFlight = runFence().finally(() => (fenceInFlight = null));
        return fenceInFlight;
      }
      fenceNext ??= fenceInFlight.then(() => {
        fenceNext = null;
        fenceInFlight = runFence().finally(() => (fenceInFlight = null));
        return fenceInFlight;
      });
      return fenceNext;
    },
    listening: () => listening,
    size: () => entries.size,
  };
  return cache;
}
