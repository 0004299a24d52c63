import type { Server as HttpServer } from 'node:http';
import { PUSH_REQUESTS, type PushEvent, type PushRequest } from '@bulwark/domain';
import { createAdapter } from '@socket.io/redis-adapter';
import { Redis } from 'ioredis';
import { Server } from 'socket.io';
import type { Principal } from '../auth/principal.js';
import type { TokenSigner } from '../auth/tokens.js';
import { inTenant, type Db } from '../db/db.js';
import { loadPrincipal, unusableReason } from '../auth/principal.js';
import { resolveTenant } from '../http/tenancy.js';

export type PushRequestHandlers = Record<PushRequest, (principal: Principal) => Promise<unknown>>;

export type Push = {
  toOrganization: (organizationId: string, event: PushEvent) => void;
  toUser: (userId: string, event: PushEvent) => void;
  attach: (server: HttpServer, handlers: PushRequestHandlers) => void;
  close: () => Promise<void>;
};

const orgRoom = (id: string) => `org:${id}`;
const userRoom = (id: string) => `user:${id}`;

/**
 * Socket.IO, authenticated at the handshake with the access token and the tenant label, exactly like a
 * request. Events are emitted after the commit of the change they announce. With a Redis URL, events
 * reach clients connected to any app node.
 */
export function createPush(deps: { db: Db; tokens: TokenSigner; redisUrl: string | null; log: (msg: string) => void }): Push {
  let io: Server | null = null;
  const redisClients: Redis[] = [];

  return {
    toOrganization(organizationId, event) {
      io?.to(orgRoom(organizationId)).emit(event.channel, event);
    },
    toUser(userId, event) {
      io?.to(userRoom(userId)).emit(event.channel, event);
    },
    attach(server, handlers) {
      io = new Server(server, { path: '/socket.io', serveClient: false, cors: { origin: false } });
      if (deps.redisUrl) {
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
          const tenant = claims ? await resolveTenant(deps.db, label) : null;
          if (!claims || !tenant || tenant.removed || tenant.id !== claims.org) return next(new Error('unauthorized'));
          const principal = await inTenant(deps.db, tenant.id, (tx) => loadPrincipal(tx, claims.sub, claims.sid));
          if (!principal || unusableReason(principal)) return next(new Error('unauthorized'));
          socket.data = { organizationId: tenant.id, userId: principal.userId, sessionId: principal.sessionId };
          await socket.join([orgRoom(tenant.id), userRoom(principal.userId)]);
          next();
        } catch (err) {
          next(err instanceof Error ? err : new Error('unauthorized'));
        }
      });
      io.on('connection', (socket) => {
        const { organizationId, userId, sessionId } = socket.data as { organizationId: string; userId: string; sessionId: string };
        for (const name of Object.keys(PUSH_REQUESTS) as PushRequest[]) {
          socket.on(name, async (...args: unknown[]) => {
            const ack = args.find((a): a is (r: unknown) => void => typeof a === 'function');
            if (!ack) return;
            try {
              // Rights and status are read afresh: a role change applies to the very next request.
              const principal = await inTenant(deps.db, organizationId, (tx) => loadPrincipal(tx, userId, sessionId));
              if (!principal || unusableReason(principal)) {
                ack({ error: 'unauthorized' });
                socket.disconnect(true);
                return;
              }
              ack({ data: await handlers[name](principal) });
            } catch {
              ack({ error: 'internal' });
            }
          });
        }
      });
    },
    async close() {
      await new Promise<void>((resolve) => (io ? io.close(() => resolve()) : resolve()));
      // QUIT waits behind the commands queued while Redis is away, that is forever: such a client is dropped.
      await Promise.allSettled(redisClients.map((c) => (c.status === 'ready' ? c.quit() : c.disconnect())));
    },
  };
}
