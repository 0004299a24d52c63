import { MantineProvider } from '@mantine/core';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render } from '@testing-library/react';
import type { ReactNode } from 'react';
import { I18nextProvider } from 'react-i18next';
import { MemoryRouter } from 'react-router';
import { vi } from 'vitest';
import type { HttpClient } from '../src/api/http.js';
import type { PushClient } from '../src/api/push-client.js';
import { createMemoryStorage, createSessionStore } from '../src/api/session-store.js';
import { ServicesContext, type Services } from '../src/app/services.js';
import { createI18n } from '../src/i18n/setup.js';

/**
 * Renders a screen or component inside the providers the app gives it (services, texts in English,
 * queries without retries, Mantine, a router at `path`), with only the HTTP calls a test names.
 */
export function renderWithServices(ui: ReactNode, http: Partial<Record<keyof HttpClient, unknown>>, path = '/') {
  const i18n = createI18n('en');
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  const services: Services = {
    http: http as unknown as HttpClient,
    session: createSessionStore(createMemoryStorage()),
    push: {} as PushClient,
    queryClient,
    i18n,
    storage: createMemoryStorage(),
    location: { host: 'demo.localhost:3000', protocol: 'http:', assign: vi.fn() },
    now: () => Date.now(),
  };
  return render(
    <ServicesContext.Provider value={services}>
      <I18nextProvider i18n={i18n}>
        <QueryClientProvider client={queryClient}>
          <MantineProvider>
            <MemoryRouter initialEntries={[path]}>{ui}</MemoryRouter>
          </MantineProvider>
        </QueryClientProvider>
      </I18nextProvider>
    </ServicesContext.Provider>,
  );
}
