import {
  can,
  type Action,
  type Observation,
  type ObservationFormData,
  type ObservationGuestFormData,
  type ObservationResponse,
  type ObservationStatus,
  type ObservationStatusCounts,
} from '@bulwark/domain';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { principalFromProfile } from '../../app/profile.js';
import { useServices, type Services } from '../../app/services.js';
import { useProfile } from '../../app/use-profile.js';
import { uploadForm } from '../../ui/index.js';
import { uploadWithProgress } from '../../api/upload.js';

/**
 * Every query of this module starts with 'observations': a push on the 'observations' channel
 * invalidates them all, which is how a guest's report appears on a list nobody reloads.
 */
export const OBSERVATIONS_KEY = ['observations'] as const;
export const observationKey = (id: string) => [...OBSERVATIONS_KEY, 'one', id] as const;
export const LIST_PATH = '/api/v2/observations';

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
  const { http } = useServices();
  return useQuery({
    queryKey: [...OBSERVATIONS_KEY, 'form-data'],
    queryFn: async () => (await http.get<ObservationFormData>('/api/observations/obs_data'))!,
    staleTime: 60_000,
  });
}

export function useObservation(id: string | undefined) {
  const { http } = useServices();
  return useQuery({
    queryKey: observationKey(id ?? ''),
    queryFn: async () => (await http.get<ObservationResponse>(`/api/observations/${id}`, { notify: false }))!.observation,
    enabled: Boolean(id),
    retry: false,
  });
}

export function useStatusCounts(filters: Record<string, string>) {
  const { http } = useServices();
  return useQuery({
    queryKey: [...OBSERVATIONS_KEY, 'counts', filters],
    queryFn: async () => (await http.get<ObservationStatusCounts>('/api/v2/observations/period_status_counts', { query: filters }))!.counts,
    placeholderData: (previous) => previous,
  });
}

/** The signed-out form's data: the organisation is the sub-domain's (the tenant header). */
export function useGuestFormData() {
  const { http } = useServices();
  return useQuery({
    queryKey: [...OBSERVATIONS_KEY, 'guest-form-data'],
    queryFn: async () => (await http.get<ObservationGuestFormData>('/api/observations/outer_obs_data', { mode: 'plain' }))!,
    retry: false,
    staleTime: Infinity,
  });
}

export function useObservationsRefresh() {
  const client = useQueryClient();
  return () => client.invalidateQueries({ queryKey: OBSERVATIONS_KEY });
}

/** Whether the signed-in user holds an Observation right: the same `can()` as the server's guard. */
export function useObservationRight(action: Action): boolean {
  const profile = useProfile();
  return profile ? can(principalFromProfile(profile).access, 'Observation', action) : false;
}

/** Uploads one attachment and answers the stored file's id. */
export async function uploadAttachment(
  services: Services,
  path: string,
  file: File,
  onProgress: (fraction: number) => void,
): Promise<string> {
  const answer = await uploadWithProgress<{ file: { id: string } }>(services, path, uploadForm(file), onProgress);
  return answer.file.id;
}

export type { Observation };
