import { errorResponse, okResponse } from '@bulwark/domain';
import { and, count, desc, eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Principal } from '../../platform/auth/principal.js';
import { inTenant, type Tx } from '../../platform/db/db.js';
import { notifications } from '../../platform/db/schema.js';
import type { AppDeps } from '../../platform/deps.js';
import { AppError } from '../../platform/errors.js';
import { principalOf } from '../../platform/http/access.js';

const tags = ['Notifications'];
const errors = { 400: errorResponse, 401: errorResponse, 403: errorResponse, 404: errorResponse };

export const notificationSchema = z.object({
  id: z.string(),
  title: z.string(),
  body: z.string(),
  link: z.string().nullable(),
  is_read: z.boolean(),
  created_at: z.string(),
});
const listResponse = z.object({ notifications: z.array(notificationSchema), unread: z.number() });

/** The signed-in user's latest notifications and unread count. */
export async function listNotifications(tx: Tx, p: Principal) {
  const rows = await tx
    .select()
    .from(notifications)
    .where(eq(notifications.userId, p.userId))
    .orderBy(desc(notifications.createdAt))
    .limit(50);
  const [unread] = await tx
    .select({ n: count() })
    .from(notifications)
    .where(and(eq(notifications.userId, p.userId), eq(notifications.isRead, false)));
  return {
    notifications: rows.map((n) => ({
      id: n.id,
      title: n.title,
      body: n.body,
      link: n.link,
      is_read: n.isRead,
      created_at: n.createdAt.toISOString(),
    })),
    unread: Number(unread?.n ?? 0),
  };
}

/** Creates a notification for a user; the caller pushes it after its transaction commits. */
export async function createNotification(tx: Tx, n: { userId: string; title: string; body?: string; link?: string }) {
  const [row] = await tx
    .insert(notifications)
    .values({ userId: n.userId, title: n.title, body: n.body ?? '', link: n.link ?? null })
    .returning({ id: notifications.id });
  return row!.id;
}

export function notificationRoutes(app: FastifyInstance, deps: AppDeps) {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.get(
    '/api/v1/notifications',
    {
      config: { access: { session: true } },
      schema: { tags, summary: 'My notifications', response: { 200: listResponse, ...errors } },
    },
    async (req) => {
      const p = principalOf(req);
      return inTenant(deps.db.app, p.organizationId, (tx) => listNotifications(tx, p));
    },
  );

  r.patch(
    '/api/v1/notifications/:id',
    {
      config: { access: { session: true } },
      schema: {
        tags,
        summary: 'Mark one of my notifications read or unread',
        params: z.object({ id: z.uuid({ message: 'validation.invalid' }) }),
        body: z.object({ is_read: z.boolean() }),
        response: { 200: notificationSchema, ...errors },
      },
    },
    async (req) => {
      const p = principalOf(req);
      const row = await inTenant(deps.db.app, p.organizationId, async (tx) => {
        const [updated] = await tx
          .update(notifications)
          .set({ isRead: req.body.is_read })
          .where(and(eq(notifications.id, req.params.id), eq(notifications.userId, p.userId)))
          .returning();
        return updated;
      });
      // Another user's notification is "not found", never "forbidden".
      if (!row) throw new AppError('not_found');
      deps.push.toUser(p.userId, { channel: 'notification', change: 'updated', id: row.id });
      return { id: row.id, title: row.title, body: row.body, link: row.link, is_read: row.isRead, created_at: row.createdAt.toISOString() };
    },
  );

  r.post(
    '/api/v1/notifications/mark_all_read',
    {
      config: { access: { session: true } },
      schema: { tags, summary: 'Mark all my notifications read', response: { 200: okResponse, ...errors } },
    },
    async (req) => {
      const p = principalOf(req);
      await inTenant(deps.db.app, p.organizationId, (tx) =>
        tx
          .update(notifications)
          .set({ isRead: true })
          .where(and(eq(notifications.userId, p.userId), eq(notifications.isRead, false))),
      );
      deps.push.toUser(p.userId, { channel: 'notification', change: 'all' });
      return { ok: true as const };
    },
  );
}
