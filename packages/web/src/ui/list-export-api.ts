import { listExportsApi, listExportStartedResponse, type ListExport, type ListExportStarted } from '@bulwark/domain';
import { useQuery } from '@tanstack/react-query';
import type { DownloadedFile } from '../api/http.js';
import { useApi } from '../api/use-api.js';
import { saveFile } from './files.js';

/**
 * Large list exports (issue 13): a list's `export_to_excel=true` past 10,000 rows answers 202 with the
 * export it started instead of the workbook; the export button then follows it here until it can be
 * downloaded.
 */
export const LIST_EXPORTS_KEY = ['list_exports'] as const;

/** While an export is being written its progress is asked again this often. */
const POLL_MS = 1500;

const running = (e: ListExport | undefined) => !e || e.status === 'queued' || e.status === 'running';

/** The export a list's download answered instead of a file (202, JSON), or null for a workbook. */
export async function startedExport(file: DownloadedFile): Promise<ListExportStarted['export'] | null> {
  if (!file.blob.type.startsWith('application/json')) return null;
  const parsed = listExportStartedResponse.safeParse(JSON.parse(await file.blob.text()));
  return parsed.success ? parsed.data.export : null;
}

/** One of the caller's exports, asked again while it is being written. */
export function useListExport(id: string | null) {
  const api = useApi(listExportsApi);
  return useQuery({
    queryKey: [...LIST_EXPORTS_KEY, id],
    enabled: id !== null,
    retry: false,
    queryFn: async () => (await api.get({ params: { id: id ?? '' } }, { notify: false })).export,
    refetchInterval: (query) => (running(query.state.data) && !query.state.error ? POLL_MS : false),
  });
}

/** Saves a finished export. */
export function useSaveListExport() {
  const api = useApi(listExportsApi);
  return async (id: string) => saveFile(await api.download.download({ params: { id } }));
}
