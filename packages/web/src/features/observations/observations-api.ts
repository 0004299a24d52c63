import {
  can,
  observationsApi,
  type Action,
  type Observation,
  type ObservationCreateInput,
  type ObservationGuestInput,
  type ObservationListItem,
  type ObservationStatus,
  type ObservationUpdateInput,
} from '@bulwark/domain';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useApi } from '../../api/use-api.js';
import { principalFromProfile } from '../../app/profile.js';
import { useProfile } from '../../app/use-profile.js';
import { saveFile, type LoadedPage } from '../../ui/index.js';

/**
 * Every call of the observations screens. Every query starts with 'observations': a push on the
 * 'observations' channel invalidates them all, which is how a guest's report appears on a list nobody
 * reloads.
 */
export const OBSERVATIONS_KEY = ['observations'] as const;
export const observationKey = (id: string) => [...OBSERVATIONS_KEY, 'one', id] as const;

/** The list's filters, as the list call and the counts call both take them. */
export type ListFilters = {
  site_id: string | null;
  type: string | null;
  risk_level: string | null;
  from: string;
  to: string;
};
export type StatusTab = 'all' | ObservationStatus;

export function useFormData() {
  const api = useApi(observationsApi);
  return useQuery({ queryKey: [...OBSERVATIONS_KEY, 'form-data'], queryFn: () => api.formData(), staleTime: 60_000 });
}

export function useObservation(id: string | undefined) {
  const api = useApi(observationsApi);
  return useQuery({
    queryKey: observationKey(id ?? ''),
    queryFn: async () => (await api.get({ params: { id: id! } }, { notify: false })).observation,
    enabled: Boolean(id),
    retry: false,
  });
}

export function useStatusCounts(filters: Record<string, string>) {
  const api = useApi(observationsApi);
  return useQuery({
    queryKey: [...OBSERVATIONS_KEY, 'counts', filters],
    // With the counts, whether a search stopped counting (counts_capped: each count is then a lower bound).
    queryFn: async () => await api.statusCounts({ query: filters }),
    placeholderData: (previous) => previous,
  });
}

/** The list's pages, for `usePagedList`. */
export function useListLoader(): (query: Record<string, string>) => Promise<LoadedPage<ObservationListItem>> {
  const api = useApi(observationsApi);
  return async (query) => {
    const page = await api.list({ query });
    return { rows: page.observations, pagination: page.pagination };
  };
}

/** The filtered rows as a workbook (the list's query with export_to_excel=true). */
export function useListExport(query: Record<string, string>) {
  const api = useApi(observationsApi);
  return () => api.list.download({ query });
}

/** The signed-out form's data: the organisation is the sub-domain's (the tenant header). */
export function useGuestFormData() {
  const api = useApi(observationsApi);
  return useQuery({
    queryKey: [...OBSERVATIONS_KEY, 'guest-form-data'],
    queryFn: () => api.guestFormData(),
    retry: false,
    staleTime: Infinity,
  });
}

export function useObservationsRefresh() {
  const client = useQueryClient();
  return () => client.invalidateQueries({ queryKey: OBSERVATIONS_KEY });
}

/** Whether the signed-in user holds an Observation right: the same `can()` as the server's guard. */
/** A self-registered guest: it reports and follows its own reports (no import, export or printed report). */
export function useIsGuest(): boolean {
  return useProfile()?.user.is_guest ?? false;
}

export function useObservationRight(action: Action): boolean {
  const profile = useProfile();
  return profile ? can(principalFromProfile(profile).access, 'Observation', action) : false;
}

/** What the screens send. Forms show refusals under their fields, so these calls do not notify. */
export function useObservationCommands() {
  const api = useApi(observationsApi);
  const quiet = { notify: false };
  return {
    create: (body: ObservationCreateInput) => api.create({ body }, quiet),
    update: (id: string, body: ObservationUpdateInput) => api.update({ params: { id }, body }, quiet),
    close: (id: string, remarks: string) => api.update({ params: { id }, body: { close: { remarks } } }, quiet),
    reportAsGuest: (body: ObservationGuestInput) => api.guestCreate({ body }),
    /** Uploads one attachment (staff, or a signed-out guest) and answers the stored file's id. */
    uploadAttachment: async (file: File, onProgress: (fraction: number) => void, guest = false) => {
      const upload = guest ? api.guestUploadAttachment : api.uploadAttachment;
      return (await upload({ file, onProgress })).file.id;
    },
    downloadPdf: async (id: string) => saveFile(await api.reportPdf.download({ params: { id } })),
    importTemplate: () => api.importTemplate.download(),
    importWorkbook: (file: File) => api.import({ file }, quiet),
  };
}

export type { Observation };
