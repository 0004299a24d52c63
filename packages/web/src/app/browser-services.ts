import type { PushEvent } from '@bulwark/domain';
import { QueryClient } from '@tanstack/react-query';
import { createHttpClient } from '../api/http.js';
import { createPushClient, type PushAuth, type PushSocket } from '../api/push-client.js';
import { createMemoryStorage, createSessionStore, type KeyValueStorage } from '../api/session-store.js';
import { tenantOfHost } from '../api/tenant-host.js';
import { createLazyI18n } from '../i18n/lazy.js';
import { currentLanguage, storedLanguage } from '../i18n/setup.js';
import { notifyError } from './notify.js';
import { PROFILE_KEY } from './principal.js';
import type { Services } from './services.js';

export type Wiring = {
  /** Set once the router exists: leaves the current screen (replace). */
  navigate: (to: string) => void;
  /** Set once the router exists: re-runs the route guard after the profile changed. */
  revalidate: () => void;
};

// The profile carries organization_modules: 'org_modules' reloads it like the others.
const PROFILE_CHANNELS = new Set(['user', 'rules', 'organization', 'tenant_memory', 'timezone', 'onboarding', 'org_modules']);

function browserStorage(): KeyValueStorage {
  try {
    const probe = '__bulwark_probe__';
    window.localStorage.setItem(probe, probe);
    window.localStorage.removeItem(probe);
    return window.localStorage;
  } catch {
    return createMemoryStorage();
  }
}

/**
 * A socket whose library is fetched when it is first opened: only signed-in screens open one, so the
 * sign-in page never downloads socket.io. Calls made before it arrives are replayed in order.
 */
function lazySocket(auth: (cb: (data: PushAuth) => void) => void): PushSocket {
  let real: PushSocket | null = null;
  let wanted = true;
  const pending: ((s: PushSocket) => void)[] = [];
  const later = (call: (s: PushSocket) => void) => (real ? call(real) : pending.push(call));
  void import('socket.io-client').then(({ io }) => {
    if (!wanted) return;
    const socket: PushSocket = io({ path: '/socket.io', auth, transports: ['websocket', 'polling'] });
    real = socket;
    for (const call of pending.splice(0)) call(socket);
  });
  return {
    get connected() {
      return real?.connected ?? false;
    },
    get active() {
      return real ? real.active : wanted;
    },
    on: (event, listener) => later((s) => s.on(event, listener)),
    emit: (event, ...args) => later((s) => s.emit(event, ...args)),
    connect: () => {
      wanted = true;
      return later((s) => s.connect());
    },
    disconnect: () => {
      wanted = false;
      pending.length = 0;
      return real?.disconnect();
    },
  };
}

/**
 * The app's services, `ready` once the person's language has arrived (render after it), and `allTexts`
 * for the screens beyond the sign-in page (a signed-out visitor first gets the sign-in page's texts only).
 */
export function createBrowserServices(): {
  services: Services;
  wiring: Wiring;
  ready: Promise<unknown>;
  allTexts: () => Promise<void>;
} {
  const storage = browserStorage();
  const session = createSessionStore(storage);
  const { i18n, ready, allTexts } = createLazyI18n(storedLanguage(storage), session.isSignedIn());
  const wiring: Wiring = {
    navigate: (to) => window.location.replace(to),
    revalidate: () => undefined,
  };
  const queryClient = new QueryClient({
    defaultOptions: {
      // The HTTP client counts failures toward sign-out; silent retries would spend that budget.
      queries: { retry: false, refetchOnWindowFocus: false, staleTime: 30_000 },
      mutations: { retry: false },
    },
  });

  let leaving = false;
  window.addEventListener('pagehide', () => {
    leaving = true;
  });
  window.addEventListener('beforeunload', () => {
    leaving = true;
  });
  // A page kept in the back/forward cache comes back alive.
  window.addEventListener('pageshow', () => {
    leaving = false;
  });
  const http = createHttpClient({
    leaving: () => leaving,
    fetch: (input, init) => window.fetch(input, init),
    now: Date.now,
    session,
    navigate: (to) => wiring.navigate(to),
    notifyError: (message) => notifyError(message, i18n.t('common.error')),
    translate: (key) => i18n.t(key),
    tenant: () => tenantOfHost(window.location.host),
    language: () => currentLanguage(i18n),
  });

  const onPushEvent = (event: PushEvent): void => {
    if (PROFILE_CHANNELS.has(event.channel)) {
      void queryClient.invalidateQueries({ queryKey: PROFILE_KEY }).then(() => wiring.revalidate());
      // And the screens keyed under the channel (the storage screen under 'tenant_memory').
      void queryClient.invalidateQueries({ queryKey: [event.channel] });
    } else if (event.channel === 'notification') {
      void queryClient.invalidateQueries({ queryKey: ['notifications'] });
    } else {
      // Module channels: every query keyed under the channel's name ('actions', 'observations'…) reloads.
      void queryClient.invalidateQueries({ queryKey: [event.channel] });
    }
  };

  const push = createPushClient({
    open: lazySocket,
    token: () => session.tokens()?.token ?? null,
    tenant: () => tenantOfHost(window.location.host),
    refresh: () => http.refresh(),
    onEvent: onPushEvent,
  });

  // A stored profile lets a reload paint at once; its save time keeps the 60-second reload rule honest.
  const last = session.lastProfile();
  if (session.isSignedIn() && last) queryClient.setQueryData(PROFILE_KEY, last.profile, { updatedAt: last.savedAt });

  session.subscribe(() => {
    if (session.isSignedIn()) {
      push.start();
    } else {
      push.stop();
      queryClient.clear();
    }
  });
  if (session.isSignedIn()) push.start();

  const applyLang = (): void => document.documentElement.setAttribute('lang', currentLanguage(i18n));
  applyLang();
  i18n.on('languageChanged', applyLang);

  const services: Services = {
    http,
    session,
    push,
    queryClient,
    i18n,
    storage,
    location: { host: window.location.host, protocol: window.location.protocol, assign: (url) => window.location.assign(url) },
    now: Date.now,
  };
  return { services, wiring, ready, allTexts };
}
