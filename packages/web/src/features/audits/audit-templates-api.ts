import {
  auditSchedulesApi,
  auditTemplatesApi,
  type AuditScheduleCreateInput,
  type AuditScheduleUpdateInput,
  type AuditSectionSaveInput,
  type AuditTemplateCloneInput,
  type AuditTemplateCreateInput,
  type AuditTemplateDetail,
  type AuditTemplateUpdateInput,
} from '@bulwark/domain';
import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import { useApi } from '../../api/use-api.js';
import { AUDITS_KEY } from './audits-api.js';

/**
 * The calls of the template screens (/audit-forms, /audit-forms/:id) and of the schedules. Template
 * queries start with 'audit-templates' (a template changes only here); schedules live under 'audits',
 * so the push channel refreshes them with the audits they make.
 */
export const TEMPLATES_KEY = ['audit-templates'] as const;
export const templateKey = (id: string) => [...TEMPLATES_KEY, 'one', id] as const;
const SCHEDULES_KEY = [...AUDITS_KEY, 'schedules'] as const;

export function useAuditTemplates(search: string, type: string | null) {
  const api = useApi(auditTemplatesApi);
  return useQuery({
    queryKey: [...TEMPLATES_KEY, 'list', search, type],
    queryFn: () => api.list({ query: { ...(search ? { search } : {}), ...(type ? { type } : {}) } }),
    placeholderData: keepPreviousData,
  });
}

export function useAuditTemplate(id: string | undefined) {
  const api = useApi(auditTemplatesApi);
  return useQuery({
    queryKey: templateKey(id ?? ''),
    queryFn: async () => (await api.get({ params: { id: id! } }, { notify: false })).template,
    enabled: Boolean(id),
    retry: false,
  });
}

/** What the template screens send; each answer updates the cached template, so the builder and its preview follow. */
export function useAuditTemplateCommands(templateId?: string) {
  const api = useApi(auditTemplatesApi);
  const client = useQueryClient();
  const quiet = { notify: false };
  const setTemplate = (t: AuditTemplateDetail) => {
    client.setQueryData(templateKey(t.id), t);
    void client.invalidateQueries({ queryKey: [...TEMPLATES_KEY, 'list'] });
    // The schedule form offers templates by name and switch.
    void client.invalidateQueries({ queryKey: [...AUDITS_KEY, 'form-data'] });
  };
  const refresh = async () => {
    if (!templateId) return;
    await client.invalidateQueries({ queryKey: templateKey(templateId) });
    void client.invalidateQueries({ queryKey: [...TEMPLATES_KEY, 'list'] });
  };
  return {
    create: async (body: AuditTemplateCreateInput) => {
      const t = (await api.create({ body }, quiet)).template;
      setTemplate(t);
      return t;
    },
    update: async (id: string, body: AuditTemplateUpdateInput) => {
      const t = (await api.update({ params: { id }, body }, quiet)).template;
      setTemplate(t);
      return t;
    },
    clone: async (id: string, body: AuditTemplateCloneInput) => {
      const t = (await api.clone({ params: { id }, body }, quiet)).template;
      setTemplate(t);
      return t;
    },
    remove: async (id: string) => {
      await api.remove({ params: { id } }, quiet);
      client.removeQueries({ queryKey: templateKey(id) });
      await client.invalidateQueries({ queryKey: [...TEMPLATES_KEY, 'list'] });
    },
    addSection: async (id: string, body: AuditSectionSaveInput) => {
      const s = (await api.addSection({ params: { id }, body }, quiet)).section;
      await refresh();
      return s;
    },
    saveSection: async (id: string, sectionId: string, body: AuditSectionSaveInput) => {
      const s = (await api.saveSection({ params: { id, section_id: sectionId }, body }, quiet)).section;
      await refresh();
      return s;
    },
    moveSection: async (id: string, sectionId: string, position: number) => {
      await api.updateFormType({ params: { id, form_type_id: sectionId }, body: { position } }, quiet);
      await refresh();
    },
    switchSection: async (id: string, sectionId: string, active: boolean) => {
      await api.updateFormType({ params: { id, form_type_id: sectionId }, body: { active } }, quiet);
      await refresh();
    },
    removeSection: async (id: string, sectionId: string) => {
      await api.removeSection({ params: { id, section_id: sectionId } }, quiet);
      await refresh();
    },
  };
}

/** The schedule list's query as the page holds it: strings only, absent when empty. */
export type AuditScheduleFilter = Record<string, string>;

export function useAuditSchedules(query: AuditScheduleFilter) {
  const api = useApi(auditSchedulesApi);
  return useQuery({
    queryKey: [...SCHEDULES_KEY, query],
    queryFn: () => api.list({ query }),
    placeholderData: keepPreviousData,
  });
}

export function useScheduleCommands() {
  const api = useApi(auditSchedulesApi);
  const client = useQueryClient();
  const quiet = { notify: false };
  // A schedule makes audits at once (those due today): every audit list and the calendar move with it.
  const changed = () => client.invalidateQueries({ queryKey: AUDITS_KEY });
  return {
    create: async (body: AuditScheduleCreateInput) => {
      const s = (await api.create({ body }, quiet)).schedule;
      void changed();
      return s;
    },
    update: async (id: string, body: AuditScheduleUpdateInput) => {
      const s = (await api.update({ params: { id }, body }, quiet)).schedule;
      void changed();
      return s;
    },
    remove: async (id: string) => {
      await api.remove({ params: { id } }, quiet);
      void changed();
    },
  };
}
