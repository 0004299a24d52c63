import { catalogs, type ProfileResponse } from '@bulwark/domain';
import { MantineProvider } from '@mantine/core';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen } from '@testing-library/react';
import { I18nextProvider } from 'react-i18next';
import { describe, expect, it, vi } from 'vitest';
import type { HttpClient } from '../../api/http.js';
import type { PushClient } from '../../api/push-client.js';
import { createMemoryStorage, createSessionStore } from '../../api/session-store.js';
import { createI18n } from '../../i18n/setup.js';
import { PROFILE_KEY } from '../profile.js';
import { ServicesContext, type Services } from '../services.js';
import { StorageFullBanner } from './storage-banner.js';

const profile = (memExhausted: boolean): ProfileResponse => ({
  user: {
    id: 'u1',
    organization_id: 'o1',
    email: 'ada@demo.test',
    full_name: 'Ada',
    role_name: 'Administrator',
    status: 'Active',
    is_admin: true,
    is_platform_admin: false,
    is_guest: false,
    can_issue_permit: false,
    hira_v2_allowed: false,
    locale: 'es',
    notifications: { unread: 0 },
    tenant_memory_details: { mem_exhausted: memExhausted, used_bytes: 100, quota_bytes: 100 },
    licences: [],
  },
  organization: null,
  rules: [{ subject: 'Observation', actions: ['read', 'create'] }],
  organization_modules: [],
});

function renderBanner(p: ProfileResponse) {
  const i18n = createI18n('es');
  const queryClient = new QueryClient();
  queryClient.setQueryData(PROFILE_KEY, p);
  const services: Services = {
    http: {} as HttpClient,
    session: createSessionStore(createMemoryStorage()),
    push: {} as PushClient,
    queryClient,
    i18n,
    storage: createMemoryStorage(),
    location: { host: 'demo.localhost:3000', protocol: 'http:', assign: vi.fn() },
    now: () => 0,
  };
  render(
    <ServicesContext.Provider value={services}>
      <I18nextProvider i18n={i18n}>
        <QueryClientProvider client={queryClient}>
          <MantineProvider>
            <StorageFullBanner />
          </MantineProvider>
        </QueryClientProvider>
      </I18nextProvider>
    </ServicesContext.Provider>,
  );
}

describe('storage used up (DECISIONS: writes answer memory_exhausted, reads and deletes go on)', () => {
  it("says so above every screen in the reader's language, rather than hiding controls", () => {
    renderBanner(profile(true));
    expect(screen.getByTestId('storage-full-banner').textContent).toBe(catalogs.es.errors.memory_exhausted);
  });

  it('says nothing while there is room', () => {
    renderBanner(profile(false));
    expect(screen.queryByTestId('storage-full-banner')).toBeNull();
  });
});
