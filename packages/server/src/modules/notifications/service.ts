import type { NotificationItem, NotificationList } from '@bulwark/domain';
import { and, count, desc, eq } from 'drizzle-orm';
import type { Tx } from '../../platform/db/db.js';
import { notifications } from '../../platform/db/schema.js';

function toItem(n: typeof notifications.$inferSelect): NotificationItem {
  return { id: n.id, title: n.title, body: n.body, link: n.link, is_read: n.isRead, created_at: n.createdAt.toISOString() };
}

/** The user's latest notifications and unread count. */
export async function listNotifications(tx: Tx, p: { userId: string }): Promise<NotificationList> {
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
  return { notifications: rows.map(toItem), unread: Number(unread?.n ?? 0) };
}

/** Marks one of the user's notifications read or unread; another user's is not there (null). */
export async function setRead(tx: Tx, userId: string, id: string, isRead: boolean): Promise<NotificationItem | null> {
  const [updated] = await tx
    .update(notifications)
    .set({ isRead })
    .where(and(eq(notifications.id, id), eq(notifications.userId, userId)))
    .returning();
  return updated ? toItem(updated) : null;
}

export async function markAllRead(tx: Tx, userId: string): Promise<void> {
  await tx
    .update(notifications)
    .set({ isRead: true })
    .where(and(eq(notifications.userId, userId), eq(notifications.isRead, false)));
}

/** Creates a notification for a user; the caller pushes it after its transaction commits. */
export async function createNotification(tx: Tx, n: { userId: string; title: string; body?: string; link?: string }) {
  const [row] = await tx
    .insert(notifications)
    .values({ userId: n.userId, title: n.title, body: n.body ?? '', link: n.link ?? null })
    .returning({ id: notifications.id });
  return row!.id;
}
