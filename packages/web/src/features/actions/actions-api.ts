import {
  can,
  type ActionCategoryOptions,
  type ActionDetail,
  type ActionListKind,
  type ActionListResponse,
  type ActionSource,
  type ProfileResponse,
  type UserBrief,
} from '@bulwark/domain';
import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import { principalFromProfile } from '../../app/profile.js';
import { useServices } from '../../app/services.js';
import { useProfile } from '../../app/use-profile.js';
import { listQuery, type ActionScreen, type ListState } from './list-url.js';

/**
 * Every query of this feature starts with 'actions': a push on the 'actions' channel invalidates them
 * all, which is how another person's change shows up without a reload.
 */
export const ACTIONS_KEY = ['actions'] as const;
export const actionKey = (id: string) => [...ACTIONS_KEY, 'one', id] as const;

/** The server's list of each kind (spec 001 §7). */
export function listPath(kind: ActionListKind): string {
  return `/api/actions/${kind}`;
}

export function useActionList(screen: ActionScreen, state: ListState) {
  const { http } = useServices();
  const query = listQuery(screen, state);
  return useQuery({
    queryKey: [...ACTIONS_KEY, 'list', screen.kind, query],
    queryFn: async () => (await http.get<ActionListResponse>(listPath(screen.kind), { query })) ?? null,
    placeholderData: keepPreviousData,
  });
}

/** One action as the panel shows it; `source` is the list's source (a record of another source is "not found"). */
export function useAction(id: string | null, source: ActionSource | null) {
  const { http } = useServices();
  return useQuery({
    queryKey: [...actionKey(id ?? ''), source],
    enabled: id !== null,
    retry: false,
    queryFn: async () =>
      (await http.get<ActionDetail>(`/api/actions/${id}`, { query: source ? { actionable_type: source } : {}, notify: false }))!,
  });
}

export type SiteOption = { id: string; name: string; time_zone: string };

/** Sites the person may raise an action at and filter by. */
export function useActionSites() {
  const { http } = useServices();
  return useQuery({
    queryKey: [...ACTIONS_KEY, 'options', 'sites'],
    queryFn: async () => (await http.get<{ sites: SiteOption[] }>('/api/v3/sites/active_sites_of_user'))?.sites ?? [],
    staleTime: 60_000,
  });
}

/** Every active person of the organisation: who an action can be assigned to. */
export function useActionPeople() {
  const { http } = useServices();
  return useQuery({
    queryKey: [...ACTIONS_KEY, 'options', 'people'],
    queryFn: async () => (await http.get<{ users: UserBrief[] }>('/api/users/all_active_users'))?.users ?? [],
    staleTime: 60_000,
  });
}

/**
 * Active categories of the actions module, from the actions module's own call: anyone who raises or
 * edits an action may pick one, with or without the right to manage categories.
 */
export function useActionCategories() {
  const { http } = useServices();
  return useQuery({
    queryKey: [...ACTIONS_KEY, 'options', 'categories'],
    queryFn: async () => (await http.get<ActionCategoryOptions>('/api/actions/categories', { notify: false }))?.categories ?? [],
    staleTime: 60_000,
  });
}

export function useActionsRefresh() {
  const client = useQueryClient();
  return () => client.invalidateQueries({ queryKey: ACTIONS_KEY });
}

/** The signed-in person's id and Action rights, through the same `can()` as the server. */
export function actionRights(profile: ProfileResponse | undefined) {
  const access = profile ? principalFromProfile(profile).access : null;
  return {
    userId: profile?.user.id ?? null,
    create: access ? can(access, 'Action', 'create') : false,
    update: access ? can(access, 'Action', 'update') : false,
  };
}

export function useActionRights() {
  return actionRights(useProfile());
}

/** '#12': how an action's number is written on screen, in mails and in the search box (the server finds "#12"). */
export function actionSerial(serial: number): string {
  return `#${serial}`;
}
