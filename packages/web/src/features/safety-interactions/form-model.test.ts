import { describe, expect, it } from 'vitest';
import { checkForm, emptyForm, rowKey, type FormState } from './form-model.js';

const SITE = '11111111-1111-4111-8111-111111111111';
const USER = '22222222-2222-4222-8222-222222222222';
const t = (key: string) => `t:${key}`;

function filled(change: Partial<FormState> = {}): FormState {
  return {
    ...emptyForm({ id: USER, full_name: 'Lee Leader' }, new Date('2026-06-01T12:00:00Z')),
    site_id: SITE,
    held_at: '2026-06-01T10:30',
    duration: ' 20 ',
    crew: ' Night shift ',
    topics: ['ppe'],
    safe: [{ key: rowKey(), topic: 'ppe', note: 'Gloves worn' }],
    location: '',
    ...change,
  };
}

describe('checkForm', () => {
  it('answers the body the schema reads: numbers, trimmed text, empty text as null, defaults', () => {
    const checked = checkForm(filled(), 'completed', t);
    expect(checked.errors).toBeNull();
    expect(checked.body).toMatchObject({
      observer_id: USER,
      site_id: SITE,
      location: null,
      duration_minutes: 20,
      crew: 'Night shift',
      topics: ['ppe'],
      safe_behaviours: [{ topic: 'ppe', note: 'Gloves worn' }],
      at_risk_behaviours: [],
      status: 'completed',
      actions: [],
    });
  });

  it('names each problem by the server’s dotted path, translated, and answers no body', () => {
    const fields = checkForm(filled({ safe: [{ key: rowKey(), topic: 'ppe', note: ' ' }], duration: 'long' }), 'completed', t);
    expect(fields.body).toBeNull();
    expect(fields.errors).toEqual({
      duration_minutes: 't:safetyInteractions.validation.duration',
      'safe_behaviours.0.note': 't:validation.required',
    });
    const rules = checkForm(filled({ crew: '', topics: [], safe: [] }), 'completed', t);
    expect(rules.errors).toEqual({
      participants: 't:safetyInteractions.validation.whoRequired',
      topics: 't:safetyInteractions.validation.topicsRequired',
    });
  });

  it('lets a draft leave out who and what', () => {
    expect(checkForm(filled({ crew: '', topics: [], safe: [] }), 'draft', t).errors).toBeNull();
  });
});
