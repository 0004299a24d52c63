import {
  can,
  type LicenceCounts,
  type LicenceModule,
  type ProfileResponse,
  type UserFormOptions,
  type UserPermissions,
  type UserRecord,
} from '@bulwark/domain';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { principalFromProfile } from '../../app/profile.js';
import { useServices } from '../../app/services.js';

/** Every query of this module starts with this key, so one invalidation refreshes them all. */
export const USERS_KEY = ['users'] as const;

export function useUser(id: string | undefined) {
  const { http } = useServices();
  return useQuery({
    queryKey: [...USERS_KEY, 'one', id],
    queryFn: async () => (await http.get<UserRecord>(`/api/users/${id}`))!,
    enabled: Boolean(id),
  });
}

export function useFormOptions() {
  const { http } = useServices();
  return useQuery({
    queryKey: [...USERS_KEY, 'form-options'],
    queryFn: async () => (await http.get<UserFormOptions>('/api/users/form_options')) ?? { roles: [], sites: [] },
    staleTime: 60_000,
  });
}

export function useUserPermissions(id: string | undefined) {
  const { http } = useServices();
  return useQuery({
    queryKey: [...USERS_KEY, 'permissions', id],
    queryFn: async () => (await http.get<UserPermissions>(`/api/users/${id}/permissions`))!,
    enabled: Boolean(id),
  });
}

export function useLicenceCounts(enabled: boolean) {
  const { http } = useServices();
  return useQuery({
    queryKey: [...USERS_KEY, 'licences'],
    queryFn: async () => (await http.get<LicenceCounts>('/api/users/licences'))!,
    enabled,
  });
}

/** Refreshes every users query after a change. */
export function useUsersRefresh() {
  const client = useQueryClient();
  return () => client.invalidateQueries({ queryKey: USERS_KEY });
}

export type { LicenceModule, UserRecord };

/** Whether the signed-in user may take a User action: the same `can()` as the server's guard. */
export function userRight(profile: ProfileResponse | undefined, action: 'read' | 'create' | 'update'): boolean {
  return profile ? can(principalFromProfile(profile).access, 'User', action) : false;
}
