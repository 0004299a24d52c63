import { defineApi } from '../api/contract.js';
import { idParams, okResponse } from '../api/shared.js';
import { notificationListResponse, notificationSchema, notificationUpdateBody } from './schemas.js';

const session = { session: true } as const;
/** Each user's own notifications: a guest hears about its reports like anyone else. */
const guests = 'personal' as const;

/** The signed-in user's in-app notifications (spec 000 §7); each user sees only their own. */
export const notificationsApi = defineApi('notifications', {
  list: {
    method: 'GET',
    path: '/api/v1/notifications',
    access: session,
    summary: 'My notifications',
    response: notificationListResponse,
    guests,
  },
  update: {
    method: 'PATCH',
    path: '/api/v1/notifications/:id',
    access: session,
    summary: 'Mark one of my notifications read or unread',
    params: idParams,
    body: notificationUpdateBody,
    response: notificationSchema,
    guests,
  },
  markAllRead: {
    method: 'POST',
    path: '/api/v1/notifications/mark_all_read',
    access: session,
    summary: 'Mark all my notifications read',
    response: okResponse,
    guests,
  },
});
