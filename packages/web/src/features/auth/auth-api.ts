import { REFRESH_HEADER, type SignInBody, type SignInResponse } from '@bulwark/domain';
import type { HttpClient } from '../../api/http.js';

// Calls made without a usable session go through the plain client: their refusals belong to the form.
const plain = { mode: 'plain', notify: false } as const;

export function signIn(http: HttpClient, body: SignInBody): Promise<SignInResponse | null> {
  return http.post<SignInResponse>('/api/v1/authorize', body, plain);
}

export function lookupOrganization(http: HttpClient, subDomain: string): Promise<{ found: boolean } | null> {
  return http.get<{ found: boolean }>('/api/v1/organizations/lookup', { ...plain, query: { sub_domain: subDomain } });
}

export function requestPasswordReset(http: HttpClient, email: string): Promise<{ message: string } | null> {
  return http.post<{ message: string }>('/api/v1/password_resets', { email }, plain);
}

export function setNewPassword(http: HttpClient, token: string, password: string): Promise<{ message: string } | null> {
  return http.post<{ message: string }>(`/api/v1/password_resets/${encodeURIComponent(token)}`, { password }, plain);
}

/** The first password of an invited user (spec 001 §4: verified once the activation link is used). */
export function activateAccount(http: HttpClient, token: string, password: string): Promise<{ ok: true } | null> {
  return http.post<{ ok: true }>('/api/users/activate', { token, password }, plain);
}

/** Ends this session (or every session of the user) on the server; the caller clears locally whatever happens. */
export function signOutOnServer(http: HttpClient, everywhere: boolean): Promise<unknown> {
  return http.delete(everywhere ? '/api/v2/user_logout' : '/api/v1/user_token', plain);
}

export function resetCurrentSession(http: HttpClient, refreshToken: string): Promise<unknown> {
  return http.post('/api/v1/reset_current_session', undefined, { ...plain, headers: { [REFRESH_HEADER]: refreshToken } });
}
