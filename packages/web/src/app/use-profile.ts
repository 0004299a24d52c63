import type { ProfileResponse } from '@bulwark/domain';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { loadProfile, PROFILE_KEY } from './profile.js';
import { useServices } from './services.js';

/**
 * The signed-in profile from the cache. The route guard decides when it is reloaded (60 s rule);
 * observers never refetch on their own, only when push events invalidate it.
 */
export function useProfile(): ProfileResponse | undefined {
  const services = useServices();
  const { data } = useQuery({
    queryKey: PROFILE_KEY,
    queryFn: () => loadProfile(services),
    staleTime: Infinity,
    enabled: services.session.isSignedIn(),
  });
  return data;
}

/**
 * Loads the profile now and puts it in the cache (e.g. once onboarding is over, so the guard's next
 * run already sees it); answers the fresh profile.
 */
export function useReloadProfile(): () => Promise<ProfileResponse> {
  const services = useServices();
  const queryClient = useQueryClient();
  return async () => {
    const profile = await loadProfile(services);
    queryClient.setQueryData(PROFILE_KEY, profile);
    return profile;
  };
}
