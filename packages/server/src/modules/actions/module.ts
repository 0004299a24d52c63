import type { ServerModule } from '../module.js';

/**
 * Actions of every source (spec 001 §2 Actions, §3, §4, §7): the lists, the detail with its history,
 * status changes along ACTION_TRANSITIONS, attachments, notifications, the hourly overdue sweep and
 * the get_actions push request.
 */
export const actionsModule: ServerModule = {
  name: 'actions',
  routes: () => {},
};
