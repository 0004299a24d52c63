import { CSRF_HEADER, LANGUAGE_HEADER, TENANT_HEADER } from '@bulwark/domain';
import type { i18n as I18n } from 'i18next';
import { currentLanguage } from '../i18n/setup.js';
import { ApiError, errorCode, errorFields, errorText } from './api-error.js';
import type { HttpClient } from './http.js';
import type { SessionStore } from './session-store.js';
import { tenantOfHost } from './tenant-host.js';

export type UploadProgress = (fraction: number) => void;

type Sent = { status: number; payload: unknown };

/**
 * Sends one file as multipart (`file`) and reports progress. The HTTP client runs on fetch, which
 * cannot tell how much of a body has gone; a photo from a phone on a site's weak signal can take a
 * while, so attachments go through XMLHttpRequest with the same headers. A refused token is refreshed
 * once, as the HTTP client does.
 */
/** What an upload needs of the app's services. */
export type UploadServices = { http: HttpClient; session: SessionStore; i18n: I18n; location: { host: string } };

export async function uploadWithProgress<T>(
  services: UploadServices,
  path: string,
  form: FormData,
  onProgress: UploadProgress,
  signal?: AbortSignal,
  method: 'POST' | 'PATCH' | 'PUT' = 'POST',
): Promise<T> {
  const send = () =>
    new Promise<Sent>((resolve, reject) => {
      const xhr = new XMLHttpRequest();
      // The endpoint's own method: a PATCH upload sent as POST finds no route.
      xhr.open(method, path);
      xhr.withCredentials = true;
      xhr.setRequestHeader('Accept', 'application/json');
      xhr.setRequestHeader(TENANT_HEADER, tenantOfHost(services.location.host));
      xhr.setRequestHeader(LANGUAGE_HEADER, currentLanguage(services.i18n));
      const tokens = services.session.tokens();
      if (tokens) {
        xhr.setRequestHeader('Authorization', `Bearer ${tokens.token}`);
        xhr.setRequestHeader(CSRF_HEADER, tokens.csrf);
      }
      xhr.upload.onprogress = (e) => {
        if (e.lengthComputable && e.total > 0) onProgress(e.loaded / e.total);
      };
      xhr.onload = () => {
        resolve({ status: xhr.status, payload: parseJson(xhr.responseText) });
      };
      xhr.onerror = () => reject(new ApiError(services.i18n.t('errors.somethingWentWrong'), 0, 'network'));
      xhr.onabort = () => reject(new ApiError(services.i18n.t('errors.somethingWentWrong'), 0, 'aborted'));
      signal?.addEventListener('abort', () => xhr.abort(), { once: true });
      xhr.send(form);
    });

  let sent = await send();
  if ((sent.status === 401 || sent.status === 403) && services.session.tokens() && (await services.http.refresh())) {
    onProgress(0);
    sent = await send();
  }
  if (sent.status >= 200 && sent.status < 300) {
    onProgress(1);
    return sent.payload as T;
  }
  throw new ApiError(
    errorText(sent.payload, '', services.i18n.t('errors.somethingWentWrong')),
    sent.status,
    errorCode(sent.payload) ?? 'http_error',
    errorFields(sent.payload),
  );
}

function parseJson(text: string): unknown {
  if (!text) return null;
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}
