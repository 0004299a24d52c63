import type { AuditFormData, AuditSchedule, ProfileResponse } from '@bulwark/domain';
import { MantineProvider } from '@mantine/core';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { I18nextProvider } from 'react-i18next';
import { MemoryRouter } from 'react-router';
import { describe, expect, it, vi } from 'vitest';
import type { HttpClient } from '../../api/http.js';
import type { PushClient } from '../../api/push-client.js';
import { createMemoryStorage, createSessionStore } from '../../api/session-store.js';
import { PROFILE_KEY } from '../../app/profile.js';
import { ServicesContext, type Services } from '../../app/services.js';
import { createI18n } from '../../i18n/setup.js';
import { AuditSchedulesPage } from './schedules-page.js';

type Actions = ProfileResponse['rules'][number]['actions'];

const profile = (actions: Actions): ProfileResponse => ({
  user: {
    id: 'u1',
    organization_id: 'o1',
    email: 'ada@demo.test',
    full_name: 'Ada',
    role_name: 'Safety manager',
    status: 'Active',
    is_admin: false,
    is_platform_admin: false,
    is_guest: false,
    can_issue_permit: false,
    hira_v2_allowed: false,
    locale: 'en',
    notifications: { unread: 0 },
    tenant_memory_details: { mem_exhausted: false, used_bytes: 1, quota_bytes: 100 },
    licences: [],
  },
  organization: null,
  rules: [{ subject: 'Audit', actions }],
  organization_modules: [],
});

const FORM_DATA = {
  templates: [{ id: 't1', name: 'Fire walk', type: 'fire', icon: 'fire', scoring: true, description: null, active: true }],
  sites: [{ id: 's1', name: 'Plant A', time_zone: 'UTC', nodes: [] }],
  auditors: [{ id: 'u1', full_name: 'Ada', email: 'ada@demo.test' }],
  users: [{ id: 'u1', full_name: 'Ada', email: 'ada@demo.test' }],
  frequencies: ['once', 'monthly'],
  types: ['fire'],
  icons: ['fire'],
  response_types: ['yes_no'],
  notify_roles: [],
  control_types: [],
  action_categories: [],
  limits: null,
} as unknown as AuditFormData;

const SCHEDULE: AuditSchedule = {
  id: 'sch1',
  template: { id: 't1', name: 'Fire walk', type: 'fire', icon: 'fire' },
  sites: [{ id: 's1', name: 'Plant A', time_zone: 'UTC' }],
  site_node: null,
  auditor: { id: 'u1', full_name: 'Ada' },
  auditee: null,
  frequency: 'monthly',
  start_date: '2026-01-05',
  end_date: null,
  active: true,
  audits_count: 2,
  next_due_date: '2026-03-05',
  created_by: null,
  created_at: '2026-01-01T00:00:00.000Z',
  updated_at: '2026-01-01T00:00:00.000Z',
};

function renderPage(actions: Actions, http: Partial<HttpClient>) {
  const i18n = createI18n('en');
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  queryClient.setQueryData(PROFILE_KEY, profile(actions));
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
            <MemoryRouter initialEntries={['/audit-schedules']}>
              <AuditSchedulesPage />
            </MemoryRouter>
          </MantineProvider>
        </QueryClientProvider>
      </I18nextProvider>
    </ServicesContext.Provider>,
  );
}

const answers = (schedules: AuditSchedule[]) =>
  vi.fn((path: string) =>
    Promise.resolve(
      path.startsWith('/api/audit_schedules')
        ? { schedules, pagination: { page: 1, per_page: 25, total: schedules.length, total_pages: 1 }, limit: null }
        : FORM_DATA,
    ),
  );

describe('the audit schedules page', () => {
  it('offers the first schedule when there is none, and checks the form before sending it', async () => {
    const post = vi.fn();
    renderPage(['read', 'create'], { get: answers([]) as unknown as HttpClient['get'], post });
    expect(await screen.findByText('No audits are scheduled yet.', {}, { timeout: 4000 })).toBeDefined();
    const buttons = await screen.findAllByRole('button', { name: 'Schedule audits' });
    await waitFor(() => expect((buttons[0] as HTMLButtonElement).disabled).toBe(false));
    fireEvent.click(buttons[0]!);
    const dialog = await screen.findByRole('dialog');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Schedule' }));
    expect(await within(dialog).findByText('Choose a template.')).toBeDefined();
    expect(within(dialog).getByText('Choose at least one site.')).toBeDefined();
    expect(post).not.toHaveBeenCalled();
  }, 15_000);

  it('shows a schedule, and deletes it only after confirming; without the rights there is nothing to change', async () => {
    const del = vi.fn().mockResolvedValue({ ok: true });
    renderPage(['read', 'update', 'delete'], { get: answers([SCHEDULE]) as unknown as HttpClient['get'], delete: del });
    expect(await screen.findByText('2 audits made', {}, { timeout: 4000 })).toBeDefined();
    expect(screen.queryByRole('button', { name: 'Schedule audits' })).toBeNull();

    const more = screen.getByRole('button', { name: 'Schedule of Fire walk: more' });
    fireEvent.click(more);
    fireEvent.click(await screen.findByRole('menuitem', { name: 'Delete', hidden: true }));
    const confirm = await screen.findByRole('dialog');
    fireEvent.click(within(confirm).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(del).not.toHaveBeenCalled();

    fireEvent.click(more);
    fireEvent.click(await screen.findByRole('menuitem', { name: 'Delete', hidden: true }));
    fireEvent.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(del).toHaveBeenCalledWith('/api/audit_schedules/sch1', expect.anything()));
  }, 15_000);

  it('shows a reader the schedules without switches or menus', async () => {
    renderPage(['read'], { get: answers([SCHEDULE]) as unknown as HttpClient['get'] });
    expect(await screen.findByText('2 audits made', {}, { timeout: 4000 })).toBeDefined();
    expect(screen.queryByRole('switch')).toBeNull();
    expect(screen.queryByRole('button', { name: 'Schedule of Fire walk: more' })).toBeNull();
  }, 15_000);
});
