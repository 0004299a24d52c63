import { describe, expect, it, vi } from 'vitest';
import { FAILURE_RESET_WINDOW_MS, FAILURE_THRESHOLD } from '@bulwark/domain';
import { ApiError } from './api-error.js';
import { createHttpClient, REFRESH_PATH, RESET_SESSION_PATH, type HttpDeps } from './http.js';
import { createMemoryStorage, createSessionStore } from './session-store.js';

type Reply = { status: number; body?: unknown; statusText?: string } | Error;
type Call = { url: string; init: RequestInit; headers: Record<string, string> };

function json(reply: Exclude<Reply, Error>): Response {
  const body = reply.body === undefined ? null : JSON.stringify(reply.body);
  return new Response(body, { status: reply.status, statusText: reply.statusText ?? '' });
}

/** A fake server: each path answers from its own queue (the last answer repeats). */
function setup(routes: Record<string, Reply[]> = {}, signedIn = true, leaving?: () => boolean) {
  const calls: Call[] = [];
  let clock = 1_000_000;
  const session = createSessionStore(createMemoryStorage());
  if (signedIn) session.saveTokens({ token: 't1', csrf: 'c1', refresh: 'r1' });
  const navigate = vi.fn<(to: string) => void>();
  const notifyError = vi.fn<(message: string) => void>();
  const fetch = vi.fn(async (url: string, init: RequestInit) => {
    calls.push({ url, init, headers: init.headers as Record<string, string> });
    const path = url.split('?')[0]!;
    const queue = routes[path];
    if (!queue || queue.length === 0) throw new Error(`unexpected call ${url}`);
    const reply = queue.length > 1 ? queue.shift()! : queue[0]!;
    if (reply instanceof Error) throw reply;
    return json(reply);
  });
  const deps: HttpDeps = {
    fetch,
    now: () => clock,
    session,
    navigate,
    notifyError,
    translate: (key) => `t:${key}`,
    tenant: () => 'demo',
    language: () => 'es',
    ...(leaving ? { leaving } : {}),
  };
  const http = createHttpClient(deps);
  return {
    http,
    session,
    calls,
    navigate,
    notifyError,
    fetch,
    tick: (ms: number) => {
      clock += ms;
    },
    callsTo: (path: string) => calls.filter((c) => c.url.split('?')[0] === path),
  };
}

const tokens = (n: number) => ({ status: 200, body: { token: `t${n}`, csrf: `c${n}`, refresh: `r${n}`, expires_in: 900 } });

describe('request headers', () => {
  it('sends bearer, CSRF, tenant, language and no-cache headers with credentials', async () => {
    const s = setup({ '/api/x': [{ status: 200, body: { a: 1 } }] });
    await expect(s.http.get('/api/x', { query: { q: 'v w' } })).resolves.toEqual({ a: 1 });
    const call = s.calls[0]!;
    expect(call.url).toBe('/api/x?q=v+w');
    expect(call.init.credentials).toBe('include');
    expect(call.headers).toMatchObject({
      Authorization: 'Bearer t1',
      'x-csrf-token': 'c1',
      'x-tenant': 'demo',
      'accept-language': 'es',
      'Cache-Control': 'no-cache',
      Pragma: 'no-cache',
    });
  });

  it('sends a JSON body with its content type', async () => {
    const s = setup({ '/api/x': [{ status: 200, body: {} }] });
    await s.http.post('/api/x', { email: 'a@b.c' });
    expect(s.calls[0]!.init.body).toBe('{"email":"a@b.c"}');
    expect(s.calls[0]!.headers['Content-Type']).toBe('application/json');
  });

  it('omits the bearer header when nobody is signed in', async () => {
    const s = setup({ '/api/x': [{ status: 200, body: {} }] }, false);
    await s.http.get('/api/x', { mode: 'plain' });
    expect(s.calls[0]!.headers.Authorization).toBeUndefined();
    expect(s.calls[0]!.headers['x-tenant']).toBe('demo');
  });
});

describe('empty results', () => {
  it('treats 203 as an empty result', async () => {
    const s = setup({ '/api/x': [{ status: 203, body: { ignored: true } }] });
    await expect(s.http.get('/api/x')).resolves.toBeNull();
  });
});

describe('refresh on 401 and 403', () => {
  it.each([401, 403])('refreshes once on %i, stores the rotated tokens and retries', async (status) => {
    const s = setup({
      '/api/x': [
        { status, body: { errors: ['expired'], code: 'session_expired' } },
        { status: 200, body: { ok: 1 } },
      ],
      [REFRESH_PATH]: [tokens(2)],
    });
    await expect(s.http.get('/api/x')).resolves.toEqual({ ok: 1 });
    const refresh = s.callsTo(REFRESH_PATH);
    expect(refresh).toHaveLength(1);
    expect(refresh[0]!.init.method).toBe('POST');
    expect(refresh[0]!.headers['x-refresh-token']).toBe('r1');
    expect(s.session.tokens()).toEqual({ token: 't2', csrf: 'c2', refresh: 'r2' });
    const retry = s.callsTo('/api/x')[1]!;
    expect(retry.headers.Authorization).toBe('Bearer t2');
    expect(retry.headers['x-csrf-token']).toBe('c2');
    expect(s.navigate).not.toHaveBeenCalled();
    expect(s.notifyError).not.toHaveBeenCalled();
  });

  it('uses the newest refresh token for the next refresh (rotation)', async () => {
    const s = setup({
      '/api/x': [{ status: 401 }, { status: 200, body: {} }, { status: 401 }, { status: 200, body: {} }],
      [REFRESH_PATH]: [tokens(2), tokens(3)],
    });
    await s.http.get('/api/x');
    await s.http.get('/api/x');
    expect(s.callsTo(REFRESH_PATH).map((c) => c.headers['x-refresh-token'])).toEqual(['r1', 'r2']);
    expect(s.session.tokens()?.refresh).toBe('r3');
  });

  it('shares one refresh call between concurrent 401s', async () => {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const s = setup({
      '/api/a': [{ status: 401 }, { status: 200, body: 'a' }],
      '/api/b': [{ status: 401 }, { status: 200, body: 'b' }],
      '/api/c': [{ status: 401 }, { status: 200, body: 'c' }],
      [REFRESH_PATH]: [tokens(2)],
    });
    const inner = s.fetch.getMockImplementation()!;
    let refreshStarted = 0;
    s.fetch.mockImplementation(async (url, init) => {
      if (url === REFRESH_PATH) {
        refreshStarted += 1;
        await gate;
      }
      return inner(url, init);
    });
    const all = Promise.all([s.http.get('/api/a'), s.http.get('/api/b'), s.http.get('/api/c')]);
    // All three 401s arrive while the refresh is still pending.
    await vi.waitFor(() => expect(s.callsTo('/api/a').length + s.callsTo('/api/b').length + s.callsTo('/api/c').length).toBe(3));
    await vi.waitFor(() => expect(refreshStarted).toBe(1));
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(refreshStarted).toBe(1);
    release();
    await expect(all).resolves.toEqual(['a', 'b', 'c']);
    expect(s.callsTo(REFRESH_PATH)).toHaveLength(1);
  });

  it('retries without refreshing again when another call already rotated the token', async () => {
    const s = setup({ '/api/x': [{ status: 401 }, { status: 200, body: 1 }], [REFRESH_PATH]: [tokens(9)] });
    const inner = s.fetch.getMockImplementation()!;
    s.fetch.mockImplementationOnce(async (url, init) => {
      // While this call is in flight another one refreshed the session.
      s.session.saveTokens({ token: 't5', csrf: 'c5', refresh: 'r5' });
      return inner(url, init);
    });
    await expect(s.http.get('/api/x')).resolves.toBe(1);
    expect(s.callsTo(REFRESH_PATH)).toHaveLength(0);
    expect(s.callsTo('/api/x')[1]!.headers.Authorization).toBe('Bearer t5');
  });

  it('when the refresh fails: resets the session, clears storage and goes to /login', async () => {
    const s = setup({
      '/api/x': [{ status: 401 }],
      [REFRESH_PATH]: [{ status: 401, body: { errors: ['no'], code: 'session_expired' } }],
      [RESET_SESSION_PATH]: [{ status: 500 }],
    });
    const error = await s.http.get('/api/x').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    const reset = s.callsTo(RESET_SESSION_PATH);
    expect(reset).toHaveLength(1);
    expect(reset[0]!.init.method).toBe('POST');
    expect(reset[0]!.headers['x-refresh-token']).toBe('r1');
    expect(s.session.tokens()).toBeNull();
    expect(s.navigate).toHaveBeenCalledWith('/login');
    expect(s.callsTo('/api/x')).toHaveLength(1);
  });

  it('a network failure of the refresh also ends the session, even if the reset call fails', async () => {
    const s = setup({
      '/api/x': [{ status: 401 }],
      [REFRESH_PATH]: [new TypeError('offline')],
      [RESET_SESSION_PATH]: [new TypeError('offline')],
    });
    await expect(s.http.get('/api/x')).rejects.toBeInstanceOf(ApiError);
    expect(s.session.tokens()).toBeNull();
    expect(s.navigate).toHaveBeenCalledWith('/login');
  });

  it('a 403 that persists after a good refresh is a permission error, not a sign-out', async () => {
    const s = setup({
      '/api/x': [{ status: 403, body: { errors: ['Permission denied.'], code: 'forbidden' } }],
      [REFRESH_PATH]: [tokens(2)],
    });
    const error = (await s.http.get('/api/x', { notify: false }).catch((e: unknown) => e)) as ApiError;
    expect(error.status).toBe(403);
    expect(error.code).toBe('forbidden');
    expect(s.notifyError).toHaveBeenCalledWith('Permission denied.');
    expect(s.session.tokens()?.token).toBe('t2');
    expect(s.navigate).not.toHaveBeenCalled();
    expect(s.callsTo(RESET_SESSION_PATH)).toHaveLength(0);
    expect(s.callsTo('/api/x')).toHaveLength(2);
  });

  it('a 401 that persists after a good refresh ends the session', async () => {
    const s = setup({
      '/api/x': [{ status: 401 }],
      [REFRESH_PATH]: [tokens(2)],
      [RESET_SESSION_PATH]: [{ status: 200, body: { ok: true } }],
    });
    await expect(s.http.get('/api/x')).rejects.toBeInstanceOf(ApiError);
    expect(s.callsTo(REFRESH_PATH)).toHaveLength(1);
    expect(s.session.tokens()).toBeNull();
    expect(s.navigate).toHaveBeenCalledWith('/login');
  });

  it('the plain client never refreshes (a wrong password stays on the form)', async () => {
    const s = setup(
      {
        '/api/v1/authorize': [
          {
            status: 401,
            body: { errors: ['Incorrect password.'], code: 'incorrect_password', fields: { password: 'Incorrect password.' } },
          },
        ],
      },
      false,
    );
    const error = (await s.http.post('/api/v1/authorize', {}, { mode: 'plain' }).catch((e: unknown) => e)) as ApiError;
    expect(error.code).toBe('incorrect_password');
    expect(error.fields).toEqual({ password: 'Incorrect password.' });
    expect(s.callsTo(REFRESH_PATH)).toHaveLength(0);
    expect(s.navigate).not.toHaveBeenCalled();
    expect(s.notifyError).not.toHaveBeenCalled();
  });
});

describe('session-ending codes', () => {
  it.each(['account_inactive', 'organization_inactive', 'not_registered'])('%s goes to /logout without a refresh', async (code) => {
    const s = setup({ '/api/x': [{ status: 403, body: { errors: ['inactive'], code } }] });
    await expect(s.http.get('/api/x')).rejects.toMatchObject({ code });
    expect(s.navigate).toHaveBeenCalledWith('/logout');
    expect(s.callsTo(REFRESH_PATH)).toHaveLength(0);
  });
});

describe('failure counter', () => {
  const failing = (n: number): Reply[] => Array.from({ length: n }, () => ({ status: 500, body: { errors: ['boom'], code: 'internal' } }));

  it(`clears the session and goes to /login after ${FAILURE_THRESHOLD} consecutive failures`, async () => {
    const s = setup({ '/api/x': failing(FAILURE_THRESHOLD) });
    for (let i = 0; i < FAILURE_THRESHOLD - 1; i++) await s.http.get('/api/x').catch(() => undefined);
    expect(s.navigate).not.toHaveBeenCalled();
    expect(s.session.tokens()).not.toBeNull();
    await s.http.get('/api/x').catch(() => undefined);
    expect(s.session.tokens()).toBeNull();
    expect(s.navigate).toHaveBeenCalledWith('/login');
  });

  it('counts network failures too', async () => {
    const s = setup({ '/api/x': [new TypeError('offline')] });
    for (let i = 0; i < FAILURE_THRESHOLD; i++) {
      await expect(s.http.get('/api/x')).rejects.toMatchObject({ status: 0, message: 't:errors.somethingWentWrong' });
    }
    expect(s.navigate).toHaveBeenCalledWith('/login');
    expect(s.session.tokens()).toBeNull();
  });

  it('does not count calls the browser cancelled, nor calls cut off by leaving the page', async () => {
    const aborted = setup({
      '/api/x': Array.from({ length: FAILURE_THRESHOLD }, () => new DOMException('The user aborted a request.', 'AbortError')),
    });
    for (let i = 0; i < FAILURE_THRESHOLD; i++) await aborted.http.get('/api/x').catch(() => undefined);
    expect(aborted.navigate).not.toHaveBeenCalled();
    expect(aborted.session.tokens()).not.toBeNull();

    const leaving = setup(
      { '/api/x': [new TypeError('Failed to fetch'), new TypeError('Failed to fetch'), new TypeError('Failed to fetch')] },
      true,
      () => true,
    );
    for (let i = 0; i < FAILURE_THRESHOLD; i++) await leaving.http.get('/api/x').catch(() => undefined);
    expect(leaving.session.tokens()).not.toBeNull();
    expect(leaving.notifyError).not.toHaveBeenCalled();
  });

  it('a success resets the count', async () => {
    const s = setup({
      '/api/x': [
        ...failing(FAILURE_THRESHOLD - 1),
        { status: 200, body: {} },
        ...failing(FAILURE_THRESHOLD - 1),
        { status: 200, body: {} },
      ],
    });
    for (let i = 0; i < 2 * FAILURE_THRESHOLD; i++) await s.http.get('/api/x').catch(() => undefined);
    expect(s.navigate).not.toHaveBeenCalled();
    expect(s.session.tokens()).not.toBeNull();
  });

  it('the reset window passing resets the count', async () => {
    const s = setup({ '/api/x': failing(FAILURE_THRESHOLD + 1) });
    for (let i = 0; i < FAILURE_THRESHOLD - 1; i++) await s.http.get('/api/x').catch(() => undefined);
    s.tick(FAILURE_RESET_WINDOW_MS);
    await s.http.get('/api/x').catch(() => undefined);
    expect(s.navigate).not.toHaveBeenCalled();
  });

  it('failures just inside the window still count', async () => {
    const s = setup({ '/api/x': failing(FAILURE_THRESHOLD) });
    for (let i = 0; i < FAILURE_THRESHOLD; i++) {
      await s.http.get('/api/x').catch(() => undefined);
      s.tick(Math.floor((FAILURE_RESET_WINDOW_MS - 1) / FAILURE_THRESHOLD));
    }
    expect(s.navigate).toHaveBeenCalledWith('/login');
  });

  it('refused form submits (4xx answers) never sign the person out (DECISIONS.md)', async () => {
    const refused = { status: 400, body: { errors: ['Some fields need your attention.'], code: 'validation_failed' } };
    const s = setup({ '/api/x': Array.from({ length: FAILURE_THRESHOLD * 2 }, () => refused) });
    for (let i = 0; i < FAILURE_THRESHOLD * 2; i++) {
      await expect(s.http.post('/api/x', { a: 1 }, { notify: false })).rejects.toMatchObject({ status: 400 });
    }
    expect(s.navigate).not.toHaveBeenCalled();
    expect(s.session.tokens()).not.toBeNull();
  });

  it('a 4xx answer between failures breaks the streak: the service answered', async () => {
    const s = setup({
      '/api/x': [
        ...failing(FAILURE_THRESHOLD - 1),
        { status: 404, body: { errors: ['Not found.'], code: 'not_found' } },
        ...failing(FAILURE_THRESHOLD - 1),
      ],
    });
    for (let i = 0; i < 2 * FAILURE_THRESHOLD - 1; i++) await s.http.get('/api/x').catch(() => undefined);
    expect(s.navigate).not.toHaveBeenCalled();
    expect(s.session.tokens()).not.toBeNull();
  });

  it('the plain client does not count failures', async () => {
    const s = setup({ '/api/x': failing(FAILURE_THRESHOLD) });
    for (let i = 0; i < FAILURE_THRESHOLD; i++) await s.http.get('/api/x', { mode: 'plain' }).catch(() => undefined);
    expect(s.navigate).not.toHaveBeenCalled();
    expect(s.session.tokens()).not.toBeNull();
  });
});

describe('error text', () => {
  const cases: Array<[string, Exclude<Reply, Error>, string]> = [
    [
      'the first item of errors',
      { status: 422, body: { errors: ['first', 'second'], code: 'validation_failed' }, statusText: 'Unprocessable' },
      'first',
    ],
    ['data.error', { status: 422, body: { data: { error: 'from data' } }, statusText: 'Unprocessable' }, 'from data'],
    ['the status text', { status: 500, body: {}, statusText: 'Internal Server Error' }, 'Internal Server Error'],
    ['the translated fallback', { status: 500 }, 't:errors.somethingWentWrong'],
  ];
  it.each(cases)('uses %s', async (_, reply, text) => {
    const s = setup({ '/api/x': [reply] });
    await expect(s.http.get('/api/x')).rejects.toMatchObject({ message: text });
    expect(s.notifyError).toHaveBeenCalledWith(text);
  });

  it('a form call can show its error itself instead of a notification', async () => {
    const s = setup({ '/api/x': [{ status: 422, body: { errors: ['bad'], code: 'validation_failed', fields: { email: 'taken' } } }] });
    await expect(s.http.post('/api/x', {}, { notify: false })).rejects.toMatchObject({ fields: { email: 'taken' } });
    expect(s.notifyError).not.toHaveBeenCalled();
  });
});
