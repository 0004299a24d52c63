import { onboardingApi, rolesApi, sitesApi, usersApi, type BodyInput, type SiteInput, type UserInviteBody } from '@bulwark/domain';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useApi } from '../../api/use-api.js';
import { useReloadProfile } from '../../app/use-profile.js';

/**
 * Every call of the set-up wizard: its own status and steps, and the sites, roles and invitations it
 * makes through those modules' endpoints. Every query starts with 'onboarding', so a refresh reloads
 * what the steps read as well.
 */
export const ONBOARDING_KEY = ['onboarding'] as const;

export function useOnboardingStatus() {
  const api = useApi(onboardingApi);
  return useQuery({ queryKey: ONBOARDING_KEY, queryFn: () => api.status() });
}

/** After a step: the status (and what the steps read) come again from the server, the one judge. */
export function useRefreshOnboarding() {
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: ONBOARDING_KEY });
}

export function useSites() {
  const sites = useApi(sitesApi);
  return useQuery({
    queryKey: [...ONBOARDING_KEY, 'sites'],
    queryFn: async () => (await sites.list({ query: { per_page: 100, active: 'active' } })).sites,
  });
}

export function useRoles() {
  const roles = useApi(rolesApi);
  return useQuery({
    queryKey: [...ONBOARDING_KEY, 'roles'],
    queryFn: async () => (await roles.list({ query: { per_page: 100 } })).roles,
  });
}

export function useUserOptions() {
  const sites = useApi(sitesApi);
  return useQuery({
    queryKey: [...ONBOARDING_KEY, 'users'],
    queryFn: async () => (await sites.userOptions()).users,
  });
}

/** What the wizard's steps send. Each step shows its refusals itself, so these calls do not notify. */
export function useOnboardingCommands() {
  const onboarding = useApi(onboardingApi);
  const sites = useApi(sitesApi);
  const roles = useApi(rolesApi);
  const users = useApi(usersApi);
  const reloadProfile = useReloadProfile();
  const quiet = { notify: false };
  return {
    setTimezone: (timezone: string) => onboarding.setTimezone({ body: { timezone } }, quiet),
    confirmHeadsOfSafety: () => onboarding.confirmStep({ params: { step: 'headOfSafety' } }, quiet),
    /** Invitations sent or skipped. */
    invitesDone: () => onboarding.confirmStep({ params: { step: 'invite' } }, quiet),
    createSite: (body: SiteInput) => sites.create({ body }, quiet),
    setHeadOfSafety: (siteId: string, userId: string) =>
      sites.update({ params: { id: siteId }, body: { head_of_safety_id: userId } }, quiet),
    createRole: (body: BodyInput<typeof rolesApi.create>) => roles.create({ body }, quiet),
    invite: (body: UserInviteBody) => users.invite({ body }, quiet),
    /**
     * Ends onboarding for the organisation; the stored profile then says so before the guard runs
     * again, even after a reload.
     */
    complete: async () => {
      await onboarding.complete(undefined, quiet);
      await reloadProfile();
    },
  };
}
