import { profileResponse, type ProfileResponse, type TokenPairResponse } from '@bulwark/domain';

/** The parts of `Storage` the store needs, so tests can pass a plain map. */
export type KeyValueStorage = Pick<Storage, 'getItem' | 'setItem' | 'removeItem'>;

export type SessionTokens = { token: string; csrf: string; refresh: string };
export type StoredProfile = { profile: ProfileResponse; savedAt: number };

export const SESSION_KEYS = {
  token: 'bulwark.token',
  csrf: 'bulwark.csrf',
  refresh: 'bulwark.refresh',
  rules: 'bulwark.rules',
  profile: 'bulwark.profile',
} as const;

export type SessionStore = {
  tokens(): SessionTokens | null;
  isSignedIn(): boolean;
  saveTokens(pair: Pick<TokenPairResponse, 'token' | 'csrf' | 'refresh'>): void;
  saveProfile(profile: ProfileResponse, savedAt: number): void;
  lastProfile(): StoredProfile | null;
  /** Signing out: token, rules, csrf, refresh and the cached profile go. */
  clear(): void;
  subscribe(listener: () => void): () => void;
};

export function createSessionStore(storage: KeyValueStorage): SessionStore {
  const listeners = new Set<() => void>();
  const changed = (): void => listeners.forEach((l) => l());

  const read = (key: string): string | null => {
    try {
      return storage.getItem(key);
    } catch {
      // Storage can throw in private modes or when disabled; a missing session is the safe reading.
      return null;
    }
  };

  return {
    tokens() {
      const token = read(SESSION_KEYS.token);
      const csrf = read(SESSION_KEYS.csrf);
      const refresh = read(SESSION_KEYS.refresh);
      return token && csrf && refresh ? { token, csrf, refresh } : null;
    },
    isSignedIn() {
      return this.tokens() !== null;
    },
    saveTokens({ token, csrf, refresh }) {
      const wasSignedIn = this.isSignedIn();
      storage.setItem(SESSION_KEYS.token, token);
      storage.setItem(SESSION_KEYS.csrf, csrf);
      storage.setItem(SESSION_KEYS.refresh, refresh);
      // A rotation keeps the same session; only a change of signed-in state is news for listeners.
      if (!wasSignedIn) changed();
    },
    saveProfile(profile, savedAt) {
      storage.setItem(SESSION_KEYS.rules, JSON.stringify(profile.rules));
      storage.setItem(SESSION_KEYS.profile, JSON.stringify({ profile, savedAt }));
    },
    lastProfile() {
      const raw = read(SESSION_KEYS.profile);
      if (!raw) return null;
      try {
        const parsed = JSON.parse(raw) as { profile?: unknown; savedAt?: unknown };
        const profile = profileResponse.safeParse(parsed.profile);
        if (!profile.success || typeof parsed.savedAt !== 'number') return null;
        return { profile: profile.data, savedAt: parsed.savedAt };
      } catch {
        return null;
      }
    },
    clear() {
      const wasSignedIn = this.isSignedIn();
      for (const key of Object.values(SESSION_KEYS)) storage.removeItem(key);
      if (wasSignedIn) changed();
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}

/** An in-memory storage for tests and for browsers where localStorage is unavailable. */
export function createMemoryStorage(): KeyValueStorage & { size(): number } {
  const map = new Map<string, string>();
  return {
    getItem: (key) => map.get(key) ?? null,
    setItem: (key, value) => void map.set(key, String(value)),
    removeItem: (key) => void map.delete(key),
    size: () => map.size,
  };
}
