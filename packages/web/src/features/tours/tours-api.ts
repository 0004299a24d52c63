import { toursApi, type TourKey, type ToursSeenResponse } from '@bulwark/domain';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback, useRef } from 'react';
import { useApi } from '../../api/use-api.js';
import { useServices } from '../../app/services.js';

/** Push events on the 'tours' channel (a tour seen in another tab) invalidate this key. */
export const TOURS_KEY = ['tours'] as const;

/** The guided tours the signed-in user has seen. */
export function useToursSeen() {
  const api = useApi(toursApi);
  const { session } = useServices();
  return useQuery({
    queryKey: TOURS_KEY,
    queryFn: () => api.seen(),
    enabled: session.isSignedIn(),
    // Changes come from this user only: their own calls and the push of their other tabs.
    staleTime: Infinity,
  });
}

/**
 * Whether the signed-in user has seen the guided tour `key` (undefined while that is not known yet: a
 * screen starts its tour only on `seen === false`), and `markSeen` to record it when the tour ends or
 * is closed. `markSeen` sends at most one request: never for a tour already seen, never twice.
 */
export function useTourSeen(key: TourKey): { seen: boolean | undefined; markSeen: () => void } {
  const api = useApi(toursApi);
  const queryClient = useQueryClient();
  const list = useToursSeen();
  const seen = list.data ? list.data.tours.some((t) => t.tour_key === key) : undefined;
  const { mutate } = useMutation({
    mutationFn: () => api.markSeen({ body: { tour_key: key } }, { notify: false }),
    onSuccess: (answer) => queryClient.setQueryData(TOURS_KEY, answer),
  });
  const sent = useRef(false);
  const markSeen = useCallback(() => {
    if (sent.current || seen) return;
    sent.current = true;
    // Not offered again on this page at once, whatever the network does; the answer then replaces it.
    queryClient.setQueryData<ToursSeenResponse>(TOURS_KEY, (old) => ({
      tours: [...(old?.tours ?? []), { tour_key: key, completed_at: new Date().toISOString() }],
    }));
    mutate();
  }, [key, mutate, queryClient, seen]);
  return { seen, markSeen };
}
