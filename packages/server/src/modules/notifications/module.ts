import { inTenant } from '../../platform/db/db.js';
import type { ServerModule } from '../module.js';
import { notificationRoutes } from './routes.js';
import { listNotifications } from './service.js';

/** In-app notifications (spec 000 §7): the list, read marks, and the unread ones over push. */
export const notificationsModule: ServerModule = {
  name: 'notifications',
  routes: notificationRoutes,
  push: (deps) => ({
    get_all_unread_notifications: (p) => inTenant(deps.db.app, p.organizationId, (tx) => listNotifications(tx, p)),
  }),
};
