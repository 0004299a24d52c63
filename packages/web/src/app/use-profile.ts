import type { ProfileResponse } from '@bulwark/domain';
import { useQuery } from '@tanstack/react-query';
import { loadProfile, PROFILE_KEY } from './profile.js';
import { useServices } from './services.js';

/**
 * The signed-in profile from the cache. The route guard decides when it is reloaded (60 s rule);
 * observers never refetch on their own, only when push events invalidate it.
 */
export function useProfile(): ProfileResponse | undefined {
  const { http, session, now } = useServices();
  const { data } = useQuery({
    queryKey: PROFILE_KEY,
    queryFn: () => loadProfile(http, session, now),
    staleTime: Infinity,
    enabled: session.isSignedIn(),
  });
  return data;
}
