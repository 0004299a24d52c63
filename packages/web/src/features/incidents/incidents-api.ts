import {
  can,
  incidentsApi,
  type Action,
  type Incident,
  type IncidentCapaInput,
  type IncidentCreateInput,
  type IncidentFactsInput,
  type IncidentGuestInput,
  type IncidentKeyFactorsInput,
  type IncidentListItem,
  type IncidentRecordInput,
  type IncidentSendReportInput,
  type IncidentTeamInput,
  type IncidentUpdateInput,
  type IncidentWhyAnalysisInput,
  type ReviewDecision,
} from '@bulwark/domain';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useApi } from '../../api/use-api.js';
import { principalFromProfile } from '../../app/profile.js';
import { useProfile } from '../../app/use-profile.js';
import { saveFile, type LoadedPage } from '../../ui/index.js';

/**
 * Every call of the incident screens. Every query starts with 'incidents': a push on the 'incidents'
 * channel (a guest's report, a CAPA action moving, a reviewer's decision) invalidates them all, so the
 * list and an open record follow without a reload.
 */
export const INCIDENTS_KEY = ['incidents'] as const;
export const incidentKey = (id: string) => [...INCIDENTS_KEY, 'one', id] as const;

export function useIncidentFormData() {
  const api = useApi(incidentsApi);
  return useQuery({ queryKey: [...INCIDENTS_KEY, 'form-data'], queryFn: () => api.formData(), staleTime: 60_000 });
}

export function useIncident(id: string | undefined) {
  const api = useApi(incidentsApi);
  return useQuery({
    queryKey: incidentKey(id ?? ''),
    queryFn: async () => (await api.get({ params: { id: id! } }, { notify: false })).incident,
    enabled: Boolean(id),
    retry: false,
  });
}

export function useRootCauses(id: string, enabled = true) {
  const api = useApi(incidentsApi);
  return useQuery({
    queryKey: [...incidentKey(id), 'root-causes'],
    queryFn: () => api.rootCauses({ params: { id } }),
    enabled,
  });
}

export function useIncidentCounts(filters: Record<string, string>) {
  const api = useApi(incidentsApi);
  return useQuery({
    queryKey: [...INCIDENTS_KEY, 'counts', filters],
    queryFn: async () => (await api.statusCounts({ query: filters })).counts,
    placeholderData: (previous) => previous,
  });
}

/** One page of the list for the query the address holds. */
export function useIncidentPage(query: Record<string, string>) {
  const api = useApi(incidentsApi);
  return useQuery({
    queryKey: [...INCIDENTS_KEY, 'list', query],
    queryFn: async (): Promise<LoadedPage<IncidentListItem>> => {
      const page = await api.list({ query });
      return { rows: page.incidents, pagination: page.pagination };
    },
    placeholderData: (previous) => previous,
  });
}

/** The filtered rows as a workbook (the list's query with export_to_excel=true). */
export function useIncidentExport(query: Record<string, string>) {
  const api = useApi(incidentsApi);
  return () => api.list.download({ query: { ...query, export_to_excel: 'true' } });
}

/** The signed-out form's data: the organisation is the sub-domain's (the tenant header). */
export function useIncidentGuestFormData() {
  const api = useApi(incidentsApi);
  return useQuery({
    queryKey: [...INCIDENTS_KEY, 'guest-form-data'],
    queryFn: () => api.guestFormData(),
    retry: false,
    staleTime: Infinity,
  });
}

export function useOsha300(siteId: string | null, year: number) {
  const api = useApi(incidentsApi);
  return useQuery({
    queryKey: [...INCIDENTS_KEY, 'osha300', siteId, year],
    queryFn: () => api.osha300({ query: { site_id: siteId!, year } }),
    enabled: Boolean(siteId),
  });
}

export function useOsha300a(siteId: string | null, year: number) {
  const api = useApi(incidentsApi);
  return useQuery({
    queryKey: [...INCIDENTS_KEY, 'osha300a', siteId, year],
    queryFn: () => api.osha300a({ query: { site_id: siteId!, year } }),
    enabled: Boolean(siteId),
  });
}

export function useOsha301(id: string | null, victimId: string | null) {
  const api = useApi(incidentsApi);
  return useQuery({
    queryKey: [...INCIDENTS_KEY, 'osha301', id, victimId],
    queryFn: () => api.osha301({ params: { id: id!, victim_id: victimId! } }),
    enabled: Boolean(id && victimId),
  });
}

/** The OSHA downloads: each form as a PDF and as a workbook. */
export function useOshaDownloads() {
  const api = useApi(incidentsApi);
  return {
    log: {
      pdf: async (site_id: string, year: number) => saveFile(await api.osha300Pdf.download({ query: { site_id, year } })),
      excel: async (site_id: string, year: number) =>
        saveFile(await api.osha300.download({ query: { site_id, year, export_to_excel: 'true' } })),
    },
    summary: {
      pdf: async (site_id: string, year: number) => saveFile(await api.osha300aPdf.download({ query: { site_id, year } })),
      excel: async (site_id: string, year: number) =>
        saveFile(await api.osha300a.download({ query: { site_id, year, export_to_excel: 'true' } })),
    },
    report: {
      pdf: async (id: string, victim_id: string) => saveFile(await api.osha301Pdf.download({ params: { id, victim_id } })),
      excel: async (id: string, victim_id: string) =>
        saveFile(await api.osha301.download({ params: { id, victim_id }, query: { export_to_excel: 'true' } })),
    },
  };
}

export function useIncidentsRefresh() {
  const client = useQueryClient();
  return () => client.invalidateQueries({ queryKey: INCIDENTS_KEY });
}

/** A self-registered guest: it reports and follows its own reports only. */
export function useIsGuest(): boolean {
  return useProfile()?.user.is_guest ?? false;
}

/** Whether the signed-in user holds an Incident right: the same `can()` as the server's guard. */
export function useIncidentRight(action: Action): boolean {
  const profile = useProfile();
  return profile ? can(principalFromProfile(profile).access, 'Incident', action) : false;
}

/** The signed-in user's id (the tour and "you hold this" read it). */
export function useMyId(): string | null {
  return useProfile()?.user.id ?? null;
}

/**
 * What the screens send. Forms show refusals under their fields, so these calls do not notify; each
 * step answers the incident as the requester now sees it, which replaces the cached record at once.
 */
export function useIncidentCommands() {
  const api = useApi(incidentsApi);
  const client = useQueryClient();
  const quiet = { notify: false };
  const keep = async (answer: Promise<{ incident: Incident }>) => {
    const { incident } = await answer;
    client.setQueryData(incidentKey(incident.id), incident);
    void client.invalidateQueries({ queryKey: INCIDENTS_KEY, predicate: (q) => q.queryKey[1] !== 'one' });
    return incident;
  };
  const p = (id: string) => ({ params: { id } });
  return {
    create: (body: IncidentCreateInput) => api.create({ body }, quiet),
    reportAsGuest: (body: IncidentGuestInput) => api.guestCreate({ body }),
    update: (id: string, body: IncidentUpdateInput) => keep(api.update({ ...p(id), body }, quiet)),
    team: (id: string, body: IncidentTeamInput) => keep(api.team({ ...p(id), body }, quiet)),
    facts: (id: string, body: IncidentFactsInput) => keep(api.facts({ ...p(id), body }, quiet)),
    keyFactors: (id: string, body: IncidentKeyFactorsInput) => keep(api.keyFactors({ ...p(id), body }, quiet)),
    whyAnalysis: (id: string, body: IncidentWhyAnalysisInput) => keep(api.whyAnalysis({ ...p(id), body }, quiet)),
    addActions: (id: string, body: IncidentCapaInput) => keep(api.addActions({ ...p(id), body }, quiet)),
    record: (id: string, body: IncidentRecordInput) => keep(api.record({ ...p(id), body }, quiet)),
    submit: (id: string) => keep(api.submit(p(id), quiet)),
    decide: (id: string, body: ReviewDecision) => keep(api.decide({ ...p(id), body }, quiet)),
    close: (id: string, remarks: string) => keep(api.close({ ...p(id), body: { remarks } }, quiet)),
    sendReport: (id: string, body: IncidentSendReportInput) => keep(api.sendReport({ ...p(id), body }, quiet)),
    remove: (id: string) => api.remove(p(id)),
    /** Uploads one file (a new report's, a guest's, or one for this incident) and answers the stored file. */
    upload: async (file: File, onProgress: (fraction: number) => void, to: { guest: true } | { incidentId: string } | null = null) => {
      if (to && 'guest' in to) return (await api.guestUploadAttachment({ file, onProgress })).file;
      if (to) return (await api.uploadForIncident({ params: { id: to.incidentId }, file, onProgress })).file;
      return (await api.uploadAttachment({ file, onProgress })).file;
    },
    downloadPdf: async (id: string) => saveFile(await api.reportPdf.download(p(id))),
  };
}

export type { Incident };
