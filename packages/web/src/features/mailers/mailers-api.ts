import { mailersApi, type Language, type MailerTexts, type MailOutboxItem } from '@bulwark/domain';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useApi } from '../../api/use-api.js';

/** Query keys of the mailers screens; a save invalidates everything under `MAILERS_KEY`. */
export const MAILERS_KEY = ['mailers'] as const;
export const modulesKey = (orgId: string) => [...MAILERS_KEY, orgId, 'modules'] as const;
export const scenariosKey = (orgId: string, moduleId: number) => [...MAILERS_KEY, orgId, 'scenarios', moduleId] as const;
export const scenarioKey = (orgId: string, moduleId: number, scenarioId: string) =>
  [...MAILERS_KEY, orgId, 'scenario', moduleId, scenarioId] as const;
export const outboxKey = (page: number) => [...MAILERS_KEY, 'outbox', page] as const;

export const OUTBOX_STATUS_COLOR: Record<MailOutboxItem['status'], string> = {
  pending: 'yellow',
  sent: 'teal',
  failed: 'red',
  kept: 'gray',
};

const validModule = (moduleId: number) => Number.isInteger(moduleId) && moduleId > 0;

/** The modules that send mail, with how many scenarios each has customised. */
export function useMailerModules(orgId: string) {
  const api = useApi(mailersApi);
  return useQuery({
    queryKey: modulesKey(orgId),
    queryFn: async () => (await api.modules({ params: { id: orgId } })).modules,
  });
}

/** The scenarios of one module; a missing module is shown by the screen, not notified. */
export function useMailerScenarios(orgId: string, moduleId: number) {
  const api = useApi(mailersApi);
  return useQuery({
    queryKey: scenariosKey(orgId, moduleId),
    queryFn: () => api.scenarios({ params: { id: orgId, moduleId } }, { notify: false }),
    enabled: validModule(moduleId),
    retry: false,
  });
}

/** One scenario's texts in every language. */
export function useMailerScenario(orgId: string, moduleId: number, scenarioId: string) {
  const api = useApi(mailersApi);
  return useQuery({
    queryKey: scenarioKey(orgId, moduleId, scenarioId),
    queryFn: () => api.scenario({ params: { id: orgId, moduleId, scenarioId } }, { notify: false }),
    enabled: validModule(moduleId),
    retry: false,
  });
}

/** What the scenario editor sends; both answer the scenario as it now stands. */
export function useMailerCommands(orgId: string, moduleId: number, scenarioId: string) {
  const api = useApi(mailersApi);
  const params = { id: orgId, moduleId, scenarioId };
  return {
    /** The form shows the refusal under its fields. */
    save: (language: Language, texts: MailerTexts) => api.saveTemplate({ params, body: { language, ...texts } }, { notify: false }),
    reset: (language: Language) => api.resetTemplate({ params, query: { language } }),
  };
}

/** A page of the organisation's outbox (the previous page stays on screen while the next loads). */
export function useOutbox(page: number, perPage: number) {
  const api = useApi(mailersApi);
  return useQuery({
    queryKey: outboxKey(page),
    queryFn: () => api.outbox({ query: { page, per_page: perPage } }),
    placeholderData: keepPreviousData,
  });
}
