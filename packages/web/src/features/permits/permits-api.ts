import {
  can,
  permitsApi,
  permitTemplatesApi,
  usersApi,
  type Action,
  type Permit,
  type PermitCounts,
  type PermitCreateInput,
  type PermitListItem,
  type PermitUpdateInput,
  type Subject,
} from '@bulwark/domain';
import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import { useApi } from '../../api/use-api.js';
import { principalFromProfile } from '../../app/profile.js';
import { useProfile } from '../../app/use-profile.js';
import { saveFile, type LoadedPage } from '../../ui/index.js';

/**
 * Every call of the permit request screens (list, request flow, summary). Every query starts with
 * 'permits': a push on the 'permits' channel invalidates them all, so a list, a summary or the board
 * follows another person's move without a reload.
 */
export const PERMITS_KEY = ['permits'] as const;
export const permitKey = (id: string) => [...PERMITS_KEY, 'one', id] as const;

export function usePermitCounts(query: Record<string, string>) {
  const api = useApi(permitsApi);
  return useQuery<PermitCounts>({
    queryKey: [...PERMITS_KEY, 'counts', query],
    queryFn: async () => (await api.counts({ query })).counts,
    placeholderData: keepPreviousData,
  });
}

/** The list's pages, for `usePagedList`. */
export function usePermitListLoader(): (query: Record<string, string>) => Promise<LoadedPage<PermitListItem>> {
  const api = useApi(permitsApi);
  return async (query) => {
    const page = await api.list({ query });
    return { rows: page.permits, pagination: page.pagination };
  };
}

/** Exactly the filtered rows as a workbook. */
export function usePermitListExport(query: Record<string, string>) {
  const api = useApi(permitsApi);
  return () => api.list.download({ query });
}

export function usePermit(id: string | undefined) {
  const api = useApi(permitsApi);
  return useQuery({
    queryKey: permitKey(id ?? ''),
    queryFn: async () => (await api.get({ params: { id: id! } }, { notify: false })).permit,
    enabled: Boolean(id),
    retry: false,
  });
}

/** The fillable form of one template (sections, sites with areas, masters). */
export function usePermitForm(templateId: string | undefined) {
  const api = useApi(permitTemplatesApi);
  return useQuery({
    queryKey: [...PERMITS_KEY, 'form', templateId ?? ''],
    queryFn: () => api.form({ params: { id: templateId! } }, { notify: false }),
    enabled: Boolean(templateId),
    retry: false,
    staleTime: 60_000,
  });
}

/**
 * The switched-on templates a requester chooses from. The contract of the template list asks for
 * Permit Form Setting read (see the report: a requester with Permit create alone is refused).
 */
export function useEnabledTemplates() {
  const api = useApi(permitTemplatesApi);
  return useQuery({
    queryKey: [...PERMITS_KEY, 'enabled-templates'],
    queryFn: async () => (await api.list({ query: { enabled: 'true' } }, { notify: false })).templates,
    retry: false,
  });
}

/** Members who read permits, to share a draft with. */
export function usePermitReaders() {
  const api = useApi(usersApi);
  return useQuery({
    queryKey: [...PERMITS_KEY, 'readers'],
    queryFn: async () => (await api.moduleAtSite({ query: { module: 'permits' } })).users,
    staleTime: 60_000,
  });
}

export function usePermitsRefresh() {
  const client = useQueryClient();
  return () => client.invalidateQueries({ queryKey: PERMITS_KEY });
}

/** Whether the signed-in person holds a right: the same `can()` as the server's guard. */
export function useRight(subject: Subject, action: Action): boolean {
  const profile = useProfile();
  return profile ? can(principalFromProfile(profile).access, subject, action) : false;
}

/** Who is signed in (id, admin, may issue permits). */
export function useMe() {
  const profile = useProfile();
  return {
    id: profile?.user.id ?? null,
    isAdmin: profile?.user.is_admin ?? false,
    canIssuePermit: profile?.user.can_issue_permit ?? false,
  };
}

/**
 * What the screens send. Forms show refusals where they belong, so these calls do not notify; each
 * command answers the permit as the viewer now sees it, which replaces the cached one.
 */
export function usePermitCommands() {
  const api = useApi(permitsApi);
  const client = useQueryClient();
  const quiet = { notify: false };
  const fresh = (permit: Permit) => {
    client.setQueryData(permitKey(permit.id), permit);
    void client.invalidateQueries({ queryKey: PERMITS_KEY, predicate: (q) => q.queryKey[1] !== 'one' });
    return permit;
  };
  const one = (id: string) => ({ params: { id } });
  return {
    create: async (body: PermitCreateInput) => {
      const answer = await api.create({ body }, quiet);
      fresh(answer.permit);
      return answer;
    },
    update: async (id: string, body: PermitUpdateInput) => fresh((await api.update({ ...one(id), body }, quiet)).permit),
    remove: (id: string) => api.remove(one(id), quiet),
    share: async (id: string, userId: string) =>
      fresh((await api.shareDraft({ params: { permit_id: id }, body: { user_id: userId } }, quiet)).permit),
    unshare: async (id: string, userId: string) => {
      await api.unshareDraft({ params: { id, user_id: userId } }, quiet);
      await client.invalidateQueries({ queryKey: PERMITS_KEY });
    },
    submit: async (id: string) => fresh((await api.submit(one(id), quiet)).permit),
    approve: async (id: string, comment: string) => fresh((await api.approve({ ...one(id), body: { comment } }, quiet)).permit),
    reject: async (id: string, comment: string) => fresh((await api.reject({ ...one(id), body: { comment } }, quiet)).permit),
    requestExtension: async (id: string, declaration: string) =>
      fresh((await api.requestExtension({ ...one(id), body: { declaration } }, quiet)).permit),
    revoke: async (id: string, comment: string) => fresh((await api.revoke({ ...one(id), body: { comment } }, quiet)).permit),
    close: async (id: string, answers: Record<string, string | string[] | null>, comment: string) =>
      fresh((await api.close({ ...one(id), body: { answers, comment } }, quiet)).permit),
    clone: async (id: string) => (await api.clone(one(id), quiet)).id,
    downloadPdf: async (id: string) => saveFile(await api.report.download(one(id))),
    printable: (id: string) => api.printable(one(id)),
    /** Uploads one file of the request (an attachment question's answer) and answers its id. */
    uploadAttachment: async (file: File, onProgress: (fraction: number) => void) =>
      (await api.uploadAttachment({ file, onProgress })).file.id,
    /** Uploads one file of the closure checklist. */
    uploadClosureAttachment: async (id: string, file: File, onProgress: (fraction: number) => void) =>
      (await api.uploadClosureAttachment({ params: { id }, file, onProgress })).file.id,
  };
}

export type { Permit };

/** The printable permit: its public status page's address and that address as a QR code (SVG). */
export function usePrintable(id: string) {
  const api = useApi(permitsApi);
  return useQuery({
    queryKey: [...permitKey(id), 'printable'],
    queryFn: () => api.printable({ params: { id } }, { notify: false }),
    retry: false,
  });
}
