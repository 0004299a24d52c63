import type {
  ExtendRequest,
  Plan,
  PlatformExtendRequest,
  RegistrationBody,
  RegistrationCreated,
  RegistrationVerified,
  SubdomainAvailability,
} from '@bulwark/domain';
import type { HttpClient } from '../../api/http.js';

/** Sign-up calls go through the plain client: there is no session to refresh or end. */
const plain = { mode: 'plain' as const };

export async function registerOrganization(http: HttpClient, body: RegistrationBody): Promise<RegistrationCreated> {
  return (await http.post<RegistrationCreated>('/api/organizations', body, plain))!;
}

export async function checkSubdomain(
  http: HttpClient,
  query: { sub_domain?: string; company_name?: string },
): Promise<SubdomainAvailability> {
  const q = Object.fromEntries(Object.entries(query).filter(([, v]) => v)) as Record<string, string>;
  return (await http.get<SubdomainAvailability>('/api/registrations/sub_domain_availability', { ...plain, query: q }))!;
}

export async function verifyRegistration(http: HttpClient, id: string, code: string): Promise<RegistrationVerified> {
  return (await http.post<RegistrationVerified>(`/api/registrations/${encodeURIComponent(id)}/verify`, { code }, plain))!;
}

export async function resendCode(http: HttpClient, id: string): Promise<{ expires_at: string; resend_after: string }> {
  return (await http.post<{ expires_at: string; resend_after: string }>(`/api/registrations/${encodeURIComponent(id)}/resend`, {}, plain))!;
}

export const PLAN_KEY = ['registration', 'plan'] as const;
export async function loadPlan(http: HttpClient): Promise<Plan> {
  return (await http.get<Plan>('/api/v1/plan'))!;
}

export async function requestExtension(http: HttpClient, organizationId: string, reason: string): Promise<ExtendRequest> {
  return (await http.post<ExtendRequest>(
    `/api/organizations/${organizationId}/org_free_trial_extend_requests`,
    { reason },
    { notify: false },
  ))!;
}

export const EXTEND_REQUESTS_KEY = ['registration', 'extend-requests'] as const;
export async function listAllExtendRequests(http: HttpClient, status: string | null): Promise<PlatformExtendRequest[]> {
  const res = await http.get<{ requests: PlatformExtendRequest[] }>(
    '/api/v1/org_free_trial_extend_requests',
    status ? { query: { status } } : {},
  );
  return res?.requests ?? [];
}

export async function approveExtension(http: HttpClient, id: string, days: number): Promise<PlatformExtendRequest> {
  return (await http.post<PlatformExtendRequest>(`/api/v1/org_free_trial_extend_requests/${id}/approve`, { days }, { notify: false }))!;
}

export async function rejectExtension(http: HttpClient, id: string, reason: string): Promise<PlatformExtendRequest> {
  return (await http.post<PlatformExtendRequest>(`/api/v1/org_free_trial_extend_requests/${id}/reject`, { reason }, { notify: false }))!;
}
