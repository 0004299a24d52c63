import { describe, expect, it, vi } from 'vitest';
import { PUSH_SUBSCRIBE_DELAYS_MS, type PushEvent } from '@bulwark/domain';
import { createPushClient, type PushAuth, type PushSocket } from './push-client.js';

type Listener = (...args: unknown[]) => void;

function fakeSocket() {
  const listeners = new Map<string, Listener[]>();
  const emitted: Array<{ event: string; args: unknown[] }> = [];
  const socket: PushSocket & { fire(event: string, ...args: unknown[]): void; emitted: typeof emitted } = {
    connected: false,
    active: false,
    on(event, listener) {
      listeners.set(event, [...(listeners.get(event) ?? []), listener as Listener]);
      return socket;
    },
    emit(event, ...args) {
      emitted.push({ event, args });
      return socket;
    },
    connect: vi.fn(),
    disconnect: vi.fn(),
    fire(event, ...args) {
      for (const l of listeners.get(event) ?? []) l(...args);
    },
    emitted,
  };
  return socket;
}

function setup(refreshOk = true) {
  const socket = fakeSocket();
  let token = 't1';
  let authFn: ((cb: (d: PushAuth) => void) => void) | undefined;
  const events: PushEvent[] = [];
  const timers: Array<{ fn: () => void; ms: number }> = [];
  const refresh = vi.fn(async () => {
    if (refreshOk) token = 't2';
    return refreshOk;
  });
  const client = createPushClient({
    open: (auth) => {
      authFn = auth;
      return socket;
    },
    token: () => token,
    tenant: () => 'demo',
    refresh,
    onEvent: (e) => events.push(e),
    schedule: (fn, ms) => timers.push({ fn, ms }),
  });
  const auth = (): PushAuth => {
    let out: PushAuth | undefined;
    authFn!((d) => (out = d));
    return out!;
  };
  return { client, socket, events, timers, refresh, auth };
}

describe('push client', () => {
  it('authenticates with the current token and tenant', () => {
    const s = setup();
    s.client.start();
    expect(s.auth()).toEqual({ token: 't1', tenant: 'demo' });
  });

  it('passes channel events on', () => {
    const s = setup();
    s.client.start();
    s.socket.fire('rules', { channel: 'rules', change: 'updated', id: 'x' });
    expect(s.events).toEqual([{ channel: 'rules', change: 'updated', id: 'x' }]);
  });

  it('asks for missed values after the subscribe delays when it reconnects', () => {
    const s = setup();
    s.client.start();
    s.socket.connected = true;
    s.socket.fire('connect');
    // The first connection follows a fresh profile load: nothing to catch up.
    expect(s.timers).toEqual([]);
    s.socket.fire('connect');
    expect(s.timers.map((t) => t.ms)).toEqual([...PUSH_SUBSCRIBE_DELAYS_MS]);
    s.timers.forEach((t) => t.fn());
    expect(s.socket.emitted.map((e) => e.event)).toEqual(['get_all_unread_notifications', 'get_user']);
    const ack = s.socket.emitted[0]!.args[1] as (reply: unknown) => void;
    ack({ data: { unread: 2 } });
    return vi.waitFor(() => expect(s.events).toEqual([{ channel: 'notification', change: 'all', data: { unread: 2 } }]));
  });

  it('refreshes the token and reconnects when the handshake is refused for auth', async () => {
    const s = setup();
    s.client.start();
    s.socket.fire('connect_error', new Error('unauthorized'));
    await vi.waitFor(() => expect(s.socket.connect).toHaveBeenCalledTimes(1));
    expect(s.refresh).toHaveBeenCalledTimes(1);
    expect(s.auth().token).toBe('t2');
    // A second refusal in the same streak does not loop.
    s.socket.fire('connect_error', new Error('unauthorized'));
    expect(s.refresh).toHaveBeenCalledTimes(1);
  });

  it('does not reconnect when the refresh fails, nor refresh on other errors', async () => {
    const s = setup(false);
    s.client.start();
    s.socket.fire('connect_error', new Error('xhr poll error'));
    expect(s.refresh).not.toHaveBeenCalled();
    s.socket.fire('connect_error', new Error('session_expired'));
    await vi.waitFor(() => expect(s.refresh).toHaveBeenCalledTimes(1));
    expect(s.socket.connect).not.toHaveBeenCalled();
  });

  it('rejects requests while disconnected', async () => {
    const s = setup();
    s.client.start();
    await expect(s.client.request('get_user')).rejects.toThrow('push_disconnected');
  });
});
