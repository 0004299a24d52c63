import {
  safetyInteractionsApi,
  type SiCreateInput,
  type SiListItem,
  type SiScheduleInput,
  type SiScheduleListQueryInput,
} from '@bulwark/domain';
import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import { useApi } from '../../api/use-api.js';
import { toQuery, type LoadedPage } from '../../ui/index.js';

/**
 * Every call of the safety-interaction screens. Query keys all start with the push channel's name, so
 * an event on `safety_interactions` refreshes every one of them without reloading.
 */
export const SI_KEY = ['safety_interactions'] as const;
export const siKey = (id: string) => [...SI_KEY, 'one', id] as const;
export const SI_LIST_KEY = [...SI_KEY, 'list'] as const;

/** The sites (with time zones and areas) the form and the filters offer. */
export function useSiOptions() {
  const api = useApi(safetyInteractionsApi);
  return useQuery({ queryKey: [...SI_KEY, 'options'], queryFn: () => api.options(), staleTime: 60_000 });
}

export function useInteraction(id: string | null) {
  const api = useApi(safetyInteractionsApi);
  return useQuery({
    queryKey: siKey(id ?? ''),
    enabled: id !== null,
    queryFn: () => api.get({ params: { id: id ?? '' } }, { notify: false }),
    retry: false,
  });
}

/** Active members matching a search (names or e-mails), for the people pickers. */
export function useSiPeople(search: string) {
  const api = useApi(safetyInteractionsApi);
  return useQuery({
    queryKey: [...SI_KEY, 'people', search],
    queryFn: () => api.people({ query: search ? { search } : {} }),
    placeholderData: keepPreviousData,
    staleTime: 30_000,
  });
}

/** The plans of a period; empty filters are left out of the call. */
export function useSchedules(filters: { [K in keyof SiScheduleListQueryInput]?: string | null }, enabled = true) {
  const api = useApi(safetyInteractionsApi);
  return useQuery({
    queryKey: [...SI_KEY, 'schedules', filters],
    enabled,
    queryFn: () => api.schedules({ query: toQuery(filters) }),
  });
}

export function useSummary(filters: { from: string; to: string; site_id?: string | null }) {
  const api = useApi(safetyInteractionsApi);
  return useQuery({
    queryKey: [...SI_KEY, 'summary', filters],
    // An empty date is sent as such: the server names the field.
    queryFn: () => api.summary({ query: { ...toQuery(filters), from: filters.from, to: filters.to } }),
  });
}

export function useDashboard() {
  const api = useApi(safetyInteractionsApi);
  return useQuery({ queryKey: [...SI_KEY, 'dashboard'], queryFn: () => api.dashboard() });
}

/** The list's pages, for `usePagedList`. */
export function useSiListLoader(): (query: Record<string, string>) => Promise<LoadedPage<SiListItem>> {
  const api = useApi(safetyInteractionsApi);
  return async (query) => {
    const page = await api.list({ query });
    return { rows: page.safety_interactions, pagination: page.pagination };
  };
}

/** The filtered rows as a workbook (the list's query with export_to_excel=true). */
export function useSiListExport(query: Record<string, string>) {
  const api = useApi(safetyInteractionsApi);
  return () => api.list.download({ query });
}

/**
 * What the screens send; each write refreshes every safety-interaction query once it has landed.
 * Forms show refusals under their fields (`quiet`); the list and the plans let the client show them.
 */
export function useSiCommands() {
  const api = useApi(safetyInteractionsApi);
  const queryClient = useQueryClient();
  const refresh = () => queryClient.invalidateQueries({ queryKey: SI_KEY });
  const quiet = { notify: false };
  return {
    refresh,
    create: (body: SiCreateInput) => api.create({ body }, quiet),
    update: (id: string, body: SiCreateInput) => api.update({ params: { id }, body }, quiet),
    remove: (id: string, options?: { notify: false }) => api.remove({ params: { id } }, options),
    createSchedule: (body: SiScheduleInput) => api.createSchedule({ body }, quiet),
    updateSchedule: (id: string, body: SiScheduleInput) => api.updateSchedule({ params: { id }, body }, quiet),
    removeSchedule: (id: string) => api.removeSchedule({ params: { id } }),
  };
}
