import {
  settingsApi,
  sitesApi,
  type ActionSettings,
  type EhsOcp,
  type EhsOcpInput,
  type EmailSubscriptionsInput,
  type KpiSettingsInput,
} from '@bulwark/domain';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useApi } from '../../api/use-api.js';
import type { LoadedPage } from '../../ui/index.js';

/** Query keys of the settings screens. */
export const kpiKey = (year: number) => ['settings', 'kpi', year] as const;
export const OCP_KEY = ['settings', 'ehs-ocps'] as const;
export const SUBSCRIPTIONS_KEY = ['settings', 'email-subscriptions'] as const;
export const ACTION_SETTINGS_KEY = ['settings', 'actions'] as const;
/** Under the sites key, so a change of the sites reloads the procedure form's choices. */
const OCP_SITE_OPTIONS_KEY = ['sites', 'ocp-options'] as const;

/** The KPI targets of a year (the defaults until saved). */
export function useKpiSettings(year: number) {
  const api = useApi(settingsApi);
  return useQuery({ queryKey: kpiKey(year), queryFn: () => api.kpi({ query: { year } }) });
}

/** The organisation's action rules (closing needs someone other than the completer). */
export function useActionSettings() {
  const api = useApi(settingsApi);
  return useQuery({ queryKey: ACTION_SETTINGS_KEY, queryFn: () => api.actionSettings() });
}

/** The signed-in user's e-mail subscriptions. */
export function useEmailSubscriptions() {
  const api = useApi(settingsApi);
  return useQuery({ queryKey: SUBSCRIPTIONS_KEY, queryFn: () => api.emailSubscriptions() });
}

/** The procedures' pages, for `usePagedList`. */
export function useOcpListLoader(): (query: Record<string, string>) => Promise<LoadedPage<EhsOcp>> {
  const api = useApi(settingsApi);
  return async (query) => {
    const page = await api.ocps({ query });
    return { rows: page.ehs_ocps, pagination: page.pagination };
  };
}

/** The active sites a procedure may apply to (first 200, by name). */
export function useOcpSiteOptions() {
  const sites = useApi(sitesApi);
  return useQuery({
    queryKey: OCP_SITE_OPTIONS_KEY,
    queryFn: async () => (await sites.list({ query: { per_page: 200, active: 'active' } })).sites,
  });
}

/** What the settings screens send. Forms show refusals under their fields, so their calls do not notify. */
export function useSettingsCommands() {
  const api = useApi(settingsApi);
  const client = useQueryClient();
  const quiet = { notify: false };
  return {
    /** Saves a year's targets and shows what the server stored. */
    saveKpi: async (year: number, body: KpiSettingsInput) => {
      const saved = await api.saveKpi({ query: { year }, body }, quiet);
      client.setQueryData(kpiKey(year), saved);
      return saved;
    },
    /** Saves the organisation's action rules; the actions are reloaded, as who may close them changes. */
    saveActionSettings: async (body: ActionSettings) => {
      const saved = await api.saveActionSettings({ body }, quiet);
      client.setQueryData(ACTION_SETTINGS_KEY, saved);
      await client.invalidateQueries({ queryKey: ['actions'] });
      return saved;
    },
    /** Saves the user's choices and shows what the server stored. */
    saveEmailSubscriptions: async (body: EmailSubscriptionsInput) => {
      const saved = await api.saveEmailSubscriptions({ body }, quiet);
      client.setQueryData(SUBSCRIPTIONS_KEY, saved);
      return saved;
    },
    createOcp: (body: EhsOcpInput) => api.createOcp({ body }, quiet),
    updateOcp: (id: string, body: Partial<EhsOcpInput>) => api.updateOcp({ params: { id }, body }, quiet),
    /** Activates or deactivates a procedure from the list; a refusal is notified. */
    setOcpActive: (id: string, active: boolean) => api.updateOcp({ params: { id }, body: { active } }),
    refreshOcps: () => client.invalidateQueries({ queryKey: OCP_KEY }),
  };
}
