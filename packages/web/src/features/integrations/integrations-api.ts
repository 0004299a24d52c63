import {
  apiTokensApi,
  dataExportApi,
  usersApi,
  webhooksApi,
  type ApiTokenCreateBody,
  type DataExport,
  type ServiceAccountCreateBody,
  type ServiceAccountUpdateBody,
  type WebhookCreateBody,
  type WebhookUpdateBody,
} from '@bulwark/domain';
import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import { useApi } from '../../api/use-api.js';
import { saveFile } from '../../ui/index.js';

/** Service accounts and their tokens (no push channel: this screen is the only one that changes them). */
export const API_TOKENS_KEY = ['api-tokens'] as const;
/** Under the push channel's name: a delivery's outcome (`webhooks`) refreshes the lists. */
export const WEBHOOKS_KEY = ['webhooks'] as const;
/** Under the push channel's name: the requester's export progress (`data_exports`) refreshes the list. */
export const DATA_EXPORTS_KEY = ['data_exports'] as const;

/** While an export is being built, the list is read again this often (the push only reaches its requester). */
const EXPORT_POLL_MS = 3000;

export function useServiceAccounts() {
  const api = useApi(apiTokensApi);
  return useQuery({ queryKey: API_TOKENS_KEY, queryFn: async () => (await api.list()).service_accounts });
}

/** The roles a service account may be given (the user forms' options). */
export function useRoleOptions() {
  const api = useApi(usersApi);
  return useQuery({
    queryKey: [...API_TOKENS_KEY, 'roles'],
    queryFn: async () => (await api.formOptions()).roles.map((r) => ({ value: r.id, label: r.name })),
    staleTime: 60_000,
  });
}

/**
 * What the API tokens tab sends. Forms show refusals under their fields (quiet); revoking lets the
 * HTTP client notify a refusal.
 */
export function useApiTokenCommands() {
  const api = useApi(apiTokensApi);
  const client = useQueryClient();
  const quiet = { notify: false };
  const refresh = () => client.invalidateQueries({ queryKey: API_TOKENS_KEY });
  return {
    createAccount: async (body: ServiceAccountCreateBody) => {
      const { service_account } = await api.create({ body }, quiet);
      await refresh();
      return service_account;
    },
    updateAccount: async (id: string, body: ServiceAccountUpdateBody) => {
      await api.update({ params: { id }, body }, quiet);
      await refresh();
    },
    /** The answer's `secret` is the only time the token is seen. */
    createToken: async (accountId: string, body: ApiTokenCreateBody) => {
      const created = await api.createToken({ params: { id: accountId }, body }, quiet);
      await refresh();
      return created;
    },
    revokeToken: async (id: string) => {
      await api.revokeToken({ params: { id } });
      await refresh();
    },
  };
}

export function useWebhooks() {
  const api = useApi(webhooksApi);
  return useQuery({ queryKey: [...WEBHOOKS_KEY, 'list'], queryFn: () => api.list() });
}

/** An endpoint's deliveries, a page at a time; `enabled` once the endpoint is known to exist. */
export function useWebhookDeliveries(id: string, page: number, enabled: boolean) {
  const api = useApi(webhooksApi);
  return useQuery({
    enabled,
    queryKey: [...WEBHOOKS_KEY, 'deliveries', id, page],
    queryFn: () => api.deliveries({ params: { id }, query: { page, per_page: 25 } }),
    placeholderData: keepPreviousData,
  });
}

/** What the webhooks tab sends; create, update and rotate answer the secret where there is one. */
export function useWebhookCommands() {
  const api = useApi(webhooksApi);
  const client = useQueryClient();
  const quiet = { notify: false };
  const refresh = () => client.invalidateQueries({ queryKey: WEBHOOKS_KEY });
  return {
    create: async (body: WebhookCreateBody) => {
      const answer = await api.create({ body }, quiet);
      await refresh();
      return answer;
    },
    update: async (id: string, body: WebhookUpdateBody, options: { quiet?: boolean } = {}) => {
      await api.update({ params: { id }, body }, options.quiet ? quiet : {});
      await refresh();
    },
    remove: async (id: string) => {
      await api.remove({ params: { id } });
      client.removeQueries({ queryKey: [...WEBHOOKS_KEY, 'deliveries', id] });
      await refresh();
    },
    rotateSecret: async (id: string) => {
      const answer = await api.rotateSecret({ params: { id } });
      await refresh();
      return answer.secret;
    },
    sendTest: async (id: string) => {
      const answer = await api.sendTest({ params: { id } });
      await refresh();
      return answer.delivery;
    },
  };
}

const building = (e: DataExport) => e.status === 'queued' || e.status === 'running';

/** The organisation's exports; read again every few seconds while one is being built. */
export function useDataExports() {
  const api = useApi(dataExportApi);
  return useQuery({
    queryKey: [...DATA_EXPORTS_KEY, 'list'],
    queryFn: async () => (await api.list()).exports,
    refetchInterval: (query) => (query.state.data?.some(building) ? EXPORT_POLL_MS : false),
  });
}

export function useDataExportCommands() {
  const api = useApi(dataExportApi);
  const client = useQueryClient();
  return {
    start: async () => {
      await api.start();
      await client.invalidateQueries({ queryKey: DATA_EXPORTS_KEY });
    },
    /** The archive comes with the session's headers, so it is fetched and handed to the browser. */
    download: async (id: string) => saveFile(await api.download.download({ params: { id } })),
  };
}

export { building as isExportBuilding };
