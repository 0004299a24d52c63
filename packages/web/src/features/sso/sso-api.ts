import type { SignInResponse, SsoConfigBody, SsoConfigResponse } from '@bulwark/domain';
import type { HttpClient } from '../../api/http.js';

// Signed-out calls: their refusals belong to the page, not to a session that does not exist yet.
const plain = { mode: 'plain', notify: false } as const;

/** Where the browser goes to start a single sign-on (a full navigation: the server redirects to the provider). */
export const SSO_START_PATH = '/api/sso/authorize';

export function getSsoStatus(http: HttpClient): Promise<{ enabled: boolean } | null> {
  return http.get<{ enabled: boolean }>('/api/sso/status', plain);
}

export function exchangeSsoCode(http: HttpClient, code: string): Promise<SignInResponse | null> {
  return http.post<SignInResponse>('/api/sso/exchange', { code }, plain);
}

export function getSsoSettings(http: HttpClient): Promise<SsoConfigResponse | null> {
  return http.get<SsoConfigResponse>('/api/sso_configs', { notify: false });
}

export function saveSsoSettings(http: HttpClient, body: SsoConfigBody): Promise<SsoConfigResponse | null> {
  return http.request<SsoConfigResponse>('PUT', '/api/sso_configs', { body, notify: false });
}

export function removeSsoSettings(http: HttpClient): Promise<unknown> {
  return http.delete('/api/sso_configs');
}
