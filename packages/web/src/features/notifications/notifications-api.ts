import { notificationsApi } from '@bulwark/domain';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useApi } from '../../api/use-api.js';
import { useServices } from '../../app/services.js';

/** Push events on the 'notification' channel invalidate this key. */
export const NOTIFICATIONS_KEY = ['notifications'] as const;

export function useNotificationList() {
  const api = useApi(notificationsApi);
  const { session } = useServices();
  return useQuery({
    queryKey: NOTIFICATIONS_KEY,
    queryFn: () => api.list(),
    enabled: session.isSignedIn(),
    // Push events invalidate the list; no polling needed.
    staleTime: Infinity,
  });
}

export function useMarkRead() {
  const api = useApi(notificationsApi);
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => api.update({ params: { id }, body: { is_read: true } }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: NOTIFICATIONS_KEY }),
  });
}

export function useMarkAllRead() {
  const api = useApi(notificationsApi);
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => api.markAllRead(),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: NOTIFICATIONS_KEY }),
  });
}
