import {
  sitesApi,
  type ManpowerUpdate,
  type SiteInput,
  type SiteNodeInput,
  type SiteNodeUpdateInput,
  type SiteResponse,
  type SiteUserSummary,
} from '@bulwark/domain';
import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import { useApi } from '../../api/use-api.js';
import type { LoadedPage } from '../../ui/index.js';

/** Query keys of the sites screens; a write invalidates `SITES_KEY` and everything under it. */
export const SITES_KEY = ['sites'] as const;
export const siteKey = (id: string) => [...SITES_KEY, 'one', id] as const;
export const treeKey = (id: string) => [...SITES_KEY, 'tree', id] as const;
export const manpowerKey = (year: number) => [...SITES_KEY, 'manpower', year] as const;
export const userOptionsKey = (search: string) => [...SITES_KEY, 'user-options', search] as const;

/** A person as a picker shows them: the name, and the e-mail to tell namesakes apart. */
export function userLabel(u: SiteUserSummary): string {
  return u.full_name && u.full_name !== u.email ? `${u.full_name} (${u.email})` : u.email;
}

/** One site for its form; a missing one is shown by the form, not notified. */
export function useSite(id: string | null) {
  const api = useApi(sitesApi);
  return useQuery({
    queryKey: siteKey(id ?? ''),
    enabled: id !== null,
    queryFn: () => api.get({ params: { id: id! } }, { notify: false }),
    retry: false,
  });
}

/** The site's divisions, departments and units. */
export function useSiteTree(id: string) {
  const api = useApi(sitesApi);
  return useQuery({
    queryKey: treeKey(id),
    queryFn: () => api.tree({ params: { id } }, { notify: false }),
    retry: false,
  });
}

/** The manpower grid of a year. */
export function useManpower(year: number) {
  const api = useApi(sitesApi);
  return useQuery({ queryKey: manpowerKey(year), queryFn: () => api.manpower({ query: { year } }) });
}

/** Active users matching a search, for the people pickers (the previous answer stays while typing). */
export function useUserOptions(search: string) {
  const api = useApi(sitesApi);
  return useQuery({
    queryKey: userOptionsKey(search),
    queryFn: () => api.userOptions({ query: search ? { search } : {} }),
    placeholderData: keepPreviousData,
    staleTime: 30_000,
  });
}

/** The list's pages, for `usePagedList`. */
export function useSiteListLoader(): (query: Record<string, string>) => Promise<LoadedPage<SiteResponse>> {
  const api = useApi(sitesApi);
  return async (query) => {
    const page = await api.list({ query });
    return { rows: page.sites, pagination: page.pagination };
  };
}

/** The filtered rows as a workbook (the list's query with export_to_excel=true). */
export function useSiteListExport(query: Record<string, string>) {
  const api = useApi(sitesApi);
  return () => api.list.download({ query });
}

/** Reloads every sites query after a write. */
export function useSitesRefresh() {
  const client = useQueryClient();
  return () => client.invalidateQueries({ queryKey: SITES_KEY });
}

/** What the sites screens send. Forms show refusals under their fields, so their calls do not notify. */
export function useSiteCommands() {
  const api = useApi(sitesApi);
  const client = useQueryClient();
  const quiet = { notify: false };
  return {
    create: (body: SiteInput) => api.create({ body }, quiet),
    update: (id: string, body: SiteInput) => api.update({ params: { id }, body }, quiet),
    /** Deactivates or activates a site from the list; a refusal is notified. */
    setActive: (id: string, active: boolean) => api.update({ params: { id }, body: { is_active: active } }),
    createNode: (siteId: string, body: SiteNodeInput) => api.createNode({ params: { id: siteId }, body }, quiet),
    updateNode: (siteId: string, nodeId: string, body: SiteNodeUpdateInput) =>
      api.updateNode({ params: { id: siteId, node_id: nodeId }, body }, quiet),
    /** Deletes a node with everything under it; a refusal (still in use) is notified. */
    removeNode: (siteId: string, nodeId: string) => api.removeNode({ params: { id: siteId, node_id: nodeId } }),
    /** Saves monthly totals and shows the grid the server answers. */
    saveManpower: async (year: number, entries: ManpowerUpdate['entries']) => {
      const next = await api.setManpower({ body: { year, entries } }, quiet);
      client.setQueryData(manpowerKey(year), next);
      return next;
    },
  };
}
