import { describe, expect, it } from 'vitest';
import { answerProblem, checkAnswers, visibleQuestionIds, type FormQuestion, type FormSection } from './form.js';
import { questionProblems } from './template-rules.js';
import { questionInput } from './template.js';

const uuid = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
const q = (n: number, over: Partial<FormQuestion> = {}): FormQuestion => ({
  id: uuid(n),
  type: 'text_field',
  required: false,
  max_length: null,
  options: [],
  attachment: null,
  hidden_value: null,
  condition: null,
  binding: null,
  ...over,
});

/** A hot-work form: the fire-watch radio, its conditional name, a hidden standard; a closure checklist. */
const FORM: FormSection[] = [
  { id: 's1', kind: 'location', active: true, questions: [q(1, { type: 'site', binding: 'site', required: true })] },
  {
    id: 's2',
    kind: 'custom',
    active: true,
    questions: [
      q(2, { type: 'radio_button', options: ['Yes', 'No'], required: true }),
      q(3, { required: true, max_length: 5, condition: { question_id: uuid(2), answer: 'Yes' } }),
      q(4, { type: 'hidden_field', hidden_value: 'NFPA 51B' }),
      q(5, { type: 'date_only' }),
      q(6, { type: 'time' }),
      q(7, { type: 'attachment', attachment: { kinds: ['image'], max_files: 1, max_file_kb: 100 } }),
    ],
  },
  { id: 's3', kind: 'custom', active: false, questions: [q(8, { required: true })] },
  {
    id: 's4',
    kind: 'closure',
    active: true,
    questions: [
      q(9, { type: 'radio_button', options: ['Yes', 'No'], required: true }),
      q(10, { required: true, condition: { question_id: uuid(2), answer: 'Yes' } }),
    ],
  },
];

describe('conditional questions', () => {
  it('show only when their radio question has the answer, and never from a switched-off section', () => {
    expect(visibleQuestionIds(FORM, { [uuid(2)]: 'No' }).has(uuid(3))).toBe(false);
    expect(visibleQuestionIds(FORM, { [uuid(2)]: 'Yes' }).has(uuid(3))).toBe(true);
    expect(visibleQuestionIds(FORM, {}).has(uuid(8))).toBe(false);
  });
});

describe('checking the answers of a phase', () => {
  it('submitting asks the shown required answers; the conditional one only when shown', () => {
    const no = checkAnswers(FORM, { [uuid(2)]: 'No', [uuid(3)]: 'dropped' }, { phase: 'request', complete: true });
    expect(no.errors).toEqual({});
    expect(no.values).toEqual({ [uuid(2)]: 'No', [uuid(4)]: 'NFPA 51B' });
    const yes = checkAnswers(FORM, { [uuid(2)]: 'Yes' }, { phase: 'request', complete: true });
    expect(yes.errors).toEqual({ [`answers.${uuid(3)}`]: 'validation.required' });
  });

  it('a draft may leave answers out, but what it gives must fit', () => {
    const draft = checkAnswers(
      FORM,
      { [uuid(2)]: 'Maybe', [uuid(5)]: '2026-02-30', [uuid(6)]: '25:00' },
      { phase: 'request', complete: false },
    );
    expect(draft.errors).toEqual({
      [`answers.${uuid(2)}`]: 'permits.validation.option',
      [`answers.${uuid(5)}`]: 'validation.invalid',
      [`answers.${uuid(6)}`]: 'validation.invalid',
    });
  });

  it('refuses an answer to a question the form does not have, and the closure checklist’s outside closing', () => {
    const r = checkAnswers(FORM, { [uuid(99)]: 'x', [uuid(9)]: 'Yes' }, { phase: 'request', complete: false });
    expect(Object.keys(r.errors).sort()).toEqual([`answers.${uuid(9)}`, `answers.${uuid(99)}`].sort());
  });

  it('closing answers the closure checklist; its conditions may look at the request’s answers', () => {
    const closing = checkAnswers(FORM, { [uuid(9)]: 'Yes' }, { phase: 'closure', complete: true, others: { [uuid(2)]: 'Yes' } });
    expect(closing.errors).toEqual({ [`answers.${uuid(10)}`]: 'validation.required' });
    expect(checkAnswers(FORM, { [uuid(9)]: 'Yes' }, { phase: 'closure', complete: true, others: { [uuid(2)]: 'No' } }).errors).toEqual({});
  });

  it('text within its length; files and entries as distinct ids, no more than allowed', () => {
    expect(answerProblem(q(3, { max_length: 5 }), 'too long', false)).toBe('validation.tooLong');
    const files = q(7, { type: 'attachment', attachment: { kinds: ['image'], max_files: 1, max_file_kb: 100 } });
    expect(answerProblem(files, [uuid(1), uuid(2)], false)).toBe('permits.validation.tooManyFiles');
    expect(answerProblem(files, [uuid(1), uuid(1)], false)).toBe('validation.invalid');
    expect(answerProblem(files, 'not ids', false)).toBe('validation.invalid');
    expect(answerProblem(q(11, { type: 'equipment_master' }), ['x'], false)).toBe('validation.invalid');
  });
});

describe('what a template question must hold', () => {
  const parse = (v: Record<string, unknown>) => questionInput.parse({ label: 'Q', ...v });
  it('a radio needs two choices, an attachment its rule, a hidden field its value', () => {
    expect(questionProblems(parse({ type: 'radio_button', options: ['Only'] }), 'custom')).toEqual({
      options: 'permits.validation.options',
    });
    expect(questionProblems(parse({ type: 'attachment' }), 'custom')).toEqual({ attachment: 'validation.required' });
    expect(questionProblems(parse({ type: 'hidden_field' }), 'custom')).toEqual({ hidden_value: 'validation.required' });
    expect(questionProblems(parse({ type: 'text_field', max_length: 300 }), 'custom')).toEqual({ max_length: 'validation.invalid' });
  });
  it('location pickers only as the fixed questions; hidden fields not in the closure checklist', () => {
    expect(questionProblems(parse({ type: 'unit' }), 'location')).toEqual({ type: 'permits.validation.locationOnly' });
    expect(questionProblems(parse({ type: 'hidden_field', hidden_value: 'x' }), 'closure')).toEqual({
      type: 'permits.validation.typeNotHere',
    });
  });
});
