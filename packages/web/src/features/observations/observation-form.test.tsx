import { catalogs, type ObservationFormData } from '@bulwark/domain';
import { MantineProvider } from '@mantine/core';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { fireEvent, render, screen, within } from '@testing-library/react';
import { I18nextProvider } from 'react-i18next';
import { MemoryRouter } from 'react-router';
import { describe, expect, it, vi } from 'vitest';
import { ApiError } from '../../api/api-error.js';
import type { HttpClient } from '../../api/http.js';
import type { PushClient } from '../../api/push-client.js';
import { createMemoryStorage, createSessionStore } from '../../api/session-store.js';
import { ServicesContext, type Services } from '../../app/services.js';
import { createI18n } from '../../i18n/setup.js';
import { ObservationForm } from './observation-form.js';

const en = catalogs.en;
const NOW = Date.parse('2026-06-01T12:00:00Z'); // 13:00 in London
const FORM_DATA: ObservationFormData = {
  sites: [{ id: '11111111-1111-4111-8111-111111111111', name: 'Harbour', time_zone: 'Europe/London', nodes: [] }],
  types: [{ type: 'unsafe_act', categories: [] }],
  risk_levels: ['low', 'high'],
  control_types: ['engineering', 'ppe'],
  action_categories: [],
  users: [{ id: '22222222-2222-4222-8222-222222222222', full_name: 'Tomasz Kowalski', email: 'tomasz@demo.test' }],
};

function renderForm(http: Partial<HttpClient>) {
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
    now: () => NOW,
  };
  render(
    <ServicesContext.Provider value={services}>
      <I18nextProvider i18n={i18n}>
        <QueryClientProvider client={queryClient}>
          <MantineProvider>
            <MemoryRouter>
              <ObservationForm formData={FORM_DATA} record={null} />
            </MemoryRouter>
          </MantineProvider>
        </QueryClientProvider>
      </I18nextProvider>
    </ServicesContext.Provider>,
  );
}

/** The first element labelled so (a select's list is labelled by it too; the form's description comes before an action's). */
const field = (label: string, scope: Pick<typeof screen, 'getAllByLabelText'> = screen) =>
  scope.getAllByLabelText(new RegExp(`^${label}`))[0]!;

async function choose(label: string, option: string, scope: Pick<typeof screen, 'getAllByLabelText'> = screen) {
  const input = field(label, scope);
  // A searchable select opens as the person types; a plain one on a click.
  fireEvent.click(input);
  if (!(input as HTMLInputElement).readOnly) fireEvent.change(input, { target: { value: option.slice(0, 3) } });
  // Mantine keeps the dropdown out of the accessibility tree until its opening transition ends, which jsdom never runs.
  fireEvent.click(await screen.findByRole('option', { name: option, hidden: true }, { timeout: 2000 }));
}

async function fillValid() {
  await choose(en.observations.fields.type, en.categories.types.unsafe_act);
  fireEvent.change(field(en.observations.fields.description), { target: { value: 'Ladder on a wet floor' } });
  await choose(en.observations.fields.site, 'Harbour');
  await choose(en.observations.fields.riskLevel, `${en.observations.riskLevels.high} — ${en.observations.riskHints.high}`);
  fireEvent.change(field(en.observations.fields.comment), { target: { value: 'Gate 2' } });
}

describe('the observation form', () => {
  it('fills the time from the site’s clock and refuses a future time before sending', async () => {
    const post = vi.fn();
    renderForm({ post });
    await fillValid();
    expect((field(en.observations.fields.observedAt) as HTMLInputElement).value).toBe('2026-06-01T13:00');
    fireEvent.click(screen.getByLabelText(en.observations.fields.no));
    fireEvent.change(field(en.observations.fields.observedAt), { target: { value: '2026-06-01T13:30' } });
    fireEvent.click(screen.getByRole('button', { name: en.observations.form.submit }));
    expect(await screen.findByText(en.observations.validation.futureTime)).toBeTruthy();
    expect(post).not.toHaveBeenCalled();
  });

  it('opens an action row on "yes", keeps the last one, and shows the server’s field errors under the row', async () => {
    const post = vi
      .fn()
      .mockRejectedValue(
        new ApiError('Invalid', 400, 'validation_failed', { 'actions.0.due_date': 'The due date cannot be before today at the site.' }),
      );
    renderForm({ post });
    await fillValid();
    fireEvent.click(screen.getByLabelText(en.observations.fields.yes));
    const row = screen.getByRole('group', { name: 'Action 1' });
    expect((within(row).getByRole('button', { name: 'Remove action 1' }) as HTMLButtonElement).disabled).toBe(true);
    fireEvent.click(screen.getByRole('button', { name: en.observations.form.submit }));
    expect(await within(row).findByText(en.actions.validation.responsible)).toBeTruthy();
    expect(post).not.toHaveBeenCalled();

    fireEvent.change(field(en.actions.fields.description, within(row)), { target: { value: 'Dry the floor' } });
    await choose(en.actions.fields.controlType, en.actions.controlType.engineering, within(row));
    await choose(en.actions.fields.responsible, 'Tomasz Kowalski (tomasz@demo.test)', within(row));
    fireEvent.change(field(en.actions.fields.dueDate, within(row)), { target: { value: '2026-06-01' } });
    fireEvent.click(screen.getByRole('button', { name: en.observations.form.submit }));
    expect(await screen.findByText('The due date cannot be before today at the site.')).toBeTruthy();
    expect(post).toHaveBeenCalledWith(
      '/api/observations',
      expect.objectContaining({ action_required: true, actions: [expect.objectContaining({ control_type: 'engineering' })] }),
      expect.anything(),
    );
  });
});
