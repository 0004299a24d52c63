import {
  auditsApi,
  can,
  type Action,
  type Audit,
  type AuditAnswerInput,
  type AuditCalendarInput,
  type AuditCompleteInput,
  type AuditDecisionInput,
  type AuditKeyFindingsInput,
  type AuditNotesInput,
  type AuditReportSettingsInput,
  type AuditSendReportInput,
  type AuditSummaryInput,
  type AuditUpdateInput,
  type Subject,
} from '@bulwark/domain';
import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import { useApi } from '../../api/use-api.js';
import { principalFromProfile } from '../../app/profile.js';
import { useProfile } from '../../app/use-profile.js';
import { saveFile } from '../../ui/index.js';

/**
 * Every call of the audit screens but the templates'. Every query starts with 'audits': a push on the
 * 'audits' channel (an audit made by the job, an answer, a decision, an action of a key finding
 * moving) invalidates them all, so lists, the calendar and an open report follow without a reload.
 */
export const AUDITS_KEY = ['audits'] as const;
export const auditKey = (id: string) => [...AUDITS_KEY, 'one', id] as const;

/** The list filters as the address holds them: strings only, absent when empty. */
export type AuditFilterQuery = Record<string, string>;

export function useAuditFormData() {
  const api = useApi(auditsApi);
  return useQuery({ queryKey: [...AUDITS_KEY, 'form-data'], queryFn: () => api.formData(), staleTime: 60_000 });
}

export function useAuditPage(query: AuditFilterQuery, enabled = true) {
  const api = useApi(auditsApi);
  return useQuery({
    queryKey: [...AUDITS_KEY, 'list', query],
    queryFn: () => api.list({ query }),
    placeholderData: keepPreviousData,
    enabled,
  });
}

export function useAuditCounts(filters: AuditFilterQuery) {
  const api = useApi(auditsApi);
  return useQuery({
    queryKey: [...AUDITS_KEY, 'counts', filters],
    queryFn: async () => (await api.statusCounts({ query: filters })).counts,
    placeholderData: keepPreviousData,
  });
}

export function useAuditsBySite(filters: AuditFilterQuery, enabled = true) {
  const api = useApi(auditsApi);
  return useQuery({
    queryKey: [...AUDITS_KEY, 'by-site', filters],
    queryFn: async () => (await api.bySite({ query: filters })).sites,
    placeholderData: keepPreviousData,
    enabled,
  });
}

/** Exactly the rows the list shows, as a workbook (by audit, or by site). */
export function useAuditExport() {
  const api = useApi(auditsApi);
  return {
    byAudit: (query: AuditFilterQuery) => api.list.download({ query: { ...query, export_to_excel: 'true' } }),
    bySite: (query: AuditFilterQuery) => api.bySite.download({ query: { ...query, export_to_excel: 'true' } }),
  };
}

export function useAudit(id: string | undefined) {
  const api = useApi(auditsApi);
  return useQuery({
    queryKey: auditKey(id ?? ''),
    queryFn: async () => (await api.get({ params: { id: id! } }, { notify: false })).audit,
    enabled: Boolean(id),
    retry: false,
  });
}

export function useAuditTotals(id: string) {
  const api = useApi(auditsApi);
  return useQuery({ queryKey: [...auditKey(id), 'totals'], queryFn: () => api.totalSummary({ params: { id } }) });
}

export function useAuditReport(id: string) {
  const api = useApi(auditsApi);
  return useQuery({
    queryKey: [...auditKey(id), 'report'],
    queryFn: async () => (await api.report({ params: { id } }, { notify: false })).report,
    retry: false,
  });
}

export function useAuditSummaryInfo(body: AuditSummaryInput) {
  const api = useApi(auditsApi);
  return useQuery({
    queryKey: [...AUDITS_KEY, 'summary-info', body],
    queryFn: () => api.summaryInfo({ body }),
    placeholderData: keepPreviousData,
  });
}

export function useAuditCalendar(body: AuditCalendarInput) {
  const api = useApi(auditsApi);
  return useQuery({
    queryKey: [...AUDITS_KEY, 'calendar', body],
    queryFn: () => api.schedulesInfo({ body }),
    placeholderData: keepPreviousData,
  });
}

/** The trends filters (months 'YYYY-MM'), absent when empty. */
export type AuditTrendsFilter = Partial<Record<'template_id' | 'site_id' | 'from' | 'to', string>>;

export function useAuditTrends(query: AuditTrendsFilter) {
  const api = useApi(auditsApi);
  return useQuery({
    queryKey: [...AUDITS_KEY, 'trends', query],
    queryFn: () => api.trends({ query }),
    placeholderData: keepPreviousData,
  });
}

export function useReportSettings(enabled = true) {
  const api = useApi(auditsApi);
  return useQuery({
    queryKey: [...AUDITS_KEY, 'report-settings'],
    queryFn: async () => (await api.reportSettings()).settings,
    enabled,
  });
}

/** Whether the signed-in user holds a right: the same `can()` as the server's guard. */
export function useAuditRight(subject: Subject, action: Action): boolean {
  const profile = useProfile();
  return profile ? can(principalFromProfile(profile).access, subject, action) : false;
}

/** One stored upload of a running audit, as answers, notes and key findings name it. */
export type UploadedFile = { id: string; file_name: string; mime_type: string; size_bytes: number; url: string };
export type UploadKind = 'photo' | 'document';

/**
 * What the audit screens send. Forms show refusals themselves, so these calls do not notify; an
 * answer that changes the audit replaces the cached record at once and the lists reload.
 */
export function useAuditCommands() {
  const api = useApi(auditsApi);
  const client = useQueryClient();
  const quiet = { notify: false };
  const p = (id: string) => ({ params: { id } });
  const keep = async (answer: Promise<{ audit: Audit }>) => {
    const { audit } = await answer;
    client.setQueryData(auditKey(audit.id), audit);
    void client.invalidateQueries({ queryKey: AUDITS_KEY, predicate: (q) => !(q.queryKey[1] === 'one' && q.queryKey.length === 3) });
    return audit;
  };
  return {
    start: (id: string, comment: string | null = null) => keep(api.start({ ...p(id), body: { comment } }, quiet)),
    resume: (id: string, comment: string | null = null) => keep(api.resume({ ...p(id), body: { comment } }, quiet)),
    /** One answer; the caller (the save queue) keeps the record in step with what it answers. */
    answer: (id: string, body: AuditAnswerInput) => api.answer({ ...p(id), body }, quiet),
    notes: (id: string, body: AuditNotesInput) => keep(api.notes({ ...p(id), body }, quiet)),
    keyFindings: (id: string, body: AuditKeyFindingsInput) => keep(api.keyFindings({ ...p(id), body }, quiet)),
    complete: (id: string, body: AuditCompleteInput) => keep(api.complete({ ...p(id), body }, quiet)),
    decide: (id: string, body: AuditDecisionInput) => keep(api.decide({ ...p(id), body }, quiet)),
    update: (id: string, body: AuditUpdateInput) => keep(api.update({ ...p(id), body }, quiet)),
    sendReport: (id: string, body: AuditSendReportInput) => keep(api.sendReport({ ...p(id), body }, quiet)),
    remove: async (id: string) => {
      await api.remove(p(id), quiet);
      client.removeQueries({ queryKey: auditKey(id) });
      void client.invalidateQueries({ queryKey: AUDITS_KEY });
    },
    upload: async (id: string, kind: UploadKind, file: File, onProgress: (fraction: number) => void): Promise<UploadedFile> => {
      const call = kind === 'photo' ? api.uploadPhoto : api.uploadDocument;
      return (await call({ ...p(id), file, onProgress })).file;
    },
    removeUpload: (fileId: string) => api.removeUpload(p(fileId), quiet),
    downloadPdf: async (id: string) => saveFile(await api.reportPdf.download(p(id))),
    refresh: (id: string) => client.invalidateQueries({ queryKey: auditKey(id) }),
    /** Puts an answer's effect into the cached record without reading it again. */
    patchCached: (id: string, change: (a: Audit) => Audit) => {
      client.setQueryData<Audit>(auditKey(id), (a) => (a ? change(a) : a));
    },
  };
}

/** The report settings (logo, parts included, header line): Audit Template update. */
export function useReportSettingsCommands() {
  const api = useApi(auditsApi);
  const client = useQueryClient();
  return {
    save: async (body: AuditReportSettingsInput) => {
      const { settings } = await api.saveReportSettings({ body }, { notify: false });
      client.setQueryData([...AUDITS_KEY, 'report-settings'], settings);
      void client.invalidateQueries({ queryKey: AUDITS_KEY, predicate: (q) => q.queryKey[3] === 'report' });
      return settings;
    },
    uploadLogo: async (file: File, onProgress: (fraction: number) => void) => (await api.uploadReportLogo({ file, onProgress })).file,
  };
}
