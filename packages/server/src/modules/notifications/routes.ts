import { notificationsApi as api } from '@bulwark/domain';
import { AppError } from '../../platform/errors.js';
import type { Router } from '../../platform/http/route.js';
import { listNotifications, markAllRead, setRead } from './service.js';

// Other modules create notifications in their own transactions (mailers, registration).
export { createNotification } from './service.js';

/** The signed-in user's own notifications (spec 000 §7). */
export function notificationRoutes(r: Router) {
  const { deps } = r;

  r.route(api.list, ({ tx, principal }) => listNotifications(tx, principal));

  r.route(api.update, async ({ tx, principal: p, params, body, afterCommit }) => {
    const row = await setRead(tx, p.userId, params.id, body.is_read);
    // Another user's notification is "not found", never "forbidden".
    if (!row) throw new AppError('not_found');
    afterCommit(() => deps.push.toUser(p.userId, { channel: 'notification', change: 'updated', id: row.id }));
    return row;
  });

  r.route(api.markAllRead, async ({ tx, principal: p, afterCommit }) => {
    await markAllRead(tx, p.userId);
    afterCommit(() => deps.push.toUser(p.userId, { channel: 'notification', change: 'all' }));
    return { ok: true as const };
  });
}
