import { CSRF_HEADER, LANGUAGE_HEADER, REFRESH_HEADER, sessionApi, TENANT_HEADER, tokenPairResponse } from '@bulwark/domain';
import { ApiError, errorCode, errorFields, errorText, isSessionEndingCode } from './api-error.js';
import { createFailureCounter } from './failure-counter.js';
import type { SessionStore } from './session-store.js';

export type HttpDeps = {
  fetch: (input: string, init: RequestInit) => Promise<Response>;
  now: () => number;
  session: SessionStore;
  /** Leaves the current screen (replace); the app passes the router's navigate. */
  navigate: (to: string) => void;
  /** Shows an error notification (top right in the app). */
  notifyError: (message: string) => void;
  translate: (key: string) => string;
  tenant: () => string;
  language: () => string;
  /**
   * True while the page is being left (reload, typed address): the browser cancels calls in flight,
   * which are not failures of the service and must not end the session (spec 000 §8 counter).
   */
  leaving?: () => boolean;
};

export type RequestOptions = {
  body?: unknown;
  query?: Record<string, string>;
  headers?: Record<string, string>;
  /**
   * 'secured' (default) is the signed-in client: refresh on 401/403, failure counter, session-ending
   * codes. 'plain' is the spec's second client for sign-in, password reset, the organisation lookup
   * and signing out: a wrong password must stay on the form, not end a session that does not exist.
   */
  mode?: 'secured' | 'plain';
  /** Secured calls notify their error unless the screen shows it itself (forms). */
  notify?: boolean;
  /** 'blob' reads a successful answer as a file (Excel exports, templates) instead of JSON. */
  responseType?: 'json' | 'blob';
};

export type DownloadedFile = { blob: Blob; fileName: string };

export type HttpClient = {
  request<T>(method: string, path: string, options?: RequestOptions): Promise<T | null>;
  get<T>(path: string, options?: RequestOptions): Promise<T | null>;
  post<T>(path: string, body?: unknown, options?: RequestOptions): Promise<T | null>;
  patch<T>(path: string, body?: unknown, options?: RequestOptions): Promise<T | null>;
  put<T>(path: string, body?: unknown, options?: RequestOptions): Promise<T | null>;
  delete<T>(path: string, options?: RequestOptions): Promise<T | null>;
  /** A file answer (e.g. `?export_to_excel=true`) with the name the server gave it. */
  download(path: string, options?: RequestOptions): Promise<DownloadedFile | null>;
  /** Refreshes the tokens, sharing one call between concurrent callers (the push client uses it). */
  refresh(): Promise<boolean>;
};

export const REFRESH_PATH = sessionApi.refresh.path;
export const RESET_SESSION_PATH = sessionApi.resetCurrentSession.path;

type Outcome = { response: Response; payload: unknown };

export function createHttpClient(deps: HttpDeps): HttpClient {
  const failures = createFailureCounter(deps.now);
  let refreshing: Promise<boolean> | null = null;
  let ending: Promise<void> | null = null;

  const somethingWentWrong = (): string => deps.translate('errors.somethingWentWrong');

  function headers(extra: Record<string, string> = {}, hasBody = false): Record<string, string> {
    const tokens = deps.session.tokens();
    const h: Record<string, string> = {
      Accept: 'application/json',
      [TENANT_HEADER]: deps.tenant(),
      [LANGUAGE_HEADER]: deps.language(),
      'Cache-Control': 'no-cache',
      Pragma: 'no-cache',
    };
    if (tokens) {
      h.Authorization = `Bearer ${tokens.token}`;
      h[CSRF_HEADER] = tokens.csrf;
    }
    if (hasBody) h['Content-Type'] = 'application/json';
    return { ...h, ...extra };
  }

  async function send(method: string, path: string, options: RequestOptions): Promise<Outcome> {
    const url = options.query ? `${path}?${new URLSearchParams(options.query).toString()}` : path;
    const hasBody = options.body !== undefined;
    // A form (file upload) sets its own multipart content type and boundary.
    const isForm = typeof FormData !== 'undefined' && options.body instanceof FormData;
    const init: RequestInit = {
      method,
      headers: headers(options.headers, hasBody && !isForm),
      credentials: 'include',
      cache: 'no-store',
    };
    if (hasBody) init.body = isForm ? (options.body as FormData) : JSON.stringify(options.body);
    const response = await deps.fetch(url, init);
    if (options.responseType === 'blob' && response.ok) {
      return { response, payload: { blob: await response.blob(), fileName: fileNameOf(response) } satisfies DownloadedFile };
    }
    return { response, payload: await readPayload(response) };
  }

  async function doRefresh(refreshToken: string): Promise<boolean> {
    try {
      const response = await deps.fetch(REFRESH_PATH, {
        method: 'POST',
        headers: headers({ [REFRESH_HEADER]: refreshToken }),
        credentials: 'include',
        cache: 'no-store',
      });
      if (!response.ok) return false;
      const pair = tokenPairResponse.safeParse(await readPayload(response));
      if (!pair.success) return false;
      // The refresh token rotates on every use: the old one is dead from now on.
      deps.session.saveTokens(pair.data);
      return true;
    } catch {
      return false;
    }
  }

  /** `tokenUsed` is the access token the failed call carried; if it is no longer current, another call already refreshed. */
  function refreshOnce(tokenUsed?: string): Promise<boolean> {
    const current = deps.session.tokens();
    if (!current) return Promise.resolve(false);
    if (tokenUsed !== undefined && current.token !== tokenUsed) return Promise.resolve(true);
    refreshing ??= doRefresh(current.refresh).finally(() => {
      refreshing = null;
    });
    return refreshing;
  }

  /** The refresh failed: tell the server to drop the session (result ignored), forget it here, sign in again. */
  function endSession(): Promise<void> {
    ending ??= (async () => {
      const refreshToken = deps.session.tokens()?.refresh;
      if (refreshToken) {
        try {
          await deps.fetch(RESET_SESSION_PATH, {
            method: 'POST',
            headers: headers({ [REFRESH_HEADER]: refreshToken }),
            credentials: 'include',
            cache: 'no-store',
          });
        } catch {
          // Ignored on purpose: the session is over whatever the server answers.
        }
      }
      deps.session.clear();
      failures.succeed();
      deps.navigate('/login');
    })().finally(() => {
      ending = null;
    });
    return ending;
  }

  function countFailure(): void {
    if (failures.fail()) {
      deps.session.clear();
      deps.navigate('/login');
    }
  }

  async function request<T>(method: string, path: string, options: RequestOptions = {}): Promise<T | null> {
    const secured = (options.mode ?? 'secured') === 'secured';
    const notify = options.notify ?? secured;
    const tokenUsed = deps.session.tokens()?.token;

    let outcome: Outcome;
    let refreshed = false;
    try {
      outcome = await send(method, path, options);
      const { status } = outcome.response;
      if (secured && (status === 401 || status === 403) && !isSessionEndingCode(errorCode(outcome.payload))) {
        if (!(await refreshOnce(tokenUsed))) {
          await endSession();
          throw new ApiError(deps.translate('errors.session_expired'), 401, 'session_expired');
        }
        refreshed = true;
        outcome = await send(method, path, options);
      }
    } catch (error) {
      if (error instanceof ApiError) throw error;
      // Network failure, aborted call or unreadable body: no server text to show.
      const failure = new ApiError(somethingWentWrong(), 0, 'network');
      const cancelled = (error instanceof DOMException && error.name === 'AbortError') || deps.leaving?.() === true;
      if (secured && !cancelled) {
        if (notify) deps.notifyError(failure.message);
        countFailure();
      }
      throw failure;
    }

    const { response, payload } = outcome;
    if (response.ok) {
      if (secured) failures.succeed();
      // 203 is the server's "nothing here" answer to some reads (spec 000 §8).
      if (response.status === 203 || response.status === 204) return null;
      return (payload ?? null) as T | null;
    }

    const code = errorCode(payload) ?? 'http_error';
    const error = new ApiError(errorText(payload, response.statusText, somethingWentWrong()), response.status, code, errorFields(payload));
    if (!secured) throw error;

    if (isSessionEndingCode(code)) {
      deps.notifyError(error.message);
      deps.navigate('/logout');
      throw error;
    }
    if (refreshed && response.status === 401) {
      // Fresh tokens were refused: the session cannot be used any more.
      await endSession();
      throw error;
    }
    // A 403 after a good refresh is a real permission refusal: say so, keep the user signed in.
    if (notify || (refreshed && response.status === 403)) deps.notifyError(error.message);
    // Only a failing service counts towards the sign-out (DECISIONS.md): a 4xx is the server answering,
    // e.g. a form refused three times, and it ends a streak as a success does.
    if (response.status >= 500) countFailure();
    else failures.succeed();
    throw error;
  }

  return {
    request,
    get: (path, options) => request('GET', path, options),
    post: (path, body, options) => request('POST', path, { ...options, body }),
    patch: (path, body, options) => request('PATCH', path, { ...options, body }),
    put: (path, body, options) => request('PUT', path, { ...options, body }),
    delete: (path, options) => request('DELETE', path, options),
    download: (path, options) => request<DownloadedFile>('GET', path, { ...options, responseType: 'blob' }),
    refresh: () => refreshOnce(),
  };
}

/** The file name of a Content-Disposition header (RFC 6266, including the UTF-8 form), or "download". */
export function fileNameOf(response: Response): string {
  const header = response.headers.get('content-disposition') ?? '';
  const star = /filename\*=UTF-8''([^;]+)/i.exec(header);
  if (star?.[1]) {
    try {
      return decodeURIComponent(star[1]);
    } catch {
      // fall through to the plain form
    }
  }
  const plain = /filename="?([^";]+)"?/i.exec(header);
  return plain?.[1] ?? 'download';
}

async function readPayload(response: Response): Promise<unknown> {
  const text = await response.text();
  if (!text) return null;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return null;
  }
}
