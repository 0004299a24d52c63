import { catalogs, type StorageUsage } from '@bulwark/domain';
import { MantineProvider } from '@mantine/core';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { I18nextProvider } from 'react-i18next';
import { MemoryRouter } from 'react-router';
import { describe, expect, it, vi } from 'vitest';
import type { HttpClient } from '../../api/http.js';
import type { PushClient } from '../../api/push-client.js';
import { createMemoryStorage, createSessionStore } from '../../api/session-store.js';
import { ServicesContext, type Services } from '../../app/services.js';
import { createI18n } from '../../i18n/setup.js';
import { StoragePage } from './storage-page.js';

const en = catalogs.en;
const MB = 1024 * 1024;

const USAGE: StorageUsage = {
  used_bytes: 100 * MB,
  quota_bytes: 100 * MB,
  mem_exhausted: true,
  pending_bytes: 2 * MB,
  pending_count: 1,
  unlinked_bytes: 5 * MB,
  unlinked_count: 2,
  files: [
    {
      id: 'f-linked',
      file_name: 'rack.jpg',
      mime_type: 'image/jpeg',
      size_bytes: 9 * MB,
      created_at: '2026-01-02T10:00:00.000Z',
      uploaded_by: { id: 'u1', full_name: 'Ada Admin' },
      pending: false,
      links: [{ kind: 'observation', label: 'OBS-000012', path: '/observations/summary/o1' }],
    },
    {
      id: 'f-loose',
      file_name: 'old-scan.pdf',
      mime_type: 'application/pdf',
      size_bytes: 3 * MB,
      created_at: '2026-01-02T11:00:00.000Z',
      uploaded_by: { id: 'u1', full_name: 'Ada Admin' },
      pending: false,
      links: [],
    },
    {
      id: 'f-guest',
      file_name: 'photo.png',
      mime_type: 'image/png',
      size_bytes: 2 * MB,
      created_at: '2026-01-02T12:00:00.000Z',
      uploaded_by: null,
      pending: true,
      links: [],
    },
  ],
};

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
              <StoragePage />
            </MemoryRouter>
          </MantineProvider>
        </QueryClientProvider>
      </I18nextProvider>
    </ServicesContext.Provider>,
  );
}

describe('the storage page (admin)', () => {
  it('shows the figures, what uses each file, and removes an unused file only after confirming', async () => {
    const get = vi.fn().mockResolvedValue(USAGE);
    const del = vi.fn().mockResolvedValue({ ok: true });
    renderPage({ get, delete: del });

    expect(await screen.findByText('old-scan.pdf', {}, { timeout: 4000 })).toBeDefined();
    expect(get).toHaveBeenCalledWith('/api/storage', expect.objectContaining({ mode: 'secured' }));
    expect(screen.getByText(en.storage.screen.full)).toBeDefined();
    expect(screen.getByText(en.storage.usage.replace('{{used}}', '100 MB').replace('{{quota}}', '100 MB'))).toBeDefined();
    expect(screen.getByRole('link', { name: en.storage.links.observation.replace('{{label}}', 'OBS-000012') })).toBeDefined();
    expect(screen.getByText(en.storage.screen.waitingForReport)).toBeDefined();

    // A linked file has no remove button; the unused one and the guest's waiting upload do.
    const removeLoose = en.storage.screen.removeLabel.replace('{{name}}', 'old-scan.pdf');
    expect(screen.queryByRole('button', { name: en.storage.screen.removeLabel.replace('{{name}}', 'rack.jpg') })).toBeNull();
    expect(screen.getByRole('button', { name: en.storage.screen.removeLabel.replace('{{name}}', 'photo.png') })).toBeDefined();

    fireEvent.click(screen.getByRole('button', { name: removeLoose }));
    const dialog = await screen.findByRole('dialog');
    fireEvent.click(within(dialog).getByRole('button', { name: en.common.cancel }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(del).not.toHaveBeenCalled();

    fireEvent.click(screen.getByRole('button', { name: removeLoose }));
    fireEvent.click(within(await screen.findByRole('dialog')).getByRole('button', { name: en.storage.screen.remove }));
    await waitFor(() => expect(del).toHaveBeenCalledWith('/api/storage/files/f-loose', expect.objectContaining({ mode: 'secured' })));
    await waitFor(() => expect(get).toHaveBeenCalledTimes(2));
  }, 15_000);

  it('says so when no file is stored', async () => {
    renderPage({ get: vi.fn().mockResolvedValue({ ...USAGE, mem_exhausted: false, files: [] }) });
    expect(await screen.findByText(en.storage.screen.empty, {}, { timeout: 4000 })).toBeDefined();
    expect(screen.queryByText(en.storage.screen.full)).toBeNull();
  }, 15_000);
});
