import { organizationsApi, REFRESH_HEADER, sessionApi, ssoApi, type ResponseOf, type SignInBody } from '@bulwark/domain';
import { useEffect, useMemo, useState } from 'react';
import { useApi } from '../../api/use-api.js';
import { useServices } from '../../app/services.js';

// Calls made without a usable session go through the plain client: their refusals belong to the form.
const plain = { mode: 'plain', notify: false } as const;

/** The calls of the signed-out screens (sign-in, organisation finder, password links) and of signing out. */
export function useAuthCommands() {
  const session = useApi(sessionApi);
  const organizations = useApi(organizationsApi);
  const services = useServices();
  return {
    signIn: (body: SignInBody) => session.signIn({ body }, plain),
    lookupOrganization: (subDomain: string) => organizations.lookup({ query: { sub_domain: subDomain } }, plain),
    requestPasswordReset: (email: string) => session.requestPasswordReset({ body: { email } }, plain),
    setNewPassword: (token: string, password: string) => session.resetPassword({ params: { token }, body: { password } }, plain),
    /** The first password of an invited user (spec 001 §4: verified once the activation link is used). */
    activateAccount: async (token: string, password: string) =>
      (await import('./activate-api.js')).activateAccount(services, token, password),
    /** Ends this session (or every session of the user) on the server; the caller clears locally whatever happens. */
    signOutOnServer: (everywhere: boolean) =>
      everywhere ? session.signOutEverywhere(undefined, plain) : session.signOut(undefined, plain),
    resetCurrentSession: (refreshToken: string) =>
      session.resetCurrentSession(undefined, { ...plain, headers: { [REFRESH_HEADER]: refreshToken } }),
  };
}

/**
 * Whether the organisation of this address offers single sign-on (the sign-in page's button). Read once
 * through the query cache (fetchQuery: same key, 60-second freshness, no retry) rather than useQuery,
 * whose observer would add a third of the sign-in page's own code for a value nobody invalidates.
 */
type SsoStatus = ResponseOf<typeof ssoApi.status>;

export function useSsoStatus(tenant: string, enabled: boolean): { data: SsoStatus | undefined } {
  const sso = useApi(ssoApi);
  const { queryClient } = useServices();
  const queryKey = useMemo(() => ['sso', 'status', tenant], [tenant]);
  const [data, setData] = useState(() => queryClient.getQueryData<SsoStatus>(queryKey));
  useEffect(() => {
    if (!enabled) return undefined;
    let live = true;
    queryClient.fetchQuery({ queryKey, queryFn: () => sso.status(undefined, plain), retry: false, staleTime: 60_000 }).then(
      (status) => live && setData(status),
      () => undefined, // No button then; the plain client has shown nothing, as before.
    );
    return () => {
      live = false;
    };
  }, [enabled, queryClient, queryKey, sso]);
  return { data: enabled ? data : undefined };
}
