import { fillPath, queryString, type CallInput, type Endpoint, type ResponseOf } from '@bulwark/domain';
import type { DownloadedFile, RequestOptions } from './http.js';
import { uploadWithProgress, type UploadProgress, type UploadServices } from './upload.js';

/** Per-call options: who shows a refusal, and (rarely) the plain client for a call that must not end a session. */
export type CallOptions = Pick<RequestOptions, 'notify' | 'mode' | 'headers'>;

/** An upload endpoint's input: the file, and progress when the screen shows it. */
type UploadInput<E> = E extends { upload: string }
  ? { file: File; fields?: Record<string, string>; onProgress?: UploadProgress; signal?: AbortSignal }
  : unknown;

export type Input<E> = CallInput<E> & UploadInput<E>;
type Args<E> = object extends Input<E> ? [input?: Input<E>, options?: CallOptions] : [input: Input<E>, options?: CallOptions];

/**
 * One endpoint as a function: `api.get({ params: { id } })` answers the contract's response type.
 * `download` reads a file answer (a PDF, a template, a list's `export_to_excel`).
 */
export type Caller<E> = ((...args: Args<E>) => Promise<ResponseOf<E>>) & {
  download: (...args: Args<E>) => Promise<DownloadedFile>;
  /** The address of a call, e.g. for a query key. */
  url: (...args: Args<E>) => string;
};

export type ApiClient<A> = { readonly [K in keyof A]: A[K] extends Endpoint ? Caller<A[K]> : never };

type Loose = { params?: Record<string, string | number>; query?: Record<string, unknown>; body?: unknown } & Partial<{
  file: File;
  fields: Record<string, string>;
  onProgress: UploadProgress;
  signal: AbortSignal;
}>;

function caller(services: UploadServices, endpoint: Endpoint): Caller<Endpoint> {
  // Signed-out calls go through the plain client: a refusal there must not try to end a session.
  const mode: RequestOptions['mode'] = 'public' in endpoint.access ? 'plain' : 'secured';
  const url = (input?: Loose) => `${fillPath(endpoint.path, input?.params)}${queryString(input?.query)}`;

  const call = async (input?: Loose, options: CallOptions = {}) => {
    const opts: RequestOptions = { mode, ...options };
    if (endpoint.upload) {
      if (!input?.file) throw new Error(`${endpoint.id}: an upload needs a file`);
      const form = new FormData();
      for (const [k, v] of Object.entries(input.fields ?? {})) form.append(k, v);
      form.append('file', input.file, input.file.name);
      // fetch cannot tell how far a body has gone; a screen that shows progress goes through XHR.
      if (input.onProgress) {
        const method = endpoint.method === 'PATCH' || endpoint.method === 'PUT' ? endpoint.method : 'POST';
        return uploadWithProgress(services, url(input), form, input.onProgress, input.signal, method);
      }
      return send(url(input), form, opts);
    }
    return send(url(input), input?.body, opts);
  };
  const send = (path: string, body: unknown, opts: RequestOptions) => {
    const { http } = services;
    switch (endpoint.method) {
      case 'GET':
        return http.get(path, opts);
      case 'DELETE':
        return http.delete(path, opts);
      case 'POST':
        return http.post(path, body, opts);
      case 'PUT':
        return http.put(path, body, opts);
      case 'PATCH':
        return http.patch(path, body, opts);
    }
  };
  const download = async (input?: Loose, options: CallOptions = {}) => {
    const file = await services.http.download(url(input), { mode, ...options });
    if (!file) throw new Error(`${endpoint.id}: no file in the answer`);
    return file;
  };
  return Object.assign(call, { download, url }) as unknown as Caller<Endpoint>;
}

const clients = new WeakMap<UploadServices, WeakMap<object, unknown>>();

/**
 * The typed client of a module's API over the app's services. Built once per services and API, so a
 * hook that holds it keeps the same functions between renders.
 */
export function bindApi<A extends Record<string, Endpoint>>(services: UploadServices, api: A): ApiClient<A> {
  let perApi = clients.get(services);
  if (!perApi) {
    perApi = new WeakMap();
    clients.set(services, perApi);
  }
  const known = perApi.get(api);
  if (known) return known as ApiClient<A>;
  const client = Object.fromEntries(
    Object.entries(api).map(([name, endpoint]) => [name, caller(services, endpoint)]),
  ) as unknown as ApiClient<A>;
  perApi.set(api, client);
  return client;
}
