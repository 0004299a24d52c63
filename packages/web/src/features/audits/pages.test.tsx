import type { AuditCalendar, AuditSummary, AuditTemplateDetail, AuditTrends, ProfileResponse } from '@bulwark/domain';
import { MantineProvider } from '@mantine/core';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { fireEvent, render, screen, within } from '@testing-library/react';
import type { ReactNode } from 'react';
import { I18nextProvider } from 'react-i18next';
import { MemoryRouter, Route, Routes } from 'react-router';
import { describe, expect, it, vi } from 'vitest';
import type { HttpClient } from '../../api/http.js';
import type { PushClient } from '../../api/push-client.js';
import { createMemoryStorage, createSessionStore } from '../../api/session-store.js';
import { PROFILE_KEY } from '../../app/profile.js';
import { ServicesContext, type Services } from '../../app/services.js';
import { createI18n } from '../../i18n/setup.js';
import { AuditCalendarPage } from './calendar-page.js';
import { AuditSummaryPage } from './summary-page.js';
import { AuditFormsPage } from './templates-page.js';
import { AuditTrendsPage } from './trends-page.js';

const profile = (rules: ProfileResponse['rules']): ProfileResponse => ({
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
  rules,
  organization_modules: [],
});

const FORM_DATA = {
  templates: [],
  sites: [{ id: 's1', name: 'Plant A', time_zone: 'UTC', nodes: [] }],
  auditors: [],
  users: [],
  frequencies: [],
  limits: null,
};

function renderAt(path: string, route: string, page: ReactNode, http: Partial<HttpClient>, rules: ProfileResponse['rules']) {
  const i18n = createI18n('en');
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  queryClient.setQueryData(PROFILE_KEY, profile(rules));
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
            <MemoryRouter initialEntries={[path]}>
              <Routes>
                <Route path={route} element={page} />
              </Routes>
            </MemoryRouter>
          </MantineProvider>
        </QueryClientProvider>
      </I18nextProvider>
    </ServicesContext.Provider>,
  );
}

const counts = { scheduled: 2, in_progress: 1, overdue: 1, completed: 3, approved: 4, total: 11 };

describe('the audit summary', () => {
  it('shows the totals, by template and site, and the questions failed most', async () => {
    const summary: AuditSummary = {
      counts: { ...counts, rejected: 0 },
      on_time: 6,
      late: 1,
      average_score: 82.5,
      key_findings: 3,
      actions: { total: 3, open: 1, overdue: 1, done: 1 },
      by_template: [{ template: { id: 't1', name: 'Fire walk' }, audits: 11, completed: 7, average_score: 82.5 }],
      by_site: [{ site: { id: 's1', name: 'Plant A' }, audits: 11, completed: 7, average_score: null }],
      most_failed: [
        {
          question_id: 'q1',
          label: 'Exits clear?',
          section: 'Exits',
          template: { id: 't1', name: 'Fire walk' },
          critical: true,
          failures: 2,
          answers: 7,
        },
      ],
    };
    const post = vi.fn().mockResolvedValue(summary);
    renderAt('/audit-summary?site_id=s1', '/audit-summary', <AuditSummaryPage />, { get: vi.fn().mockResolvedValue(FORM_DATA), post }, [
      { subject: 'Audit', actions: ['read'] },
    ]);
    expect(await screen.findByText('6 completed on time, 1 late', {}, { timeout: 4000 })).toBeDefined();
    expect(post).toHaveBeenCalledWith('/api/audits/auditSummaryInfo', { site_id: 's1' }, expect.anything());
    expect(screen.getByText('Exits clear?', { exact: false })).toBeDefined();
    expect(screen.getAllByText('Failed 2 of 7 times').length).toBeGreaterThan(0);
    // Each status opens the list with the same filters.
    expect(screen.getAllByRole('link').map((a) => a.getAttribute('href'))).toContain('/audits/overdue?site_id=s1');
  }, 15_000);

  it('says there is nothing yet, and offers scheduling to who may', async () => {
    const empty = {
      counts: { scheduled: 0, in_progress: 0, overdue: 0, completed: 0, approved: 0, total: 0, rejected: 0 },
      on_time: 0,
      late: 0,
      average_score: null,
      key_findings: 0,
      actions: { total: 0, open: 0, overdue: 0, done: 0 },
      by_template: [],
      by_site: [],
      most_failed: [],
    };
    renderAt(
      '/audit-summary',
      '/audit-summary',
      <AuditSummaryPage />,
      { get: vi.fn().mockResolvedValue(FORM_DATA), post: vi.fn().mockResolvedValue(empty) },
      [{ subject: 'Audit', actions: ['read', 'create'] }],
    );
    expect(await screen.findByText(/There are no audits yet/, {}, { timeout: 4000 })).toBeDefined();
    expect(screen.getByRole('link', { name: 'Schedule audits' })).toBeDefined();
  }, 15_000);
});

describe('the audit calendar', () => {
  it('lays the month out and moves between months', async () => {
    const month = (m: string): AuditCalendar => ({
      month: m,
      days: [{ date: `${m}-10`, scheduled: 2, completed: 1, overdue: 0 }],
      totals: { scheduled: 2, completed: 1, overdue: 0 },
    });
    const post = vi.fn((_path: string, body: { month: string }) => Promise.resolve(month(body.month)));
    renderAt(
      '/audit-calendar?month=2026-06',
      '/audit-calendar',
      <AuditCalendarPage />,
      { get: vi.fn().mockResolvedValue(FORM_DATA), post: post as unknown as HttpClient['post'] },
      [{ subject: 'Audit', actions: ['read'] }],
    );
    const grid = await screen.findByRole('grid', {}, { timeout: 4000 });
    expect(within(grid).getAllByRole('row')).toHaveLength(6);
    expect(within(grid).getAllByRole('link')[0]!.getAttribute('href')).toBe('/audits/scheduled?from=2026-06-10&to=2026-06-10');
    fireEvent.click(screen.getByRole('button', { name: 'Next month' }));
    await vi.waitFor(() => expect(post).toHaveBeenLastCalledWith('/api/audits/schedulesinfo', { month: '2026-07' }, expect.anything()));
  }, 15_000);
});

describe('the audit trends', () => {
  it('draws a template’s scores per site and lists what failed most', async () => {
    const trends: AuditTrends = {
      from: '2026-01',
      to: '2026-03',
      templates: [
        {
          template: { id: 't1', name: 'Fire walk', type: 'fire' },
          series: [{ site: { id: 's1', name: 'Plant A' }, points: [{ month: '2026-02', average_score: 90, audits: 2 }] }],
          most_failed: [],
        },
      ],
    };
    renderAt(
      '/audit-trends',
      '/audit-trends',
      <AuditTrendsPage />,
      {
        get: vi.fn((p: string) => Promise.resolve(p.startsWith('/api/audit_trends') ? trends : FORM_DATA)) as unknown as HttpClient['get'],
      },
      [{ subject: 'Audit', actions: ['read'] }],
    );
    expect(await screen.findByRole('img', { name: 'Average score per site and month: Fire walk' }, { timeout: 4000 })).toBeDefined();
    expect(screen.getByText('90 %')).toBeDefined();
    expect(screen.getByText('No question has failed.')).toBeDefined();
  }, 15_000);
});

describe('the audit templates', () => {
  it('lists templates and opens the builder with its sections and preview', async () => {
    const tpl: AuditTemplateDetail = {
      id: 't1',
      name: 'Fire walk',
      description: null,
      icon: 'fire',
      type: 'fire',
      scoring: true,
      declaration: null,
      active: true,
      sections_count: 1,
      questions_count: 0,
      max_score: 0,
      audits_count: 0,
      schedules_count: 0,
      created_at: '2026-01-01T00:00:00.000Z',
      updated_at: '2026-01-01T00:00:00.000Z',
      sections: [{ id: 'sec1', name: 'Exits', position: 1, active: true, questions: [] }],
    };
    const get = vi.fn((p: string) =>
      Promise.resolve(
        p === '/api/audits/t1'
          ? { template: tpl }
          : p.startsWith('/api/audits?') || p === '/api/audits'
            ? { templates: [tpl], limit: null }
            : FORM_DATA,
      ),
    );
    renderAt('/audit-forms/t1', '/audit-forms/:id', <AuditFormsPage />, { get: get as unknown as HttpClient['get'] }, [
      { subject: 'Audit Template', actions: ['read', 'update'] },
    ]);
    expect(await screen.findByRole('heading', { name: 'Fire walk' }, { timeout: 4000 })).toBeDefined();
    expect(screen.getAllByText('1. Exits').length).toBeGreaterThan(0);
    expect(screen.getByRole('button', { name: 'Add a question' })).toBeDefined();
    expect(screen.getByRole('button', { name: 'Template settings' })).toBeDefined();
    // No create right: no copy.
    expect(screen.queryByRole('button', { name: 'Copy' })).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Add a question' }));
    expect(await screen.findByRole('dialog', { name: 'New question' })).toBeDefined();
  }, 15_000);

  it('changes the report settings from the list, for who may edit templates', async () => {
    const settings = {
      logo: null,
      include: {
        scorecard: true,
        section_summary: true,
        responses: true,
        key_findings: true,
        action_items: true,
        timeline: true,
        attachments: true,
        notes: true,
      },
      header_text: null,
      updated_at: null,
    };
    const get = vi.fn((p: string) =>
      Promise.resolve(
        p === '/api/audit_report_settings' ? { settings } : p.startsWith('/api/audits') ? { templates: [], limit: null } : FORM_DATA,
      ),
    );
    const put = vi.fn().mockResolvedValue({ settings });
    renderAt('/audit-forms', '/audit-forms', <AuditFormsPage />, { get: get as unknown as HttpClient['get'], put }, [
      { subject: 'Audit Template', actions: ['read', 'update'] },
    ]);
    expect(await screen.findByText('There are no audit templates yet.', {}, { timeout: 4000 })).toBeDefined();
    // No create right: no new template.
    expect(screen.queryByRole('button', { name: 'New template' })).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Report settings' }));
    const dialog = await screen.findByRole('dialog');
    fireEvent.click(await within(dialog).findByRole('checkbox', { name: 'Notes' }));
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    await vi.waitFor(() =>
      expect(put).toHaveBeenCalledWith(
        '/api/audit_report_settings',
        expect.objectContaining({ include: expect.objectContaining({ notes: false, scorecard: true }) }),
        expect.anything(),
      ),
    );
  }, 15_000);
});
