import { describe, expect, it } from 'vitest';
import type { AuditForm, AuditQuestion } from './form.js';
import { auditProgress, auditQuestionResults, auditScore, auditShownQuestions, emptyAnswerCell, type AuditAnswerCell } from './scoring.js';

const q = (id: string, position: number, over: Partial<AuditQuestion> = {}): AuditQuestion => ({
  id,
  section_id: 's1',
  position,
  type: 'yes_no',
  label: id,
  description: null,
  required: true,
  critical: false,
  score: 10,
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
const opt = (key: string, score: number, failure = false) => ({ key, label: key, score, failure, added: false });

/**
 * Fire extinguishers: are they in place (yes/no, 10)? If no, a child asks why (options: missing 0 and a
 * failure, being serviced 5). The condition of the unit (options 0..4), a reading in range (5), notes.
 */
const form: AuditForm = {
  scoring: true,
  declaration: null,
  sections: [
    {
      id: 's1',
      name: 'Fire',
      position: 1,
      active: true,
      questions: [
        q('placed', 1),
        q('why', 2, {
          type: 'choice',
          score: 0,
          expected: null,
          allow_na: false,
          options: [opt('missing', 0, true), opt('service', 5)],
          condition: { question_id: 'placed', option_key: 'no' },
        }),
        q('condition', 3, { type: 'choice', score: 0, expected: null, allow_na: false, options: [opt('poor', 0, true), opt('good', 4)] }),
        q('pressure', 4, { type: 'number', expected: null, allow_na: false, score: 5, min: 10, max: 15 }),
        q('notes', 5, { type: 'text', score: 0, expected: null, allow_na: false, required: false }),
      ],
    },
  ],
};

const cell = (over: Partial<AuditAnswerCell>): AuditAnswerCell => ({ ...emptyAnswerCell(), ...over });
const yes = cell({ choice: ['yes'] });
const no = cell({ choice: ['no'] });
const na = cell({ na: true });
const pick = (...keys: string[]) => cell({ choice: keys });

describe('the running score: obtained ÷ assigned over the questions shown, NA excluded (issue 17)', () => {
  it('hides a child question until its parent chooses the matching option', () => {
    expect([...auditShownQuestions(form, [])]).toEqual(['placed', 'condition', 'pressure', 'notes']);
    expect(auditShownQuestions(form, [{ question_id: 'placed', cells: [yes] }]).has('why')).toBe(false);
    expect(auditShownQuestions(form, [{ question_id: 'placed', cells: [no] }]).has('why')).toBe(true);
  });

  it('counts a hidden question’s stored answer nowhere', () => {
    const answers = [
      { question_id: 'placed', cells: [yes] },
      { question_id: 'why', cells: [pick('service')] }, // answered while "no", then "yes" was chosen
      { question_id: 'condition', cells: [pick('good')] },
    ];
    const results = auditQuestionResults(form, answers);
    expect(results.find((r) => r.question_id === 'why')).toMatchObject({ shown: false, obtained: null, assigned: null });
    expect(auditScore(results)).toEqual({ obtained: 14, assigned: 14, percent: 100 });
  });

  it('scores a shown child, and a failing option fails it', () => {
    const results = auditQuestionResults(form, [
      { question_id: 'placed', cells: [no] },
      { question_id: 'why', cells: [pick('missing')] },
      { question_id: 'condition', cells: [pick('good')] },
      { question_id: 'pressure', cells: [cell({ number: 12 })] },
    ]);
    // placed 0/10, why 0/5, condition 4/4, pressure 5/5.
    expect(auditScore(results)).toEqual({ obtained: 9, assigned: 24, percent: 37.5 });
    expect(results.filter((r) => r.failed).map((r) => r.question_id)).toEqual(['placed', 'why']);
  });

  it('leaves NA answers out of the score, and a number outside its range fails with no points', () => {
    const results = auditQuestionResults(form, [
      { question_id: 'placed', cells: [na] },
      { question_id: 'condition', cells: [pick('good')] },
      { question_id: 'pressure', cells: [cell({ number: 20 })] },
    ]);
    expect(auditScore(results)).toEqual({ obtained: 4, assigned: 9, percent: 44.4 });
    expect(results.find((r) => r.question_id === 'placed')).toMatchObject({ na: true, failed: false });
    expect(results.find((r) => r.question_id === 'pressure')?.failed).toBe(true);
  });

  it('has no score while nothing scored is answered, or when the template does not score', () => {
    expect(auditScore(auditQuestionResults(form, [])).percent).toBeNull();
    const off = { ...form, scoring: false };
    expect(auditScore(auditQuestionResults(off, [{ question_id: 'placed', cells: [yes] }]), false)).toEqual({
      obtained: 0,
      assigned: 0,
      percent: null,
    });
  });

  it('asks for the required questions shown, not for hidden ones', () => {
    const results = auditQuestionResults(form, [{ question_id: 'placed', cells: [no] }]);
    expect(auditProgress(form, results)).toEqual({ shown: 5, answered: 1, missing_required: ['why', 'condition', 'pressure'] });
  });

  it('answers a question with row headers once per row, each row scored', () => {
    const rows: AuditForm = {
      ...form,
      sections: [{ ...form.sections[0]!, questions: [q('units', 1, { row_headers: ['Ground floor', 'First floor'] })] }],
    };
    const results = auditQuestionResults(rows, [{ question_id: 'units', cells: [yes, no] }]);
    expect(auditScore(results)).toEqual({ obtained: 10, assigned: 20, percent: 50 });
    expect(auditQuestionResults(rows, [{ question_id: 'units', cells: [yes] }])[0]!.answered).toBe(false);
  });

  it('marks a failed critical question', () => {
    const critical: AuditForm = { ...form, sections: [{ ...form.sections[0]!, questions: [q('exits', 1, { critical: true })] }] };
    expect(auditQuestionResults(critical, [{ question_id: 'exits', cells: [no] }])[0]!.critical_failed).toBe(true);
    expect(auditQuestionResults(critical, [{ question_id: 'exits', cells: [na] }])[0]!.critical_failed).toBe(false);
  });
});
