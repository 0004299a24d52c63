import type { SiDashboardResponse, SiOptionsResponse, SiResponse, SiScheduleListResponse, SiSummaryResponse } from '@bulwark/domain';
import { useQuery } from '@tanstack/react-query';
import { useServices } from '../../app/services.js';
import { toQuery, type PagedParams } from '../../ui/index.js';

/**
 * Query keys of the safety-interaction screens. They all start with the push channel's name, so an
 * event on `safety_interactions` refreshes every one of them without reloading.
 */
export const SI_KEY = ['safety_interactions'] as const;
export const siKey = (id: string) => [...SI_KEY, 'one', id] as const;
export const SI_LIST_KEY = [...SI_KEY, 'list'] as const;

export function useSiOptions() {
  const { http } = useServices();
  return useQuery({
    queryKey: [...SI_KEY, 'options'],
    queryFn: () => http.get<SiOptionsResponse>('/api/safety_interactions/options'),
    staleTime: 60_000,
  });
}

export function useInteraction(id: string | null) {
  const { http } = useServices();
  return useQuery({
    queryKey: siKey(id ?? ''),
    enabled: id !== null,
    queryFn: () => http.get<SiResponse>(`/api/safety_interactions/${id}`, { notify: false }),
    retry: false,
  });
}

export function useSchedules(filters: PagedParams, enabled = true) {
  const { http } = useServices();
  return useQuery({
    queryKey: [...SI_KEY, 'schedules', filters],
    enabled,
    queryFn: () => http.get<SiScheduleListResponse>('/api/safety_interactions/schedules', { query: toQuery(filters) }),
  });
}

export function useSummary(filters: { from: string; to: string; site_id?: string | null }) {
  const { http } = useServices();
  return useQuery({
    queryKey: [...SI_KEY, 'summary', filters],
    queryFn: () => http.get<SiSummaryResponse>('/api/safety_interactions/summary', { query: toQuery(filters) }),
  });
}

export function useDashboard() {
  const { http } = useServices();
  return useQuery({
    queryKey: [...SI_KEY, 'dashboard'],
    queryFn: () => http.get<SiDashboardResponse>('/api/safety_interactions/dashboard'),
  });
}

/** 'YYYY-MM-DD' of the browser's today, shifted by whole days. */
export function localDay(days = 0): string {
  const d = new Date();
  d.setDate(d.getDate() + days);
  return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
}

/** A 'YYYY-MM-DD' day as the reader writes dates (read as a calendar day, so no time zone shifts it). */
export function formatDay(date: string, language: string): string {
  const at = new Date(`${date}T00:00:00Z`);
  if (Number.isNaN(at.getTime())) return date;
  return new Intl.DateTimeFormat(language, { dateStyle: 'medium', timeZone: 'UTC' }).format(at);
}

/** A site-local 'YYYY-MM-DDTHH:mm' as the reader writes it; the clock is the site's, so it is shown as is. */
export function formatLocal(local: string, language: string): string {
  const at = new Date(`${local}:00Z`);
  if (Number.isNaN(at.getTime())) return local;
  return new Intl.DateTimeFormat(language, { dateStyle: 'medium', timeStyle: 'short', timeZone: 'UTC' }).format(at);
}

/** 'YYYY-MM' as a short month name of the reader's language. */
export function formatMonth(month: string, language: string): string {
  const at = new Date(`${month}-01T00:00:00Z`);
  if (Number.isNaN(at.getTime())) return month;
  return new Intl.DateTimeFormat(language, { month: 'short', year: '2-digit', timeZone: 'UTC' }).format(at);
}
