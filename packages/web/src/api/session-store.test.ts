import { describe, expect, it, vi } from 'vitest';
import type { ProfileResponse } from '@bulwark/domain';
import { createMemoryStorage, createSessionStore, SESSION_KEYS } from './session-store.js';

const profile: ProfileResponse = {
  user: {
    id: 'u1',
    organization_id: 'o1',
    email: 'a@demo.test',
    full_name: 'Ada',
    role_name: 'Admin',
    status: 'Active',
    is_admin: true,
    is_platform_admin: false,
    is_guest: false,
    can_issue_permit: true,
    hira_v2_allowed: false,
    locale: 'en',
    notifications: { unread: 0 },
    tenant_memory_details: { mem_exhausted: false, used_bytes: 0, quota_bytes: 1 },
    licences: [],
  },
  organization: null,
  rules: [{ subject: 'Site', actions: ['read'] }],
  organization_modules: [],
};

describe('session store', () => {
  it('keeps token, csrf and refresh, and reads them back', () => {
    const store = createSessionStore(createMemoryStorage());
    expect(store.tokens()).toBeNull();
    store.saveTokens({ token: 't', csrf: 'c', refresh: 'r' });
    expect(store.tokens()).toEqual({ token: 't', csrf: 'c', refresh: 'r' });
    expect(store.isSignedIn()).toBe(true);
  });

  it('keeps the last profile with its time, and the rules', () => {
    const storage = createMemoryStorage();
    const store = createSessionStore(storage);
    store.saveProfile(profile, 42);
    expect(store.lastProfile()).toEqual({ profile, savedAt: 42 });
    expect(JSON.parse(storage.getItem(SESSION_KEYS.rules)!)).toEqual(profile.rules);
  });

  it('ignores a damaged stored profile', () => {
    const storage = createMemoryStorage();
    storage.setItem(SESSION_KEYS.profile, '{not json');
    expect(createSessionStore(storage).lastProfile()).toBeNull();
  });

  it('signing out clears token, rules, csrf and refresh (and the profile)', () => {
    const storage = createMemoryStorage();
    storage.setItem('bulwark.language', 'tr');
    const store = createSessionStore(storage);
    store.saveTokens({ token: 't', csrf: 'c', refresh: 'r' });
    store.saveProfile(profile, 1);
    store.clear();
    for (const key of Object.values(SESSION_KEYS)) expect(storage.getItem(key)).toBeNull();
    // The language choice is the person's, not the session's.
    expect(storage.getItem('bulwark.language')).toBe('tr');
  });

  it('tells listeners when the signed-in state changes, not on token rotation', () => {
    const store = createSessionStore(createMemoryStorage());
    const listener = vi.fn();
    store.subscribe(listener);
    store.saveTokens({ token: 't', csrf: 'c', refresh: 'r' });
    store.saveTokens({ token: 't2', csrf: 'c2', refresh: 'r2' });
    expect(listener).toHaveBeenCalledTimes(1);
    store.clear();
    expect(listener).toHaveBeenCalledTimes(2);
  });
});
