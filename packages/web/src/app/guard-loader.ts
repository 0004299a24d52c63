import { decideRoute, PROFILE_RELOAD_INTERVAL_MS, type Principal } from '@bulwark/domain';
import { replace, type LoaderFunctionArgs } from 'react-router';
import { principalFromProfile, profileEndsSession, PROFILE_KEY } from './principal.js';
import type { Services } from './services.js';

/**
 * Runs before every navigation (the root route revalidates always): loads the profile when it is
 * older than the reload interval, then lets the domain's `decideRoute` admit or redirect.
 */
export function createGuardLoader(services: Services) {
  return async ({ request }: LoaderFunctionArgs): Promise<Response | null> => {
    const path = new URL(request.url).pathname;
    let principal: Principal | null = null;

    if (services.session.isSignedIn()) {
      try {
        const profile = await services.queryClient.fetchQuery({
          queryKey: PROFILE_KEY,
          // Fetched on the first signed-in navigation: the users API stays out of the sign-in page.
          queryFn: async () => (await import('./profile.js')).loadProfile(services),
          staleTime: PROFILE_RELOAD_INTERVAL_MS,
        });
        if (profileEndsSession(profile) && path !== '/logout') return replace('/logout');
        principal = principalFromProfile(profile);
      } catch {
        // A failed profile load ends the session (spec 000 §4); if the HTTP client already ended it, sign in again.
        if (path === '/logout') return null;
        return replace(services.session.isSignedIn() ? '/logout' : '/login');
      }
    }

    // Signing out must always be reachable, even when the session is already half gone.
    if (path === '/logout') return null;

    const decision = decideRoute(path, principal, services.location.host);
    return decision.kind === 'redirect' ? replace(decision.to) : null;
  };
}
