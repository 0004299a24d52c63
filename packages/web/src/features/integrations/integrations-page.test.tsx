import { catalogs, type ServiceAccount } from '@bulwark/domain';
import { MantineProvider } from '@mantine/core';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { I18nextProvider } from 'react-i18next';
import { MemoryRouter, Route, Routes } from 'react-router';
import { describe, expect, it, vi } from 'vitest';
import type { HttpClient } from '../../api/http.js';
import type { PushClient } from '../../api/push-client.js';
import { createMemoryStorage, createSessionStore } from '../../api/session-store.js';
import { ServicesContext, type Services } from '../../app/services.js';
import { createI18n } from '../../i18n/setup.js';
import { IntegrationsPage } from './integrations-page.js';

const en = catalogs.en;
const ROLE_ID = '0190a0b0-0000-7000-8000-000000000001';
const SECRET = 'bwk_Ab3dEfGhIjKlMnOpQrStUvWxYz0123456789abcdefg';

const TOKEN = {
  id: 't1',
  name: 'nightly sync',
  hint: 'bwk_Zz9yX',
  created_at: '2026-01-02T10:00:00.000Z',
  created_by_name: 'Ada Admin',
  last_used_at: null,
  expires_at: null,
  revoked_at: null,
};

const ACCOUNT: ServiceAccount = {
  id: 'sa1',
  name: 'HR connector',
  role_id: ROLE_ID,
  role_name: 'Reader',
  active: true,
  created_at: '2026-01-01T10:00:00.000Z',
  tokens: [TOKEN],
};

const ROLES = { roles: [{ id: ROLE_ID, name: 'Reader', grants_admin: false }], sites: [] };

/** `http`: the client's methods the screen calls, as mocks answering by path. */
function renderPage(http: Partial<Record<keyof HttpClient, unknown>>, path = '/integrations') {
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
  render(
    <ServicesContext.Provider value={services}>
      <I18nextProvider i18n={i18n}>
        <QueryClientProvider client={queryClient}>
          <MantineProvider>
            <MemoryRouter initialEntries={[path]}>
              <Routes>
                <Route path="/integrations" element={<IntegrationsPage />} />
                <Route path="/integrations/:tab" element={<IntegrationsPage />} />
                <Route path="/integrations/webhooks/:id" element={<IntegrationsPage />} />
              </Routes>
            </MemoryRouter>
          </MantineProvider>
        </QueryClientProvider>
      </I18nextProvider>
    </ServicesContext.Provider>,
  );
}

/** A GET mock answering by path, with the accounts list read from `accounts()` at each call. */
function getter(accounts: () => ServiceAccount[]) {
  return vi.fn(async (path: string) => {
    if (path === '/api/service_accounts') return { service_accounts: accounts() };
    if (path === '/api/users/form_options') return ROLES;
    throw new Error(`unexpected GET ${path}`);
  });
}

describe('the integrations page: API tokens (admin)', () => {
  it('shows a new token once, with a copy button and a warning, and never again after "Done"', async () => {
    let accounts = [ACCOUNT];
    const get = getter(() => accounts);
    const post = vi.fn(async (path: string, body: { name: string }) => {
      expect(path).toBe('/api/service_accounts/sa1/tokens');
      const token = { ...TOKEN, id: 't2', name: body.name, hint: SECRET.slice(0, 10) };
      accounts = [{ ...ACCOUNT, tokens: [token, TOKEN] }];
      return { token, secret: SECRET };
    });
    renderPage({ get, post });

    expect(await screen.findByText('nightly sync', {}, { timeout: 4000 })).toBeDefined();
    expect(get).toHaveBeenCalledWith('/api/service_accounts', expect.objectContaining({ mode: 'secured' }));
    expect(screen.getAllByText('HR connector').length).toBeGreaterThan(0);

    fireEvent.click(screen.getAllByRole('button', { name: en.apiTokens.newToken })[0]!);
    const dialog = await screen.findByRole('dialog');
    // Nothing sent without a name.
    fireEvent.click(within(dialog).getByRole('button', { name: en.apiTokens.createToken }));
    expect(await within(dialog).findByText(en.validation.required)).toBeDefined();
    expect(post).not.toHaveBeenCalled();

    fireEvent.change(within(dialog).getByLabelText(en.apiTokens.tokenName, { exact: false }), { target: { value: 'production' } });
    fireEvent.click(within(dialog).getByRole('button', { name: en.apiTokens.createToken }));
    await waitFor(() =>
      expect(post).toHaveBeenCalledWith(
        '/api/service_accounts/sa1/tokens',
        { name: 'production', expires_in_days: null },
        expect.objectContaining({ notify: false }),
      ),
    );

    // The secret, its warning and the copy button; Escape does not lose it.
    const reveal = await screen.findByRole('dialog', { name: en.apiTokens.createdTitle });
    expect(within(reveal).getByText(SECRET)).toBeDefined();
    expect(within(reveal).getByText(en.apiTokens.createdBody)).toBeDefined();
    expect(within(reveal).getByRole('button', { name: en.apiTokens.copy })).toBeDefined();
    fireEvent.keyDown(reveal, { key: 'Escape' });
    expect(screen.getByText(SECRET)).toBeDefined();

    fireEvent.click(within(reveal).getByRole('button', { name: en.apiTokens.done }));
    await waitFor(() => expect(screen.queryByText(SECRET)).toBeNull());
    // The list shows the new token by its name and hint only.
    expect(await screen.findByText('production')).toBeDefined();
    expect(screen.queryByText(SECRET)).toBeNull();
  }, 20_000);

  it('revokes a token only after confirming', async () => {
    const get = getter(() => [ACCOUNT]);
    const del = vi.fn().mockResolvedValue({ ok: true });
    renderPage({ get, delete: del }, '/integrations/tokens');

    const revoke = await screen.findByRole(
      'button',
      { name: en.apiTokens.revokeLabel.replace('{{name}}', 'nightly sync') },
      { timeout: 4000 },
    );
    fireEvent.click(revoke);
    const dialog = await screen.findByRole('dialog');
    fireEvent.click(within(dialog).getByRole('button', { name: en.common.cancel }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(del).not.toHaveBeenCalled();

    fireEvent.click(revoke);
    fireEvent.click(within(await screen.findByRole('dialog')).getByRole('button', { name: en.apiTokens.revoke }));
    await waitFor(() => expect(del).toHaveBeenCalledWith('/api/api_tokens/t1', expect.objectContaining({ mode: 'secured' })));
  }, 20_000);

  it('starts from an empty list with a first action that makes the service account and its token together', async () => {
    let accounts: ServiceAccount[] = [];
    const get = getter(() => accounts);
    const post = vi.fn(async (path: string, body: { name: string }) => {
      if (path === '/api/service_accounts') {
        accounts = [{ ...ACCOUNT, id: 'sa9', name: body.name, tokens: [] }];
        return { service_account: accounts[0] };
      }
      expect(path).toBe('/api/service_accounts/sa9/tokens');
      return { token: { ...TOKEN, id: 't9', name: body.name }, secret: SECRET };
    });
    renderPage({ get, post });

    expect(await screen.findByText(en.apiTokens.noTokens, {}, { timeout: 4000 })).toBeDefined();
    expect(screen.getByText(en.apiTokens.empty)).toBeDefined();
    fireEvent.click(screen.getByRole('button', { name: en.apiTokens.newToken }));
    const dialog = await screen.findByRole('dialog');
    fireEvent.change(within(dialog).getByLabelText(en.apiTokens.tokenName, { exact: false }), { target: { value: 'prod' } });
    fireEvent.change(within(dialog).getByLabelText(new RegExp(`^${en.apiTokens.name}`)), { target: { value: 'BI export' } });
    // A searchable select opens as one types; Mantine keeps its list hidden until a transition jsdom never runs.
    const role = within(dialog).getAllByLabelText(new RegExp(`^${en.apiTokens.role}`))[0]!;
    fireEvent.click(role);
    fireEvent.change(role, { target: { value: 'Rea' } });
    fireEvent.click(await screen.findByRole('option', { name: 'Reader', hidden: true }, { timeout: 2000 }));
    fireEvent.click(within(dialog).getByRole('button', { name: en.apiTokens.createToken }));

    expect(await screen.findByText(SECRET)).toBeDefined();
    expect(post).toHaveBeenNthCalledWith(1, '/api/service_accounts', { name: 'BI export', role_id: ROLE_ID }, expect.anything());
    expect(post).toHaveBeenNthCalledWith(2, '/api/service_accounts/sa9/tokens', { name: 'prod', expires_in_days: null }, expect.anything());
  }, 20_000);
});

const ENDPOINT = {
  id: 'w1',
  url: 'https://hooks.example.com/bulwark',
  description: 'Maintenance system',
  events: ['observation.created', 'incident.status_changed'],
  active: true,
  created_at: '2026-01-02T10:00:00.000Z',
  last_delivery: null,
};

const DELIVERY = {
  id: 'd1',
  event: 'observation.created',
  status: 'delivered' as const,
  attempts: 1,
  response_status: 200,
  response_excerpt: 'thanks',
  error: null,
  created_at: '2026-01-02T10:05:00.000Z',
  last_attempt_at: '2026-01-02T10:05:01.000Z',
  delivered_at: '2026-01-02T10:05:01.000Z',
};

describe('the integrations page: webhooks (admin)', () => {
  it('refuses a plain http address and no events, then shows the new endpoint’s secret once', async () => {
    const events = ['observation', 'incident', 'action', 'permit', 'audit'].flatMap((s) =>
      ['created', 'updated', 'status_changed'].map((c) => `${s}.${c}`),
    );
    const get = vi.fn().mockResolvedValue({ endpoints: [], events });
    const post = vi.fn(async (_path: string, body: typeof ENDPOINT) => ({ endpoint: { ...ENDPOINT, ...body }, secret: 'whsec_abc123' }));
    renderPage({ get, post }, '/integrations/webhooks');

    expect(await screen.findByText(en.webhooks.empty, {}, { timeout: 4000 })).toBeDefined();
    fireEvent.click(screen.getByRole('button', { name: en.webhooks.add }));
    const dialog = await screen.findByRole('dialog');
    fireEvent.change(within(dialog).getByLabelText(new RegExp(`^${en.webhooks.url.replace(/[()]/g, '.')}`)), {
      target: { value: 'http://hooks.example.com/x' },
    });
    fireEvent.click(within(dialog).getByRole('button', { name: en.webhooks.create }));
    expect(await within(dialog).findByText(en.webhooks.validation.httpsOnly)).toBeDefined();
    expect(within(dialog).getByText(en.webhooks.validation.noEvent)).toBeDefined();
    expect(post).not.toHaveBeenCalled();

    fireEvent.change(within(dialog).getByLabelText(new RegExp(`^${en.webhooks.url.replace(/[()]/g, '.')}`)), {
      target: { value: 'https://hooks.example.com/x' },
    });
    fireEvent.click(within(dialog).getByLabelText(en.webhooks.allEvents));
    fireEvent.click(within(dialog).getByRole('button', { name: en.webhooks.create }));
    await waitFor(() =>
      expect(post).toHaveBeenCalledWith(
        '/api/webhooks',
        { url: 'https://hooks.example.com/x', events, description: '', active: true },
        expect.objectContaining({ notify: false }),
      ),
    );
    const reveal = await screen.findByRole('dialog', { name: en.webhooks.secretTitle });
    expect(within(reveal).getByText('whsec_abc123')).toBeDefined();
    expect(within(reveal).getByText(en.webhooks.secretBody)).toBeDefined();
    fireEvent.click(within(reveal).getByRole('button', { name: en.webhooks.done }));
    await waitFor(() => expect(screen.queryByText('whsec_abc123')).toBeNull());
  }, 20_000);

  it('lists an endpoint’s deliveries with the receiver’s answers and sends a test', async () => {
    const failed = {
      ...DELIVERY,
      id: 'd2',
      status: 'pending' as const,
      attempts: 3,
      response_status: null,
      response_excerpt: null,
      error: 'webhooks.errors.timeout',
    };
    const get = vi.fn(async (path: string) => {
      if (path === '/api/webhooks') return { endpoints: [ENDPOINT], events: ENDPOINT.events };
      if (path.startsWith('/api/webhooks/w1/deliveries')) {
        return { deliveries: [failed, DELIVERY], pagination: { page: 1, per_page: 25, total: 2, total_pages: 1 } };
      }
      throw new Error(`unexpected GET ${path}`);
    });
    const post = vi.fn().mockResolvedValue({ delivery: { ...DELIVERY, id: 'd3', event: 'ping' } });
    renderPage({ get, post }, '/integrations/webhooks/w1');

    expect(await screen.findByText(en.webhooks.httpStatus.replace('{{status}}', '200'), {}, { timeout: 4000 })).toBeDefined();
    expect(screen.getByText('thanks')).toBeDefined();
    expect(screen.getByText(en.webhooks.errors.timeout.replace('{{seconds}}', '10'))).toBeDefined();
    expect(screen.getByText(en.webhooks.statuses.pending)).toBeDefined();
    expect(get).toHaveBeenCalledWith('/api/webhooks/w1/deliveries?page=1&per_page=25', expect.anything());

    fireEvent.click(screen.getByRole('button', { name: en.webhooks.sendTest }));
    await waitFor(() =>
      expect(post).toHaveBeenCalledWith('/api/webhooks/w1/test', undefined, expect.objectContaining({ mode: 'secured' })),
    );
  }, 20_000);
});

describe('the integrations page: full export (admin)', () => {
  it('shows the running export’s progress, holds a second start, and downloads a ready one', async () => {
    const running = {
      id: 'e1',
      status: 'running' as const,
      progress: 40,
      requested_by_name: 'Ada Admin',
      created_at: '2026-01-03T10:00:00.000Z',
      finished_at: null,
      expires_at: null,
      size_bytes: null,
      error: null,
    };
    const ready = {
      ...running,
      id: 'e0',
      status: 'ready' as const,
      progress: 100,
      finished_at: '2026-01-02T10:10:00.000Z',
      expires_at: '2999-01-09T10:10:00.000Z',
      size_bytes: 2048,
    };
    const get = vi.fn().mockResolvedValue({ exports: [running, ready] });
    const download = vi.fn().mockResolvedValue({ blob: new Blob(['zip']), fileName: 'demo.zip' });
    URL.createObjectURL = vi.fn(() => 'blob:x');
    URL.revokeObjectURL = vi.fn();
    renderPage({ get, download }, '/integrations/export');

    expect(await screen.findByText(en.dataExport.building.replace('{{percent}}', '40'), {}, { timeout: 4000 })).toBeDefined();
    expect((screen.getByRole('button', { name: en.dataExport.start }) as HTMLButtonElement).disabled).toBe(true);
    fireEvent.click(screen.getByRole('button', { name: en.dataExport.download }));
    await waitFor(() => expect(download).toHaveBeenCalledWith('/api/data_exports/e0/download', expect.anything()));
  }, 20_000);

  it('starts the first export after a warning', async () => {
    let list: unknown[] = [];
    const get = vi.fn(async () => ({ exports: list }));
    const post = vi.fn(async () => {
      list = [
        {
          id: 'e1',
          status: 'queued',
          progress: 0,
          requested_by_name: null,
          created_at: '2026-01-03T10:00:00.000Z',
          finished_at: null,
          expires_at: null,
          size_bytes: null,
          error: null,
        },
      ];
      return { export: list[0] };
    });
    renderPage({ get, post }, '/integrations/export');

    expect(await screen.findByText(en.dataExport.empty, {}, { timeout: 4000 })).toBeDefined();
    fireEvent.click(screen.getByRole('button', { name: en.dataExport.start }));
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByText(en.dataExport.startBody)).toBeDefined();
    fireEvent.click(within(dialog).getByRole('button', { name: en.dataExport.start }));
    await waitFor(() => expect(post).toHaveBeenCalledWith('/api/data_exports', undefined, expect.anything()));
    expect(await screen.findByText(en.dataExport.building.replace('{{percent}}', '0'))).toBeDefined();
  }, 20_000);
});
