import { organizationsApi, REFRESH_HEADER, sessionApi, ssoApi, usersApi, type SignInBody } from '@bulwark/domain';
import { useQuery } from '@tanstack/react-query';
import { useApi } from '../../api/use-api.js';

// Calls made without a usable session go through the plain client: their refusals belong to the form.
const plain = { mode: 'plain', notify: false } as const;

/** The calls of the signed-out screens (sign-in, organisation finder, password links) and of signing out. */
export function useAuthCommands() {
  const session = useApi(sessionApi);
  const organizations = useApi(organizationsApi);
  const users = useApi(usersApi);
  return {
    signIn: (body: SignInBody) => session.signIn({ body }, plain),
    lookupOrganization: (subDomain: string) => organizations.lookup({ query: { sub_domain: subDomain } }, plain),
    requestPasswordReset: (email: string) => session.requestPasswordReset({ body: { email } }, plain),
    setNewPassword: (token: string, password: string) => session.resetPassword({ params: { token }, body: { password } }, plain),
    /** The first password of an invited user (spec 001 §4: verified once the activation link is used). */
    activateAccount: (token: string, password: string) => users.activate({ body: { token, password } }, plain),
    /** Ends this session (or every session of the user) on the server; the caller clears locally whatever happens. */
    signOutOnServer: (everywhere: boolean) =>
      everywhere ? session.signOutEverywhere(undefined, plain) : session.signOut(undefined, plain),
    resetCurrentSession: (refreshToken: string) =>
      session.resetCurrentSession(undefined, { ...plain, headers: { [REFRESH_HEADER]: refreshToken } }),
  };
}

/** Whether the organisation of this address offers single sign-on (the sign-in page's button). */
export function useSsoStatus(tenant: string, enabled: boolean) {
  const sso = useApi(ssoApi);
  return useQuery({
    queryKey: ['sso', 'status', tenant],
    queryFn: () => sso.status(undefined, plain),
    enabled,
    retry: false,
    staleTime: 60_000,
  });
}
