import {
  PUSH_CHANNELS,
  PUSH_REQUESTS,
  PUSH_SUBSCRIBE_DELAYS_MS,
  type PushChannel,
  type PushEvent,
  type PushRequest,
} from '@bulwark/domain';

/** The part of a socket.io client socket this module uses, so tests can pass a fake. */
export type PushSocket = {
  connected: boolean;
  active: boolean;
  on(event: string, listener: (...args: never[]) => void): unknown;
  emit(event: string, ...args: unknown[]): unknown;
  connect(): unknown;
  disconnect(): unknown;
};

export type PushAuth = { token: string; tenant: string };

export type PushDeps = {
  /** Opens the socket; `auth` is asked again on every (re)connection, so it always has the newest token. */
  open: (auth: (cb: (data: PushAuth) => void) => void) => PushSocket;
  token: () => string | null;
  tenant: () => string;
  /** The HTTP client's shared refresh. */
  refresh: () => Promise<boolean>;
  onEvent: (event: PushEvent) => void;
  schedule?: (fn: () => void, ms: number) => void;
};

export type PushClient = {
  start(): void;
  stop(): void;
  request<T>(name: PushRequest, payload?: unknown): Promise<T>;
};

/**
 * After a reconnection the client catches up on what it may have missed while away, by asking for
 * the current values. The two requests go out after the spec's subscribe delays so they land after
 * the server has joined the socket to its rooms.
 */
const CATCH_UP: readonly PushRequest[] = ['get_all_unread_notifications', 'get_user'];

const AUTH_ERROR = /unauthori[sz]ed|session_expired|expired|invalid token|jwt|auth/i;

export function isAuthError(error: unknown): boolean {
  if (!error || typeof error !== 'object') return false;
  const { message, data } = error as { message?: unknown; data?: { code?: unknown } };
  if (data && typeof data.code === 'string' && AUTH_ERROR.test(data.code)) return true;
  return typeof message === 'string' && AUTH_ERROR.test(message);
}

export function createPushClient(deps: PushDeps): PushClient {
  const schedule = deps.schedule ?? ((fn, ms) => void setTimeout(fn, ms));
  let socket: PushSocket | null = null;
  // One refresh per failed handshake streak: a server that keeps refusing must not loop us.
  let refreshedForHandshake = false;

  function request<T>(name: PushRequest, payload?: unknown): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      if (!socket?.connected) {
        reject(new Error('push_disconnected'));
        return;
      }
      socket.emit(name, payload ?? {}, (reply: { data?: T; error?: string }) => {
        if (reply && 'error' in reply && reply.error) reject(new Error(reply.error));
        else resolve(reply?.data as T);
      });
    });
  }

  function start(): void {
    if (socket || !deps.token()) return;
    const current = deps.open((cb) => cb({ token: deps.token() ?? '', tenant: deps.tenant() }));
    socket = current;

    for (const channel of PUSH_CHANNELS) {
      current.on(channel, (payload: PushEvent | undefined) => {
        deps.onEvent({ change: 'all', ...(payload ?? {}), channel: channel as PushChannel });
      });
    }

    let connectedBefore = false;
    current.on('connect', () => {
      refreshedForHandshake = false;
      // The first connection follows a fresh profile load; only a reconnection can have missed events.
      const reconnection = connectedBefore;
      connectedBefore = true;
      if (!reconnection) return;
      CATCH_UP.forEach((name, i) => {
        schedule(
          () => {
            if (socket !== current) return;
            request(name).then(
              (data) => deps.onEvent({ channel: PUSH_REQUESTS[name], change: 'all', data }),
              () => undefined, // A missed catch-up is harmless: the next event or navigation refreshes.
            );
          },
          PUSH_SUBSCRIBE_DELAYS_MS[Math.min(i, PUSH_SUBSCRIBE_DELAYS_MS.length - 1)] ?? 0,
        );
      });
    });

    current.on('connect_error', (error: Error) => {
      if (!isAuthError(error) || refreshedForHandshake) return;
      refreshedForHandshake = true;
      void deps.refresh().then((ok) => {
        // The auth callback reads the refreshed token on this new attempt.
        if (ok && socket === current && !current.connected) current.connect();
      });
    });
  }

  function stop(): void {
    socket?.disconnect();
    socket = null;
  }

  return { start, stop, request };
}
