import {
  ACTION_LIST_ENDPOINTS,
  actionsApi,
  can,
  sitesApi,
  usersApi,
  type ActionCreateInput,
  type ActionListKind,
  type ActionSource,
  type ActionStatus,
  type ActionUpdateInput,
  type ProfileResponse,
} from '@bulwark/domain';
import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import type { ApiClient } from '../../api/client.js';
import { useApi } from '../../api/use-api.js';
import { principalFromProfile } from '../../app/profile.js';
import { useProfile } from '../../app/use-profile.js';
import { listQuery, type ActionScreen, type ListState } from './list-url.js';

/**
 * Every query of this feature starts with 'actions': a push on the 'actions' channel invalidates them
 * all, which is how another person's change shows up without a reload.
 */
export const ACTIONS_KEY = ['actions'] as const;
export const actionKey = (id: string) => [...ACTIONS_KEY, 'one', id] as const;

/** The list call of each kind (spec 001 §7): one endpoint per source, each with its own right. */
function listCall(api: ApiClient<typeof actionsApi>, kind: ActionListKind) {
  return api[ACTION_LIST_ENDPOINTS[kind]];
}

export function useActionList(screen: ActionScreen, state: ListState) {
  const api = useApi(actionsApi);
  const query = listQuery(screen, state);
  return useQuery({
    queryKey: [...ACTIONS_KEY, 'list', screen.kind, query],
    queryFn: () => listCall(api, screen.kind)({ query }),
    placeholderData: keepPreviousData,
  });
}

/** Exactly the rows of the list's filters and tab as a workbook (the list's query with export_to_excel=true). */
export function useListExport(screen: ActionScreen, query: Record<string, string>) {
  const api = useApi(actionsApi);
  return () => listCall(api, screen.kind).download({ query: { ...query, export_to_excel: 'true' } });
}

/** One action as the panel shows it; `source` is the list's source (a record of another source is "not found"). */
export function useAction(id: string | null, source: ActionSource | null) {
  const api = useApi(actionsApi);
  return useQuery({
    queryKey: [...actionKey(id ?? ''), source],
    enabled: id !== null,
    retry: false,
    queryFn: () => api.get({ params: { id: id ?? '' }, query: source ? { actionable_type: source } : {} }, { notify: false }),
  });
}

/** Sites the person may raise an action at and filter by. */
export function useActionSites() {
  const api = useApi(sitesApi);
  return useQuery({
    queryKey: [...ACTIONS_KEY, 'options', 'sites'],
    queryFn: async () => (await api.activeSitesOfUser()).sites,
    staleTime: 60_000,
  });
}

/** Every active person of the organisation: who an action can be assigned to. */
export function useActionPeople() {
  const api = useApi(usersApi);
  return useQuery({
    queryKey: [...ACTIONS_KEY, 'options', 'people'],
    queryFn: async () => (await api.allActive()).users,
    staleTime: 60_000,
  });
}

/**
 * Active categories of the actions module, from the actions module's own call: anyone who raises or
 * edits an action may pick one, with or without the right to manage categories.
 */
export function useActionCategories() {
  const api = useApi(actionsApi);
  return useQuery({
    queryKey: [...ACTIONS_KEY, 'options', 'categories'],
    queryFn: async () => (await api.categories(undefined, { notify: false })).categories,
    staleTime: 60_000,
  });
}

/**
 * What the action screens send. Forms and the status moves show refusals themselves, so those calls do
 * not notify; adding or removing a file from the attachments tab lets the client show a refusal.
 */
export function useActionCommands() {
  const api = useApi(actionsApi);
  const quiet = { notify: false };
  return {
    create: (body: ActionCreateInput) => api.create({ body }, quiet),
    update: (id: string, body: ActionUpdateInput) => api.update({ params: { id }, body }, quiet),
    move: (id: string, status: ActionStatus) => api.update({ params: { id }, body: { status } }, quiet),
    complete: (id: string, remarks: string) => api.update({ params: { id }, body: { status: 'completed', remarks } }, quiet),
    addAttachment: (id: string, file: File, notify = true) => api.addAttachment({ params: { id }, file }, { notify }),
    removeAttachment: (id: string, fileId: string) => api.removeAttachment({ params: { id, fileId } }),
  };
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
