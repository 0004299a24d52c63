import {
  permitTemplatesApi,
  type PermitSectionSaveInput,
  type PermitTemplateCreateInput,
  type PermitTemplateDetail,
  type PermitTemplateUpdateInput,
} from '@bulwark/domain';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useApi } from '../../api/use-api.js';

/**
 * Every call of the template screens (/permit-forms, /permit-forms/:id). Their queries start with
 * 'permit-templates': the permits channel does not touch them (a template changes only here).
 */
export const TEMPLATES_KEY = ['permit-templates'] as const;
export const templateKey = (id: string) => [...TEMPLATES_KEY, 'one', id] as const;

export function usePermitTemplates(search: string) {
  const api = useApi(permitTemplatesApi);
  return useQuery({
    queryKey: [...TEMPLATES_KEY, 'list', search],
    queryFn: async () => (await api.list({ query: search ? { search } : {} })).templates,
    placeholderData: (previous) => previous,
  });
}

export function usePermitTemplate(id: string | undefined) {
  const api = useApi(permitTemplatesApi);
  return useQuery({
    queryKey: templateKey(id ?? ''),
    queryFn: async () => (await api.get({ params: { id: id! } }, { notify: false })).template,
    enabled: Boolean(id),
    retry: false,
  });
}

/**
 * What the template screens send. Each answer updates the cached template, so the builder and its
 * preview show what the server now holds.
 */
export function useTemplateCommands(templateId?: string) {
  const api = useApi(permitTemplatesApi);
  const client = useQueryClient();
  const quiet = { notify: false };
  const setTemplate = (t: PermitTemplateDetail) => {
    client.setQueryData(templateKey(t.id), t);
    void client.invalidateQueries({ queryKey: [...TEMPLATES_KEY, 'list'] });
    // The request form of this template follows.
    void client.invalidateQueries({ queryKey: ['permits', 'form', t.id] });
    void client.invalidateQueries({ queryKey: ['permits', 'enabled-templates'] });
  };
  /** A section answer changes one template: read it again (sections carry positions of the others too). */
  const refresh = async () => {
    if (!templateId) return;
    await client.invalidateQueries({ queryKey: templateKey(templateId) });
    void client.invalidateQueries({ queryKey: ['permits', 'form', templateId] });
  };
  return {
    create: async (body: PermitTemplateCreateInput) => {
      const t = (await api.create({ body }, quiet)).template;
      setTemplate(t);
      return t;
    },
    update: async (id: string, body: PermitTemplateUpdateInput) => {
      const t = (await api.update({ params: { id }, body }, quiet)).template;
      setTemplate(t);
      // Conflicts are kept both ways: the other templates changed too.
      if (body.conflict_template_ids) void client.invalidateQueries({ queryKey: TEMPLATES_KEY });
      return t;
    },
    remove: async (id: string) => {
      await api.remove({ params: { id } }, quiet);
      client.removeQueries({ queryKey: templateKey(id) });
      await client.invalidateQueries({ queryKey: [...TEMPLATES_KEY, 'list'] });
    },
    addSection: async (id: string, body: PermitSectionSaveInput) => {
      const s = (await api.addSection({ params: { id }, body }, quiet)).section;
      await refresh();
      return s;
    },
    saveSection: async (id: string, sectionId: string, body: PermitSectionSaveInput) => {
      const s = (await api.saveSection({ params: { permit_id: id, section_id: sectionId }, body }, quiet)).section;
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
      await api.removeSection({ params: { permit_id: id, section_id: sectionId } }, quiet);
      await refresh();
    },
    /** Sets a saved question's reference image. */
    referenceImage: async (questionId: string, file: File, onProgress: (fraction: number) => void) => {
      const q = (await api.referenceImage({ params: { id: questionId }, file, onProgress })).question;
      await refresh();
      return q;
    },
  };
}
