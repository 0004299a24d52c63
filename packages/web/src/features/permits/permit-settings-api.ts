import {
  MASTER_APIS,
  permitBoardsApi,
  permitWorkersApi,
  sitesApi,
  type MasterCreate,
  type MasterEntry,
  type MasterKind,
  type MasterUpdate,
  type Worker,
  type WorkerCreateInput,
  type WorkerUpdateInput,
} from '@bulwark/domain';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useApi } from '../../api/use-api.js';
import type { ImportOutcome, LoadedPage } from '../../ui/index.js';

/**
 * The calls of the permit settings screens beside the templates: the four masters, the worker
 * profiles (also used by the request flow) and the live board with its links. Worker and board
 * queries live under 'permits' (the permits channel refreshes them); masters under 'permit-masters'.
 */
export const MASTERS_KEY = ['permit-masters'] as const;
export const WORKERS_KEY = ['permits', 'workers'] as const;
export const BOARD_KEY = ['permits', 'board'] as const;

/* ---- Masters ---- */

export function useMasterListLoader(kind: MasterKind): (query: Record<string, string>) => Promise<LoadedPage<MasterEntry>> {
  const api = useApi(MASTER_APIS[kind]);
  return async (query) => {
    const page = await api.list({ query });
    return { rows: page.entries, pagination: page.pagination };
  };
}

export function useMasterCommands(kind: MasterKind) {
  const api = useApi(MASTER_APIS[kind]);
  const client = useQueryClient();
  const quiet = { notify: false };
  const refresh = () => client.invalidateQueries({ queryKey: [...MASTERS_KEY, kind] });
  return {
    refresh,
    create: async (body: Partial<MasterCreate> & { name: string }) => {
      const e = (await api.create({ body }, quiet)).entry;
      await refresh();
      return e;
    },
    update: async (id: string, body: MasterUpdate) => {
      const e = (await api.update({ params: { id }, body }, quiet)).entry;
      await refresh();
      return e;
    },
    exportRows: (query: Record<string, string>) => api.list.download({ query }),
    importTemplate: () => api.importTemplate.download(),
    importWorkbook: async (file: File): Promise<ImportOutcome> => {
      const r = await api.import({ file }, quiet);
      return { imported: r.created + r.updated, errors: r.errors };
    },
  };
}

/* ---- Workers ---- */

/** Active workers matching `value`, the ones recently named first. */
export function useRecentWorkers(value: string) {
  const api = useApi(permitWorkersApi);
  return useQuery({
    queryKey: [...WORKERS_KEY, 'recent', value],
    queryFn: async () => (await api.recent({ query: value ? { value, limit: 20 } : { limit: 20 } })).workers,
    placeholderData: (previous) => previous,
  });
}

export function useWorkerListLoader(): (query: Record<string, string>) => Promise<LoadedPage<Worker>> {
  const api = useApi(permitWorkersApi);
  return async (query) => {
    const page = await api.list({ query });
    return { rows: page.workers, pagination: page.pagination };
  };
}

export function useWorkerCommands() {
  const api = useApi(permitWorkersApi);
  const client = useQueryClient();
  const quiet = { notify: false };
  const refresh = () => client.invalidateQueries({ queryKey: WORKERS_KEY });
  return {
    create: async (body: WorkerCreateInput) => {
      const w = (await api.create({ body }, quiet)).worker;
      await refresh();
      return w;
    },
    update: async (id: string, body: WorkerUpdateInput) => {
      const w = (await api.update({ params: { id }, body }, quiet)).worker;
      await refresh();
      return w;
    },
    uploadPhoto: async (file: File, onProgress: (fraction: number) => void) => (await api.uploadPhoto({ file, onProgress })).file.id,
    exportRows: (query: Record<string, string>) => api.list.download({ query }),
  };
}

/* ---- The live board ---- */

export function usePermitBoard(siteId: string | null) {
  const api = useApi(permitBoardsApi);
  return useQuery({
    queryKey: [...BOARD_KEY, siteId ?? ''],
    queryFn: () => api.board({ query: { site_id: siteId! } }),
    enabled: Boolean(siteId),
    // Permits start and end with time alone: read again now and then, besides the live channel.
    refetchInterval: (q) => (q.state.data?.refresh_seconds ?? 30) * 1000,
    placeholderData: (previous) => previous,
  });
}

/** A wall screen's board, signed out, by its link's token. */
export function useLinkBoard(token: string) {
  const api = useApi(permitBoardsApi);
  return useQuery({
    queryKey: ['permit-link-board', token],
    queryFn: () => api.linkBoard({ params: { token } }, { notify: false }),
    refetchInterval: (q) => (q.state.data?.refresh_seconds ?? 30) * 1000,
    retry: false,
  });
}

/** A printed permit's public status, signed out, by its QR code's token. */
export function usePublicStatus(token: string) {
  const api = useApi(permitBoardsApi);
  return useQuery({
    queryKey: ['permit-status', token],
    queryFn: () => api.publicStatus({ params: { token } }, { notify: false }),
    retry: false,
  });
}

export function useBoardLinks(enabled: boolean) {
  const api = useApi(permitBoardsApi);
  return useQuery({
    queryKey: [...BOARD_KEY, 'links'],
    queryFn: async () => (await api.links()).links,
    enabled,
  });
}

export function useBoardLinkCommands() {
  const api = useApi(permitBoardsApi);
  const client = useQueryClient();
  const refresh = () => client.invalidateQueries({ queryKey: [...BOARD_KEY, 'links'] });
  return {
    create: async (siteId: string, label: string) => {
      const answer = await api.createLink({ body: { site_id: siteId, label } }, { notify: false });
      await refresh();
      return answer;
    },
    revoke: async (id: string) => {
      await api.revokeLink({ params: { id } });
      await refresh();
    },
  };
}

/** The active sites the signed-in person belongs to (every active site for an admin): the board's and the list's site choice. */
export function useMySites() {
  const api = useApi(sitesApi);
  return useQuery({
    queryKey: ['permits', 'my-sites'],
    queryFn: async () => (await api.activeSitesOfUser()).sites,
    staleTime: 60_000,
  });
}
