import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useServices } from '../../app/services.js';

export type NotificationItem = { id: string; title: string; body: string; is_read: boolean; created_at: string };
export type NotificationList = { notifications: NotificationItem[]; unread: number };

export const NOTIFICATIONS_KEY = ['notifications'] as const;
const EMPTY: NotificationList = { notifications: [], unread: 0 };

export function useNotificationList() {
  const { http, session } = useServices();
  return useQuery({
    queryKey: NOTIFICATIONS_KEY,
    // 203 (nothing to show) comes back as null.
    queryFn: async () => (await http.get<NotificationList>('/api/v1/notifications')) ?? EMPTY,
    enabled: session.isSignedIn(),
    // Push events invalidate the list; no polling needed.
    staleTime: Infinity,
  });
}

export function useMarkRead() {
  const { http } = useServices();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => http.patch(`/api/v1/notifications/${encodeURIComponent(id)}`, { is_read: true }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: NOTIFICATIONS_KEY }),
  });
}

export function useMarkAllRead() {
  const { http } = useServices();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => http.post('/api/v1/notifications/mark_all_read'),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: NOTIFICATIONS_KEY }),
  });
}
