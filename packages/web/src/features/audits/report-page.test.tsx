import type { AuditReport } from '@bulwark/domain';
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
import { AuditReportPage } from './report-page.js';

const ID = '3f1b5c2e-1111-4a4a-8888-000000000001';
const include = {
  scorecard: true,
  section_summary: true,
  responses: true,
  key_findings: true,
  action_items: true,
  timeline: true,
  attachments: true,
  notes: false,
};

const REPORT: AuditReport = {
  audit: {
    id: ID,
    serial_label: 'AUD-000007',
    template: { id: 't1', name: 'Fire walk', type: 'fire', icon: 'fire', scoring: true, description: null },
    site: { id: 's1', name: 'Plant A', time_zone: 'UTC' },
    site_node: null,
    auditor: { id: 'u1', full_name: 'Ada Auditor' },
    auditee: null,
    frequency: 'monthly',
    due_date: '2026-03-02',
    window_end: '2026-03-31',
    status: 'completed',
    late: false,
    started_at: '2026-03-03T09:00:00.000Z',
    completed_at: '2026-03-03T10:00:00.000Z',
    decided_at: null,
    decision_comment: null,
  },
  decided_by: null,
  settings: { logo: null, header_text: 'Bulwark Ltd', include },
  scorecard: {
    obtained: 3,
    assigned: 4,
    percent: 75,
    sections: [
      {
        id: 'sec1',
        name: 'Exits',
        questions: 4,
        shown: 4,
        answered: 4,
        yes: 3,
        no: 1,
        na: 0,
        failed: 1,
        obtained: 3,
        assigned: 4,
        percent: 75,
      },
    ],
  },
  responses: [
    {
      section: 'Exits',
      questions: [
        {
          question_id: 'q1',
          label: 'Are the exits clear?',
          type: 'yes_no',
          critical: true,
          answer: ['No'],
          remark: 'Pallets',
          failed: true,
          obtained: 0,
          assigned: 1,
          files: [],
        },
      ],
    },
  ],
  key_findings: [],
  action_items: [],
  timeline: [{ at: '2026-03-03T10:00:00.000Z', event: 'completed', actor: { id: 'u1', full_name: 'Ada Auditor' }, comment: null }],
  attachments: [],
  notes: 'Left out',
  generated_at: '2026-03-04T08:00:00.000Z',
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
            <MemoryRouter initialEntries={[`/audits/${ID}/report`]}>
              <Routes>
                <Route path="/audits/:id/report" element={<AuditReportPage />} />
              </Routes>
            </MemoryRouter>
          </MantineProvider>
        </QueryClientProvider>
      </I18nextProvider>
    </ServicesContext.Provider>,
  );
}

describe('the audit report page', () => {
  it('shows the parts the settings include, and mails the PDF to the people chosen after confirming', async () => {
    const get = vi.fn((path: string) => {
      if (path.endsWith('/report')) return Promise.resolve({ report: REPORT });
      if (path === '/api/audits/audit_data')
        return Promise.resolve({ users: [{ id: 'u2', full_name: 'Sam Safety', email: 'sam@example.com' }] });
      return Promise.resolve({ audit: { id: ID, permissions: { send_report: true } } });
    });
    const post = vi.fn().mockResolvedValue({ audit: { id: ID, permissions: { send_report: true } } });
    renderPage({ get: get as unknown as HttpClient['get'], post: post as unknown as HttpClient['post'] });

    expect(await screen.findByText('Audit report AUD-000007', {}, { timeout: 4000 })).toBeDefined();
    expect(screen.getByText('Bulwark Ltd')).toBeDefined();
    expect(screen.getByText('3 of 4 (75%)')).toBeDefined();
    expect(screen.getByText('Are the exits clear?', { exact: false })).toBeDefined();
    expect(screen.getByText('Remark: Pallets')).toBeDefined();
    // Notes are left out by the settings.
    expect(screen.queryByText('Left out')).toBeNull();

    fireEvent.click(await screen.findByRole('button', { name: 'E-mail the report' }));
    const dialog = await screen.findByRole('dialog');
    fireEvent.click(await within(dialog).findByRole('button', { name: 'Send the report' }));
    expect(await within(dialog).findByText('Choose at least one recipient.')).toBeDefined();
    expect(post).not.toHaveBeenCalled();

    fireEvent.click(within(dialog).getByLabelText('Members'));
    fireEvent.click(await screen.findByRole('option', { name: 'Sam Safety (sam@example.com)', hidden: true }, { timeout: 2000 }));
    fireEvent.click(within(dialog).getByRole('button', { name: 'Send the report' }));
    const confirm = await screen.findByText('Send the report of AUD-000007 to 1 recipient?');
    fireEvent.click(within(confirm.closest('[role="dialog"]') as HTMLElement).getByRole('button', { name: 'Send the report' }));
    await waitFor(() =>
      expect(post).toHaveBeenCalledWith(
        `/api/v2/audits/${ID}/send_report`,
        { user_ids: ['u2'], emails: [], message: null },
        expect.anything(),
      ),
    );
  }, 15_000);
});
