import type { OnboardingStatus, RoleSummary, SiteResponse, SiteUserSummary } from '@bulwark/domain';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useServices } from '../../app/services.js';

export const ONBOARDING_KEY = ['onboarding'] as const;

export function useOnboardingStatus() {
  const { http } = useServices();
  return useQuery({ queryKey: ONBOARDING_KEY, queryFn: async () => http.get<OnboardingStatus>('/api/onboarding') });
}

/** After a step: the status (and what the steps read) come again from the server, the one judge. */
export function useRefreshOnboarding() {
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: ONBOARDING_KEY });
}

export function useSites() {
  const { http } = useServices();
  return useQuery({
    queryKey: [...ONBOARDING_KEY, 'sites'],
    queryFn: async () =>
      (await http.get<{ sites: SiteResponse[] }>('/api/sites', { query: { per_page: '100', active: 'active' } }))?.sites ?? [],
  });
}

export function useRoles() {
  const { http } = useServices();
  return useQuery({
    queryKey: [...ONBOARDING_KEY, 'roles'],
    queryFn: async () => (await http.get<{ roles: RoleSummary[] }>('/api/roles', { query: { per_page: '100' } }))?.roles ?? [],
  });
}

export function useUserOptions() {
  const { http } = useServices();
  return useQuery({
    queryKey: [...ONBOARDING_KEY, 'users'],
    queryFn: async () => (await http.get<{ users: SiteUserSummary[] }>('/api/sites/user_options'))?.users ?? [],
  });
}
