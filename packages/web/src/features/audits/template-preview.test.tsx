import type { AuditQuestion, AuditTemplateDetail } from '@bulwark/domain';
import { MantineProvider } from '@mantine/core';
import { fireEvent, render, screen } from '@testing-library/react';
import { I18nextProvider } from 'react-i18next';
import { describe, expect, it } from 'vitest';
import { createI18n } from '../../i18n/setup.js';
import { TemplatePreview } from './template-preview.js';

const question = (over: Partial<AuditQuestion> & Pick<AuditQuestion, 'id' | 'label' | 'position'>): AuditQuestion => ({
  section_id: 's1',
  type: 'yes_no',
  description: null,
  required: true,
  critical: false,
  score: 1,
  expected: 'yes',
  allow_na: true,
  multiple: false,
  options: [],
  add_options: false,
  min: null,
  max: null,
  attachments: false,
  row_headers: [],
  condition: null,
  notify: null,
  ...over,
});

const TEMPLATE: AuditTemplateDetail = {
  id: 't1',
  name: 'Fire walk',
  description: null,
  icon: 'fire',
  type: 'fire',
  scoring: true,
  declaration: null,
  active: true,
  sections_count: 2,
  questions_count: 2,
  max_score: 2,
  audits_count: 0,
  schedules_count: 0,
  created_at: '2026-01-01T00:00:00.000Z',
  updated_at: '2026-01-01T00:00:00.000Z',
  sections: [
    {
      id: 's1',
      name: 'Exits',
      position: 1,
      active: true,
      questions: [
        question({ id: 'q1', label: 'Are the exits clear?', position: 1 }),
        question({
          id: 'q2',
          label: 'What blocks them?',
          position: 2,
          type: 'text',
          score: 0,
          allow_na: false,
          expected: null,
          condition: { question_id: 'q1', option_key: 'no' },
        }),
      ],
    },
    { id: 's2', name: 'Switched off', position: 2, active: false, questions: [] },
  ],
};

function renderPreview() {
  const i18n = createI18n('en');
  render(
    <I18nextProvider i18n={i18n}>
      <MantineProvider>
        <TemplatePreview template={TEMPLATE} />
      </MantineProvider>
    </I18nextProvider>,
  );
}

describe('the template builder preview', () => {
  it('shows a child question only after its parent’s answer, and runs the score', () => {
    renderPreview();
    expect(screen.getByText('Are the exits clear?')).toBeTruthy();
    expect(screen.queryByText('What blocks them?')).toBeNull();
    // A switched-off section is not in the preview: no section picker for one section.
    expect(screen.queryByText('Switched off')).toBeNull();

    fireEvent.click(screen.getByRole('radio', { name: 'No' }));
    expect(screen.getByText('What blocks them?')).toBeTruthy();
    expect(screen.getByText('0 of 1 (0%)')).toBeTruthy();

    fireEvent.click(screen.getByRole('radio', { name: 'Yes' }));
    expect(screen.queryByText('What blocks them?')).toBeNull();
    expect(screen.getByText('1 of 1 (100%)')).toBeTruthy();

    fireEvent.click(screen.getByRole('button', { name: 'Clear the answers' }));
    expect(screen.queryByRole('button', { name: 'Clear the answers' })).toBeNull();
  });
});
