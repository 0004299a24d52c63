import type { Server as HttpServer } from 'node:http';
import { createRequire } from 'node:module';
import { PUSH_REQUESTS, type PushEvent, type PushRequest } from '@bulwark/domain';
import type * as RedisAdapter from '@socket.io/redis-adapter';
import type * as IORedis from 'ioredis';
import type { Redis } from 'ioredis';
import { Server } from 'socket.io';
import type { Principal } from '../auth/principal.js';
import type { TokenSigner } from '../auth/tokens.js';
import { inTenant, type Db } from '../db/db.js';
import { loadPrincipal, unusableReason } from '../auth/principal.js';
import type { PrincipalCache } from '../auth/principal-cache.js';
import { AppError } from '../errors.js';
import { resolveTenant } from '../http/tenancy.js';

export type PushRequestHandlers = Record<PushRequest, (principal: Principal) => Promise<unknown>>;

/** Hears every organisation event this node emits (modules/webhooks); runs after the commit, must not throw. */
export type OrganizationEventListener = (organizationId: string, event: PushEvent) => void;

export type Push = {
  toOrganization: (organizationId: string, event: PushEvent) => void;
  /**
   * The bus hook: a listener hears every `toOrganization` event, on the node that made the change (so
   * each event once, whatever Redis fans out). Modules emit their events after the commit, so a
   * listener sees committed changes only.
   */
  onOrganizationEvent: (listener: OrganizationEventListener) => void;
  toUser: (userId: string, event: PushEvent) => void;
  /**
   * Closes the sockets of ended sessions, on every app node (with Redis, through the adapter): a
   * socket opened before a sign-out must not go on receiving the organisation's events. Call it after
   * the commit that revoked the session(s).
   */
  disconnectSession: (sessionId: string) => void;
  /** Closes every socket of a user: sign-out everywhere, deactivation, password reset. */
  disconnectUser: (userId: string) => void;
  attach: (server: HttpServer, handlers: PushRequestHandlers) => void;
  /** Sockets connected to this node now. */
  connectedSockets: () => number;
  /** Whether Redis answers a PING (within a second); null when this node runs without Redis. */
  redisAnswers: () => Promise<boolean> | null;
  /**
   * Cuts every socket's connection without a goodbye: the client takes it for a lost connection and
   * reconnects, through the load balancer, to a node that is not stopping, then catches up on what it
   * missed (the web's push client). Called while the node drains.
   */
  drain: () => void;
  close: () => Promise<void>;
};

/**
 * What a guest may ask over the socket: about itself and what every screen needs (as the `personal`
 * routes). The plan, the licences and the lists of people are refused, as their routes are.
 */
const GUEST_REQUESTS: ReadonlySet<PushRequest> = new Set<PushRequest>([
  'get_user',
  'get_rules',
  'get_all_unread_notifications',
  'get_tenant_memory_details',
  'get_timezone',
  'get_organization',
  'get_all_modules',
  'get_actions',
]);

const orgRoom = (id: string) => `org:${id}`;
const userRoom = (id: string) => `user:${id}`;
const sessionRoom = (id: string) => `session:${id}`;

// ioredis and its Socket.IO adapter (CommonJS) take a few hundred ms to load: only a node given a
// REDIS_URL loads them, when it attaches.
const require = createRequire(import.meta.url);
const redisModules = () => require('ioredis') as typeof IORedis;
const redisAdapterModule = () => require('@socket.io/redis-adapter') as typeof RedisAdapter;

/**
 * Socket.IO, authenticated at the handshake with the access token and the tenant label, exactly like a
 * request. Events are emitted after the commit of the change they announce. With a Redis URL, events
 * reach clients connected to any app node.
 */
export function createPush(deps: {
  db: Db;
  tokens: TokenSigner;
  /** The node's principal cache (platform/auth/principal-cache.ts); without it each principal is read. */
  principals?: PrincipalCache;
  redisUrl: string | null;
  log: (msg: string) => void;
  /** Told, for every event written to a socket of this node, how long after its sending it went out (s). */
  onDelivered?: (seconds: number) => void;
}): Push {
  let io: Server | null = null;
  const cache = deps.principals;
  /** The session's principal: from the cache, else read in the organisation (and cached when usable). */
  const principalOf = async (organizationId: string, userId: string, sessionId: string): Promise<Principal | null> => {
    const cached = await cache?.current(sessionId, userId);
    if (cached && cached.organizationId === organizationId) return cached;
    const generation = cache?.generation() ?? 0;
    const loaded = await inTenant(deps.db, organizationId, (tx) => loadPrincipal(tx, userId, sessionId));
    if (loaded && !unusableReason(loaded)) cache?.put(loaded, generation);
    return loaded;
  };
  const listeners: OrganizationEventListener[] = [];
  const redisClients: Redis[] = [];

  return {
    // The second argument, when it was sent (ms), lets the node that writes the event to a socket,
    // this one or another through Redis, measure the delivery time; clients ignore it.
    toOrganization(organizationId, event) {
      io?.to(orgRoom(organizationId)).emit(event.channel, event, Date.now());
      for (const listener of listeners) {
        try {
          listener(organizationId, event);
        } catch (err) {
          deps.log(`push listener: ${String(err)}`);
        }
      }
    },
    onOrganizationEvent(listener) {
      listeners.push(listener);
    },
    toUser(userId, event) {
      io?.to(userRoom(userId)).emit(event.channel, event, Date.now());
    },
    disconnectSession(sessionId) {
      io?.in(sessionRoom(sessionId)).disconnectSockets(true);
    },
    disconnectUser(userId) {
      io?.in(userRoom(userId)).disconnectSockets(true);
    },
    attach(server, handlers) {
      io = new Server(server, { path: '/socket.io', serveClient: false, cors: { origin: false } });
      if (deps.redisUrl) {
        const { Redis } = redisModules();
        const { createAdapter } = redisAdapterModule();
        // Redis being away must not stop the app: ioredis keeps reconnecting, and events resume.
        const pub = new Redis(deps.redisUrl, { maxRetriesPerRequest: null, lazyConnect: false });
        const sub = pub.duplicate();
        for (const c of [pub, sub]) c.on('error', (e: Error) => deps.log(`redis: ${e.message}`));
        redisClients.push(pub, sub);
        io.adapter(createAdapter(pub, sub));
      }
      io.use(async (socket, next) => {
        try {
          const auth = socket.handshake.auth as { token?: unknown; tenant?: unknown };
          const token = typeof auth.token === 'string' ? auth.token : '';
          const label = typeof auth.tenant === 'string' ? auth.tenant.toLowerCase() : '';
          const claims = await deps.tokens.verify(token);
          const tenant = claims ? await resolveTenant(deps.db, label, cache) : null;
          if (!claims || !tenant || tenant.removed || tenant.id !== claims.org) return next(new Error('unauthorized'));
          const principal = await principalOf(tenant.id, claims.sub, claims.sid);
          if (!principal || unusableReason(principal)) return next(new Error('unauthorized'));
          socket.data = { organizationId: tenant.id, userId: principal.userId, sessionId: principal.sessionId };
          await socket.join([orgRoom(tenant.id), userRoom(principal.userId), sessionRoom(principal.sessionId)]);
          next();
        } catch (err) {
          next(err instanceof Error ? err : new Error('unauthorized'));
        }
      });
      io.on('connection', (socket) => {
        const { organizationId, userId, sessionId } = socket.data as { organizationId: string; userId: string; sessionId: string };
        const delivered = deps.onDelivered;
        if (delivered) {
          socket.onAnyOutgoing((_event: string, _payload: unknown, sentAt: unknown) => {
            if (typeof sentAt === 'number') delivered((Date.now() - sentAt) / 1000);
          });
        }
        for (const name of Object.keys(PUSH_REQUESTS) as PushRequest[]) {
          socket.on(name, async (...args: unknown[]) => {
            const ack = args.find((a): a is (r: unknown) => void => typeof a === 'function');
            if (!ack) return;
            try {
              // Rights and status as of now: the cache drops a principal on any change to it, on every node.
              const principal = await principalOf(organizationId, userId, sessionId);
              if (!principal || unusableReason(principal)) {
                ack({ error: 'unauthorized' });
                socket.disconnect(true);
                return;
              }
              if (principal.kind === 'guest' && !GUEST_REQUESTS.has(name)) throw new AppError('forbidden');
              ack({ data: await handlers[name](principal) });
            } catch (err) {
              ack({ error: err instanceof AppError ? err.code : 'internal' });
            }
          });
        }
      });
    },
    connectedSockets: () => io?.of('/').sockets.size ?? 0,
    redisAnswers() {
      if (!deps.redisUrl) return null;
      const pub = redisClients[0];
      if (!pub || pub.status !== 'ready') return Promise.resolve(false);
      const late = new Promise<boolean>((resolve) => setTimeout(() => resolve(false), 1_000).unref());
      return Promise.race([
        pub.ping().then(
          (r) => r === 'PONG',
          () => false,
        ),
        late,
      ]);
    },
    drain() {
      for (const socket of io?.of('/').sockets.values() ?? []) socket.conn.close();
    },
    async close() {
      await new Promise<void>((resolve) => (io ? io.close(() => resolve()) : resolve()));
      // QUIT waits behind the commands queued while Redis is away, that is forever: such a client is dropped.
      await Promise.allSettled(redisClients.map((c) => (c.status === 'ready' ? c.quit() : c.disconnect())));
    },
  };
}
