import { filesApi } from '@bulwark/domain';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useApi } from '../../api/use-api.js';

/**
 * Under the push channel's name: a `tenant_memory` event (a file stored, linked, removed or swept, a
 * new quota) reloads the figures, as it reloads the profile's memory warning.
 */
export const STORAGE_KEY = ['tenant_memory', 'storage'] as const;

/** The organisation's storage figures and its largest files with what links them (admin). */
export function useStorageUsage() {
  const api = useApi(filesApi);
  return useQuery({ queryKey: STORAGE_KEY, queryFn: () => api.usage() });
}

/** What the storage screen sends; a refusal (a file a record took meanwhile) is notified. */
export function useStorageCommands() {
  const api = useApi(filesApi);
  const client = useQueryClient();
  return {
    removeFile: async (id: string) => {
      await api.removeUnlinked({ params: { id } });
      await client.invalidateQueries({ queryKey: STORAGE_KEY });
    },
  };
}
