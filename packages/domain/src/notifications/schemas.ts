import { z } from 'zod';

/** One in-app notification of the signed-in user. */
export const notificationSchema = z.object({
  id: z.string(),
  title: z.string(),
  body: z.string(),
  link: z.string().nullable(),
  is_read: z.boolean(),
  created_at: z.string(),
});
export type NotificationItem = z.infer<typeof notificationSchema>;

/** The latest notifications and how many are unread (also the push request get_all_unread_notifications). */
export const notificationListResponse = z.object({ notifications: z.array(notificationSchema), unread: z.number() });
export type NotificationList = z.infer<typeof notificationListResponse>;

export const notificationUpdateBody = z.object({ is_read: z.boolean() });
export type NotificationUpdateBody = z.infer<typeof notificationUpdateBody>;
