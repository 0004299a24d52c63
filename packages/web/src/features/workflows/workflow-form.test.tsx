import { catalogs, type Workflow } from '@bulwark/domain';
import { MantineProvider } from '@mantine/core';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import type { ReactNode } from 'react';
import { I18nextProvider } from 'react-i18next';
import { describe, expect, it, vi } from 'vitest';
import type { HttpClient } from '../../api/http.js';
import type { PushClient } from '../../api/push-client.js';
import { createMemoryStorage, createSessionStore } from '../../api/session-store.js';
import { ServicesContext, type Services } from '../../app/services.js';
import { createI18n } from '../../i18n/setup.js';
import { WorkflowForm } from './workflow-form.js';

const en = catalogs.en.workflows;
const REVIEWER = { id: '0190a0a0-0000-7000-8000-000000000001', full_name: 'Priya Nair', email: 'priya@acme.test', status: 'Active' };
const SITE = '0190a0a0-0000-7000-8000-0000000000b1';

const stored: Workflow = {
  id: '0190a0a0-0000-7000-8000-0000000000aa',
  title: 'Hot work review',
  module: 'permits',
  type: 'sequential',
  lead_time_hours: 36,
  reviewers: [{ ...REVIEWER, position: 1 }],
  escalation_user: null,
  site_ids: [SITE],
  form_ids: [],
  created_at: '2026-11-20T09:00:00Z',
  updated_at: '2026-11-20T09:00:00Z',
};

function renderWith(ui: ReactNode, http: Partial<HttpClient>) {
  const i18n = createI18n('en');
  const queryClient = new QueryClient();
  const services: Services = {
    http: http as HttpClient,
    session: createSessionStore(createMemoryStorage()),
    push: {} as PushClient,
    queryClient,
    i18n,
    storage: createMemoryStorage(),
    location: { host: 'demo.localhost:3000', protocol: 'http:', assign: vi.fn() },
    now: () => 0,
  };
  return render(
    <ServicesContext.Provider value={services}>
      <QueryClientProvider client={queryClient}>
        <I18nextProvider i18n={i18n}>
          <MantineProvider>{ui}</MantineProvider>
        </I18nextProvider>
      </QueryClientProvider>
    </ServicesContext.Provider>,
  );
}

describe('the workflow form', () => {
  it('takes the lead time in hours and sends it as lead_time_hours', async () => {
    const get = vi.fn().mockResolvedValue({ users: [REVIEWER], sites: [{ id: SITE, name: 'North Plant' }] });
    const patch = vi.fn().mockResolvedValue(stored);
    renderWith(<WorkflowForm workflow={stored} opened onClose={() => undefined} />, { get, patch });
    const lead = (await screen.findByLabelText(new RegExp(en.fields.leadTime.replace(/[()]/g, '\\$&')))) as HTMLInputElement;
    expect(en.fields.leadTime).toBe('Lead time (hours)');
    expect(lead.value).toBe('36');
    fireEvent.change(lead, { target: { value: '72' } });
    fireEvent.click(screen.getByRole('button', { name: en.actions.save }));
    await waitFor(() => expect(patch).toHaveBeenCalled());
    const [path, body] = patch.mock.calls[0]! as [string, Record<string, unknown>];
    expect(path).toBe(`/api/workflows/${stored.id}`);
    expect(body).toMatchObject({ lead_time_hours: 72 });
    expect(body).not.toHaveProperty('lead_time_days');
    // The whole dialog's first render takes seconds on a loaded machine: a ceiling, not a timed check.
  }, 30_000);
});
