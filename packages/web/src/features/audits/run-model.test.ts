import { emptyAnswerCell, type AuditForm, type AuditQuestion } from '@bulwark/domain';
import { describe, expect, it } from 'vitest';
import { answerBody, blankDraft, liveState, sectionIndex, toggleChoice, type Drafts } from './run-model.js';

const q = (id: string, over: Partial<AuditQuestion> = {}): AuditQuestion => ({
  id,
  section_id: 's1',
  position: 1,
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
        q('placed', { position: 1 }),
        q('why', {
          position: 2,
          type: 'choice',
          score: 5,
          expected: null,
          allow_na: false,
          options: [
            { key: 'missing', label: 'Missing', score: 0, failure: true, added: false },
            { key: 'service', label: 'Being serviced', score: 5, failure: false, added: false },
          ],
          condition: { question_id: 'placed', option_key: 'no' },
        }),
        q('exits', { position: 3, critical: true }),
      ],
    },
  ],
};

const answer = (choice: string): Drafts[string] => ({
  ...blankDraft({ row_headers: [] }),
  cells: [{ ...emptyAnswerCell(), choice: [choice] }],
});

describe('the running audit on the screen', () => {
  it('shows a child question only when its parent is answered with its option, and scores only what shows', () => {
    expect(liveState(form, {}).shown).toEqual(new Set(['placed', 'exits']));
    const failed = liveState(form, { placed: answer('no'), why: answer('missing'), exits: answer('no') });
    expect(failed.shown.has('why')).toBe(true);
    expect(failed.score).toEqual({ obtained: 0, assigned: 25, percent: 0 });
    expect(failed.results.get('exits')?.critical_failed).toBe(true);
    // Answered yes, the child hides again and leaves the score, whatever it held.
    const passed = liveState(form, { placed: answer('yes'), why: answer('missing'), exits: answer('yes') });
    expect(passed.shown.has('why')).toBe(false);
    expect(passed.score).toEqual({ obtained: 20, assigned: 20, percent: 100 });
    expect(passed.progress).toEqual({ shown: 2, answered: 2, missing_required: [] });
  });

  it('sends a whole answer, clears an emptied one, and holds a partial one back', () => {
    const rows = q('ext', { row_headers: ['Bay 1', 'Bay 2'] });
    const partial = { ...blankDraft(rows), cells: [{ ...emptyAnswerCell(), choice: ['yes'] }, emptyAnswerCell()] };
    expect(answerBody(rows, partial)).toBeUndefined();
    const whole = { ...partial, cells: [partial.cells[0]!, { ...emptyAnswerCell(), na: true }], remark: '  ' };
    expect(answerBody(rows, whole)).toMatchObject({ question_id: 'ext', remark: null, attachment_ids: [] });
    expect(answerBody(rows, blankDraft(rows))).toEqual({ question_id: 'ext', cells: null, remark: null, attachment_ids: [] });
  });

  it('sets one choice (a second tap keeps it) and toggles several', () => {
    const one = toggleChoice(emptyAnswerCell(), 'yes', false);
    expect(toggleChoice(one, 'yes', false).choice).toEqual(['yes']);
    expect(toggleChoice(one, 'na', false)).toMatchObject({ na: true, choice: [] });
    const two = toggleChoice(toggleChoice(emptyAnswerCell(), 'a', true), 'b', true);
    expect(two.choice).toEqual(['a', 'b']);
    expect(toggleChoice(two, 'a', true).choice).toEqual(['b']);
  });

  it('reads the section index of the address within range', () => {
    expect(sectionIndex('2', 3)).toBe(2);
    expect(sectionIndex('9', 3)).toBe(3);
    expect(sectionIndex('x', 3)).toBe(1);
    expect(sectionIndex(undefined, 0)).toBe(1);
  });
});
