import { MantineProvider } from '@mantine/core';
import { QueryClient } from '@tanstack/react-query';
import { render, screen, waitFor } from '@testing-library/react';
import type { ReactNode } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { DownloadedFile, HttpClient } from '../api/http.js';
import type { PushClient } from '../api/push-client.js';
import { createMemoryStorage, createSessionStore } from '../api/session-store.js';
import { ServicesContext, type Services } from '../app/services.js';
import { createI18n } from '../i18n/setup.js';
import { StoredImage } from './stored-image.js';

function renderWith(ui: ReactNode, download: HttpClient['download']) {
  const services: Services = {
    http: { download } as HttpClient,
    session: createSessionStore(createMemoryStorage()),
    push: {} as PushClient,
    queryClient: new QueryClient(),
    i18n: createI18n('en'),
    storage: createMemoryStorage(),
    location: { host: 'demo.localhost:3000', protocol: 'http:', assign: vi.fn() },
    now: () => 0,
  };
  return render(
    <ServicesContext.Provider value={services}>
      <MantineProvider>{ui}</MantineProvider>
    </ServicesContext.Provider>,
  );
}

// jsdom has no object URLs; these hand out numbered ones and record which were given back.
const original = { create: URL.createObjectURL, revoke: URL.revokeObjectURL };
function stubObjectUrls() {
  let made = 0;
  const revoked: string[] = [];
  URL.createObjectURL = () => `blob:test/${++made}`;
  URL.revokeObjectURL = (u: string) => void revoked.push(u);
  return revoked;
}

afterEach(() => {
  URL.createObjectURL = original.create;
  URL.revokeObjectURL = original.revoke;
});

describe('a stored image', () => {
  it('is fetched with the session, shown through an object URL and that URL is revoked on unmount', async () => {
    const revoked = stubObjectUrls();
    const file: DownloadedFile = { blob: new Blob(['png']), fileName: 'a.png' };
    const download = vi.fn<HttpClient['download']>().mockResolvedValue(file);
    const view = renderWith(<StoredImage url="/api/files/1" alt="Wet floor" placeholder={<span>waiting</span>} />, download);
    expect(screen.getByText('waiting')).toBeTruthy();
    const img = await screen.findByRole('img', { name: 'Wet floor' });
    expect(img.getAttribute('src')).toBe('blob:test/1');
    expect(download).toHaveBeenCalledWith('/api/files/1', { notify: false });
    view.unmount();
    expect(revoked).toEqual(['blob:test/1']);
  });

  it('uses a local blob: address as it is, without a request', () => {
    const download = vi.fn<HttpClient['download']>();
    renderWith(<StoredImage url="blob:local/9" alt="Still uploading" />, download);
    expect(screen.getByRole('img', { name: 'Still uploading' }).getAttribute('src')).toBe('blob:local/9');
    expect(download).not.toHaveBeenCalled();
  });

  it('keeps the placeholder when the file cannot be fetched', async () => {
    stubObjectUrls();
    const download = vi.fn<HttpClient['download']>().mockRejectedValue(new Error('gone'));
    renderWith(<StoredImage url="/api/files/2" alt="Gone" placeholder={<span>no picture</span>} />, download);
    await waitFor(() => expect(download).toHaveBeenCalled());
    expect(screen.getByText('no picture')).toBeTruthy();
    expect(screen.queryByRole('img')).toBeNull();
  });
});
