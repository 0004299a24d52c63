import { auditQuestionInput, type AuditQuestion, type AuditSection } from '@bulwark/domain';
import { describe, expect, it } from 'vitest';
import { conditionSources, draftOf, moveItem, newDraft, previewForm, toInput } from './builder-model.js';

const words = { yes: 'Yes', no: 'No', na: 'N/A' };

const question = (id: string, type: AuditQuestion['type'], over: Partial<AuditQuestion> = {}): AuditQuestion => ({
  id,
  section_id: 's1',
  position: 1,
  type,
  label: id,
  description: null,
  required: true,
  critical: false,
  score: 0,
  expected: type === 'yes_no' ? 'yes' : null,
  allow_na: type === 'yes_no',
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

const sections: AuditSection[] = [
  { id: 's2', name: 'Second', position: 2, active: true, questions: [question('later', 'yes_no', { section_id: 's2' })] },
  {
    id: 's1',
    name: 'First',
    position: 1,
    active: true,
    questions: [
      question('extinguisher', 'yes_no'),
      question('note', 'text'),
      question('state', 'choice', { options: [{ key: 'k1', label: 'Good', score: 5, failure: false, added: false }] }),
    ],
  },
];

describe('the audit template builder', () => {
  it('moves items by drag or buttons and stays put at the ends', () => {
    expect(moveItem(['a', 'b', 'c'], 0, 2)).toEqual(['b', 'c', 'a']);
    expect(moveItem(['a', 'b', 'c'], 1, -4)).toEqual(['b', 'a', 'c']);
    expect(moveItem(['a', 'b'], 1, 1)).toEqual(['a', 'b']);
  });

  it('offers as parents only yes/no and options questions before the question, in form order', () => {
    const sources = conditionSources(sections, 's2', 0, words);
    expect(sources.map((s) => s.id)).toEqual(['extinguisher', 'state']);
    expect(sources[0]!.options.map((o) => o.key)).toEqual(['yes', 'no', 'na']);
    expect(conditionSources(sections, 's1', 1, words).map((s) => s.id)).toEqual(['extinguisher']);
  });

  it('sends what the server takes: a new question with its key, no score or options its type does not use', () => {
    const d = { ...newDraft('text'), label: 'Comments', score: 7, critical: true, options: [{ label: 'x', score: 1, failure: false }] };
    const input = toInput(d);
    expect(input).toMatchObject({ key: d.key, score: 0, critical: false, options: [] });
    expect(auditQuestionInput.safeParse(input).success).toBe(true);
    const choice = {
      ...newDraft('choice'),
      label: 'Condition',
      options: [
        { label: 'Good ', score: 5, failure: false },
        { label: '', score: 0, failure: false },
        { label: 'Poor', score: 0, failure: true },
      ],
    };
    expect(toInput(choice).options).toEqual([
      { label: 'Good', score: 5, failure: false },
      { label: 'Poor', score: 0, failure: true },
    ]);
    expect(auditQuestionInput.safeParse(toInput(choice)).success).toBe(true);
  });

  it('keeps a saved question by its id and its parent as chosen', () => {
    const child = question('why', 'choice', {
      condition: { question_id: 'extinguisher', option_key: 'no' },
      options: [
        { key: 'a', label: 'Missing', score: 0, failure: true, added: false },
        { key: 'b', label: 'Added on site', score: 0, failure: false, added: true },
      ],
    });
    const input = toInput(draftOf(child));
    expect(input.id).toBe('why');
    expect(input.condition).toEqual({ question: 'extinguisher', option: 'no' });
    // An option an auditor added on site belongs to that audit, not to the template.
    expect(input.options?.map((o) => o.label)).toEqual(['Missing']);
  });

  it('previews the switched-on sections in order', () => {
    const form = previewForm({
      scoring: true,
      declaration: null,
      sections: [...sections, { ...sections[0]!, id: 'off', position: 3, active: false }],
    });
    expect(form.sections.map((s) => s.id)).toEqual(['s1', 's2']);
  });
});
