import { catalogs, type ManpowerResponse } from '@bulwark/domain';
import { MantineProvider } from '@mantine/core';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { I18nextProvider } from 'react-i18next';
import { MemoryRouter } from 'react-router';
import { describe, expect, it, vi } from 'vitest';
import type { HttpClient } from '../../api/http.js';
import type { PushClient } from '../../api/push-client.js';
import { createMemoryStorage, createSessionStore } from '../../api/session-store.js';
import { ServicesContext, type Services } from '../../app/services.js';
import { createI18n } from '../../i18n/setup.js';
import { ManpowerPage, parseTotal } from './manpower-page.js';

const en = catalogs.en;
const SITE = '11111111-1111-4111-8111-111111111111';
const YEAR = new Date().getFullYear();

function grid(months: number[], set: boolean[]): ManpowerResponse {
  return {
    year: YEAR,
    default_total: 100,
    sites: [{ site_id: SITE, name: 'Harbour', is_active: true, months, set, yearly_total: months.reduce((a, b) => a + b, 0) }],
  };
}

function renderPage(http: Partial<HttpClient>) {
  const i18n = createI18n('en');
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  const services: Services = {
    http: http as HttpClient,
    session: createSessionStore(createMemoryStorage()),
    push: {} as PushClient,
    queryClient,
    i18n,
    storage: createMemoryStorage(),
    location: { host: 'demo.localhost:3000', protocol: 'http:', assign: vi.fn() },
    now: () => Date.now(),
  };
  render(
    <ServicesContext.Provider value={services}>
      <I18nextProvider i18n={i18n}>
        <QueryClientProvider client={queryClient}>
          <MantineProvider>
            <MemoryRouter>
              <ManpowerPage />
            </MemoryRouter>
          </MantineProvider>
        </QueryClientProvider>
      </I18nextProvider>
    </ServicesContext.Provider>,
  );
}

describe('parseTotal', () => {
  it('reads whole numbers, empty as the default, anything else as a mistake', () => {
    expect(parseTotal(' 250 ')).toBe(250);
    expect(parseTotal('')).toBeNull();
    expect(parseTotal('2.5')).toBeUndefined();
    expect(parseTotal('-1')).toBeUndefined();
    expect(parseTotal('1000001')).toBeUndefined();
  });
});

describe('the manpower page', () => {
  it("loads the year's grid and saves the typed months through the sites contract", async () => {
    const get = vi.fn().mockResolvedValue(grid(Array(12).fill(100), Array(12).fill(false)));
    const saved = grid([250, ...Array(11).fill(100)], [true, ...Array(11).fill(false)]);
    const put = vi.fn().mockResolvedValue(saved);
    renderPage({ get, put });

    const [january] = await screen.findAllByLabelText(/^Harbour, /, {}, { timeout: 4000 });
    expect(get).toHaveBeenCalledWith(`/api/sites/manpower?year=${YEAR}`, expect.objectContaining({ mode: 'secured' }));

    fireEvent.change(january!, { target: { value: '250' } });
    fireEvent.click(screen.getByRole('button', { name: en.sites.manpower.save }));

    await waitFor(() => expect(put).toHaveBeenCalledTimes(1));
    expect(put).toHaveBeenCalledWith(
      '/api/sites/manpower',
      { year: YEAR, entries: [{ site_id: SITE, month: 1, total: 250 }] },
      expect.objectContaining({ mode: 'secured', notify: false }),
    );
    // The grid shows what the server answered, with nothing left unsaved.
    await waitFor(() => expect(screen.queryByText(en.sites.manpower.unsaved)).toBeNull());
  }, 15_000);
});
