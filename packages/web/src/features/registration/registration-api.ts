import { guestsApi, registrationApi, type ExtendRequestStatus, type GuestSignupBody, type RegistrationBody } from '@bulwark/domain';
import { useQuery } from '@tanstack/react-query';
import { useApi } from '../../api/use-api.js';

/**
 * Every call of the registration screens: sign-up (signed out, so the client sends them plainly), the
 * plan and the extension requests, and guest accounts.
 */
export const PLAN_KEY = ['registration', 'plan'] as const;
export const EXTEND_REQUESTS_KEY = ['registration', 'extend-requests'] as const;

type SubdomainQuery = { sub_domain?: string; company_name?: string };

/** Leaves out empty values: an empty sub_domain would be checked instead of suggested from the company. */
function filled(query: SubdomainQuery): SubdomainQuery {
  return Object.fromEntries(Object.entries(query).filter(([, v]) => v));
}

/** The live check of a sub-domain as the person types (`settled` is the debounced value; empty checks nothing). */
export function useSubdomainCheck(settled: string) {
  const api = useApi(registrationApi);
  return useQuery({
    queryKey: ['registration', 'sub-domain', settled],
    queryFn: () => api.subdomainAvailability({ query: filled({ sub_domain: settled }) }),
    enabled: settled !== '',
    staleTime: 10_000,
    retry: false,
  });
}

/** What the sign-up screens send (steps 1 and 2, a new code, a sub-domain suggested from the company name). */
export function useSignUpCommands() {
  const api = useApi(registrationApi);
  return {
    register: (body: RegistrationBody) => api.register({ body }),
    suggestSubdomain: (companyName: string) => api.subdomainAvailability({ query: filled({ company_name: companyName }) }),
    verify: (registrationId: string, code: string) => api.verify({ params: { registration_id: registrationId }, body: { code } }),
    resend: (registrationId: string) => api.resend({ params: { registration_id: registrationId } }),
  };
}

/** The plan of the signed-in user's organisation (the trial banner reads it only during a trial). */
export function usePlan(enabled: boolean) {
  const api = useApi(registrationApi);
  return useQuery({ queryKey: PLAN_KEY, queryFn: () => api.plan(), enabled, staleTime: 60_000 });
}

/** Every organisation's extension requests with this status, or all of them (platform admin). */
export function useExtendRequests(status: ExtendRequestStatus | null) {
  const api = useApi(registrationApi);
  return useQuery({
    queryKey: [...EXTEND_REQUESTS_KEY, status ?? 'all'],
    queryFn: async () => (await api.extendRequests({ query: status ? { status } : {} })).requests,
  });
}

/** What the trial banner and the platform admin's screen send. Forms show refusals, so these do not notify. */
export function useExtensionCommands() {
  const api = useApi(registrationApi);
  const quiet = { notify: false };
  return {
    request: (organizationId: string, reason: string) =>
      api.requestExtension({ params: { organization_id: organizationId }, body: { reason } }, quiet),
    approve: (id: string, days: number) => api.approveExtension({ params: { id }, body: { days } }, quiet),
    reject: (id: string, reason: string) => api.rejectExtension({ params: { id }, body: { reason } }, quiet),
  };
}

/** Whether the organisation of this address accepts guest accounts (signed out). */
export function useGuestAvailability() {
  const api = useApi(guestsApi);
  return useQuery({ queryKey: ['guest-availability'], queryFn: () => api.availability(), retry: false });
}

export function useGuestCommands() {
  const api = useApi(guestsApi);
  return { signUp: (body: GuestSignupBody) => api.signUp({ body }) };
}
