import { ssoApi, type SsoConfigBody } from '@bulwark/domain';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useApi } from '../../api/use-api.js';

/** Where the browser goes to start a single sign-on (a full navigation: the server redirects to the provider). */
export const SSO_START_PATH = ssoApi.authorize.path;

export const SSO_SETTINGS_KEY = ['sso', 'settings'] as const;

/** The calls of /sso: signed out, so their refusals belong to the page (the client sends them plainly). */
export function useSsoSignInCommands() {
  const api = useApi(ssoApi);
  return { exchange: (code: string) => api.exchange({ body: { code } }, { notify: false }) };
}

/** The organisation's settings (organisation admin). */
export function useSsoSettings(enabled: boolean) {
  const api = useApi(ssoApi);
  return useQuery({ queryKey: SSO_SETTINGS_KEY, queryFn: () => api.settings(undefined, { notify: false }), enabled, retry: false });
}

/** What the settings form sends; the form shows the refusals of a save under its fields. */
export function useSsoSettingsCommands() {
  const api = useApi(ssoApi);
  const queryClient = useQueryClient();
  return {
    save: async (body: SsoConfigBody) => {
      const saved = await api.saveSettings({ body }, { notify: false });
      queryClient.setQueryData(SSO_SETTINGS_KEY, saved);
      return saved;
    },
    remove: async () => {
      await api.removeSettings();
      await queryClient.invalidateQueries({ queryKey: SSO_SETTINGS_KEY });
    },
  };
}
