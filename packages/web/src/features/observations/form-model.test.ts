import { describe, expect, it } from 'vitest';
import {
  canRemoveRow,
  createBody,
  emptyDraft,
  futureTimeError,
  setActionRequired,
  updateBody,
  withSite,
  type Draft,
} from './form-model.js';
import { importProblems } from '../../ui/index.js';

const SITE = '11111111-1111-4111-8111-111111111111';
const USER = '22222222-2222-4222-8222-222222222222';
// 12:00 UTC is 13:00 in London (BST, 1 June) and 21:00 in Tokyo.
const NOW = new Date('2026-06-01T12:00:00Z');

function filled(change: Partial<Draft> = {}): Draft {
  return {
    ...emptyDraft(),
    type: 'unsafe_act',
    description: 'Ladder on wet floor',
    site_id: SITE,
    observed_at: '2026-06-01T12:30',
    observed_at_touched: true,
    risk_level: 'high',
    action_required: false,
    comment: 'Seen at gate 2',
    ...change,
  };
}

describe('the future-time check', () => {
  it('reads the time on the site’s clock, not the browser’s', () => {
    expect(futureTimeError('2026-06-01T13:00', 'Europe/London', NOW)).toBeNull();
    expect(futureTimeError('2026-06-01T13:01', 'Europe/London', NOW)).toBe('observations.validation.futureTime');
    // The same wall time is long past in Tokyo.
    expect(futureTimeError('2026-06-01T13:01', 'Asia/Tokyo', NOW)).toBeNull();
  });

  it('stops the body before it is sent', () => {
    const checked = createBody(filled({ observed_at: '2026-06-01T14:00' }), [], 'Europe/London', NOW);
    expect(checked.body).toBeNull();
    expect(checked.errors).toEqual({ observed_at: 'observations.validation.futureTime' });
  });

  it('fills an untouched time with now at the chosen site, and keeps a typed one', () => {
    const zone = () => 'Asia/Tokyo';
    expect(withSite(emptyDraft(), SITE, zone, NOW).observed_at).toBe('2026-06-01T21:00');
    expect(withSite(filled(), SITE, zone, NOW).observed_at).toBe('2026-06-01T12:30');
  });
});

describe('the action rows rule', () => {
  it('opens one row on "yes" and drops the rows on "no"', () => {
    const yes = setActionRequired(filled(), true);
    expect(yes.actions).toHaveLength(1);
    expect(canRemoveRow(yes)).toBe(false);
    expect(setActionRequired(yes, false).actions).toEqual([]);
  });

  it('lets the last row go when actions were raised before (an edit)', () => {
    const yes = setActionRequired(filled(), true, 2);
    expect(yes.actions).toHaveLength(0);
    expect(canRemoveRow({ ...yes, actions: [] }, 2)).toBe(true);
  });

  it('names every missing field of a row by its path', () => {
    const draft = setActionRequired(filled(), true);
    const checked = createBody(draft, [], 'Europe/London', NOW);
    expect(checked.errors).toMatchObject({
      'actions.0.description': 'validation.required',
      'actions.0.control_type': 'actions.validation.controlType',
      'actions.0.responsible_id': 'actions.validation.responsible',
      'actions.0.due_date': 'actions.validation.dueDate',
    });
  });

  it('sends a complete row', () => {
    const draft = setActionRequired(filled(), true);
    draft.actions[0] = {
      ...draft.actions[0]!,
      description: 'Dry the floor',
      control_type: 'engineering',
      responsible_id: USER,
      due_date: '2026-06-05',
    };
    const checked = createBody(draft, [], 'Europe/London', NOW);
    expect(checked.errors).toBeNull();
    expect(checked.body?.actions).toEqual([expect.objectContaining({ description: 'Dry the floor', responsible_id: USER })]);
  });

  it('on an edit, "yes" without old or new actions is refused', () => {
    const checked = updateBody(filled({ action_required: true }), [], 0, 'Europe/London', NOW);
    expect(checked.errors).toMatchObject({ actions: 'observations.validation.actionsRequired' });
    const fine = updateBody(filled({ action_required: true }), [], 1, 'Europe/London', NOW);
    expect(fine.errors).toBeNull();
  });

  it('asks for the yes/no answer itself', () => {
    expect(createBody(filled({ action_required: null }), [], 'Europe/London', NOW).errors).toMatchObject({
      action_required: 'validation.required',
    });
  });
});

describe('the import report', () => {
  it('merges the answer’s rows and "<row>.<column>" field texts, sorted', () => {
    expect(importProblems({ errors: [{ row: 4, field: 'site', message: 'Unknown site' }] }, { '2.type': 'Bad type', file: 'x' })).toEqual([
      { row: 2, field: 'type', message: 'Bad type' },
      { row: 4, field: 'site', message: 'Unknown site' },
    ]);
  });
});
