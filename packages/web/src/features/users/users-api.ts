import {
  can,
  guestsApi,
  personControls,
  usersApi,
  type LicenceModule,
  type ProfileResponse,
  type UserInviteBody,
  type UserRecord,
  type UserUpdateBody,
} from '@bulwark/domain';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useApi } from '../../api/use-api.js';
import { principalFromProfile } from '../../app/profile.js';
import type { LoadedPage } from '../../ui/index.js';

/** Every query of this module starts with this key, so one invalidation refreshes them all. */
export const USERS_KEY = ['users'] as const;

export function useUser(id: string | undefined) {
  const api = useApi(usersApi);
  return useQuery({
    queryKey: [...USERS_KEY, 'one', id],
    queryFn: () => api.get({ params: { id: id! } }),
    enabled: Boolean(id),
  });
}

export function useFormOptions() {
  const api = useApi(usersApi);
  return useQuery({
    queryKey: [...USERS_KEY, 'form-options'],
    queryFn: () => api.formOptions(),
    staleTime: 60_000,
  });
}

export function useUserPermissions(id: string | undefined) {
  const api = useApi(usersApi);
  return useQuery({
    queryKey: [...USERS_KEY, 'permissions', id],
    queryFn: () => api.permissions({ params: { id: id! } }),
    enabled: Boolean(id),
  });
}

export function useLicenceCounts(enabled: boolean) {
  const api = useApi(usersApi);
  return useQuery({
    queryKey: [...USERS_KEY, 'licences'],
    queryFn: () => api.licences(),
    enabled,
  });
}

/** The list's pages, for `usePagedList`. */
export function useUsersLoader(): (query: Record<string, string>) => Promise<LoadedPage<UserRecord>> {
  const api = useApi(usersApi);
  return async (query) => {
    const page = await api.list({ query });
    return { rows: page.users, pagination: page.pagination };
  };
}

/** The filtered rows as a workbook (the list's query with export_to_excel=true). */
export function useUsersExport(query: Record<string, string>) {
  const api = useApi(usersApi);
  return () => api.list.download({ query });
}

/** Refreshes every users query after a change. */
export function useUsersRefresh() {
  const client = useQueryClient();
  return () => client.invalidateQueries({ queryKey: USERS_KEY });
}

/**
 * What the users screens send. Forms show refusals under their fields (no notification); the single
 * buttons (resend, switches, licences, photo, status) let the HTTP client notify.
 */
export function useUserCommands() {
  const api = useApi(usersApi);
  const quiet = { notify: false };
  return {
    invite: (body: UserInviteBody) => api.invite({ body }, quiet),
    /** The profile form's fields. */
    saveDetails: (id: string, body: UserUpdateBody) => api.update({ params: { id }, body }, quiet),
    /** One change from a switch or a button (status, admin, permit issuing). */
    update: (id: string, body: UserUpdateBody) => api.update({ params: { id }, body }),
    resendActivation: (id: string) => api.resendActivation({ params: { id } }),
    uploadPhoto: (id: string, file: File) => api.uploadPhoto({ params: { id }, file }),
    setLicence: (userId: string, module: LicenceModule, on: boolean) =>
      on ? api.assignLicence({ body: { user_id: userId, module } }) : api.unassignLicence({ params: { user_id: userId, module } }),
    importTemplate: () => api.importTemplate.download(),
    importWorkbook: (file: File) => api.import({ file }, quiet),
  };
}

const GUEST_SETTINGS_KEY = ['guest-settings'] as const;

/** The admin's switch for guest accounts: its state and its change (the guests module's calls). */
export function useGuestSettings() {
  const api = useApi(guestsApi);
  const queryClient = useQueryClient();
  const settings = useQuery({ queryKey: GUEST_SETTINGS_KEY, queryFn: () => api.settings() });
  const save = useMutation({
    mutationFn: (enabled: boolean) => api.updateSettings({ body: { enabled } }),
    onSuccess: (data) => queryClient.setQueryData(GUEST_SETTINGS_KEY, data),
  });
  return { settings, save };
}

export type { LicenceModule, UserRecord };

/**
 * What the signed-in user may change about this person (role, status), by the same rules as the
 * server (domain access/people.ts): only an administrator changes an administrator's, nobody
 * deactivates themself or the last active administrator. `why` names the note shown instead.
 */
export function userControls(profile: ProfileResponse | undefined, user: UserRecord) {
  const actor = { userId: profile?.user.id ?? '', isAdmin: profile?.user.is_admin ?? false, mayUpdate: userRight(profile, 'update') };
  const controls = personControls(actor, user);
  const why =
    !actor.isAdmin && user.admin_access ? 'users.profile.adminStandingNote' : user.last_admin ? 'users.profile.lastAdminNote' : null;
  return { ...controls, why };
}

/** Whether the signed-in user may take a User action: the same `can()` as the server's guard. */
export function userRight(profile: ProfileResponse | undefined, action: 'read' | 'create' | 'update'): boolean {
  return profile ? can(principalFromProfile(profile).access, 'User', action) : false;
}
