import type { PermitForm, PermitSection } from '@bulwark/domain';
import { describe, expect, it } from 'vitest';
import {
  addHours,
  answersToSend,
  areaOptions,
  areasOf,
  EMPTY_REQUEST,
  nextFullHour,
  pickArea,
  requestBody,
  submitProblems,
  uploadsPending,
} from './request-model.js';

const site: PermitForm['sites'][number] = {
  id: 's1',
  name: 'Riverside',
  time_zone: 'Europe/London',
  areas: [
    { id: 'd1', parent_id: null, level: 'division', name: 'Production', full_name: 'Production' },
    { id: 'd2', parent_id: null, level: 'division', name: 'Warehouse', full_name: 'Warehouse' },
    { id: 'p1', parent_id: 'd1', level: 'department', name: 'Paint', full_name: 'Production / Paint' },
    { id: 'u1', parent_id: 'p1', level: 'unit', name: 'Booth 2', full_name: 'Production / Paint / Booth 2' },
  ],
};

const q = (id: string, over: Partial<PermitSection['questions'][number]> = {}): PermitSection['questions'][number] => ({
  id,
  section_id: 'x',
  position: 1,
  type: 'text_field',
  label: id,
  required: false,
  max_length: null,
  options: [],
  attachment: null,
  hidden_value: null,
  help_text: null,
  reference_image: null,
  condition: null,
  binding: null,
  fixed: false,
  ...over,
});
const section = (questions: PermitSection['questions']): PermitSection => ({
  id: 'sec',
  name: 'Checks',
  kind: 'custom',
  position: 3,
  fixed: false,
  active: true,
  questions,
});

describe('the area pickers', () => {
  it('offers departments only under the picked division, and clears the levels below a new pick', () => {
    expect(areaOptions(site, 'division', {}).map((a) => a.id)).toEqual(['d1', 'd2']);
    expect(areaOptions(site, 'department', {})).toEqual([]);
    expect(areaOptions(site, 'department', { division: 'd1' }).map((a) => a.id)).toEqual(['p1']);
    expect(pickArea({ division: 'd1', department: 'p1', unit: 'u1' }, 'division', 'd2')).toEqual({ division: 'd2' });
  });
  it('rebuilds the picks of a saved area from its parents, and sends the deepest', () => {
    const areas = areasOf(site, 'u1');
    expect(areas).toEqual({ unit: 'u1', department: 'p1', division: 'd1' });
    expect(requestBody({ ...EMPTY_REQUEST, areas }).site_node_id).toBe('u1');
  });
});

describe('times', () => {
  it('adds hours on the wall clock, across midnight', () => {
    expect(addHours('2026-03-01T20:00', 8)).toBe('2026-03-02T04:00');
  });
  it('starts a new request at the next full hour', () => {
    expect(nextFullHour(new Date(2026, 2, 1, 23, 10))).toEqual({ date: '2026-03-02', time: '00:00' });
  });
});

describe('answers', () => {
  it('sends the ids of the uploaded files only, and waits while one is on its way', () => {
    const answers = {
      a: [
        { key: '1', name: 'a.png', progress: 1, fileId: 'f1' },
        { key: '2', name: 'b.png', progress: 0.4 },
      ],
      b: 'Yes',
      c: ['m1', 'm2'],
    };
    expect(answersToSend(answers)).toEqual({ a: ['f1'], b: 'Yes', c: ['m1', 'm2'] });
    expect(uploadsPending(answers)).toBe(true);
    expect(uploadsPending({ a: [{ key: '1', name: 'a.png', progress: 1, fileId: 'f1' }] })).toBe(false);
  });
});

describe('before submitting', () => {
  const radio = q('gas', { type: 'radio_button', options: ['Yes', 'No'], required: true });
  const follow = q('reading', { required: true, condition: { question_id: 'gas', answer: 'Yes' } });
  it('names every missing piece, a conditional question only when it is shown', () => {
    const none = submitProblems(EMPTY_REQUEST, [section([radio, follow])]);
    expect(none).toEqual({
      worker_ids: 'permits.validation.workersRequired',
      site_id: 'permits.validation.siteRequired',
      start_at: 'permits.validation.startRequired',
      end_at: 'permits.validation.endRequired',
      'answers.gas': 'validation.required',
    });
    const filled = {
      ...EMPTY_REQUEST,
      worker_ids: ['w1'],
      site_id: 's1',
      start_date: '2026-03-01',
      start_time: '08:00',
      end_date: '2026-03-01',
      end_time: '07:00',
      answers: { gas: 'Yes' },
    };
    expect(submitProblems(filled, [section([radio, follow])])).toEqual({
      end_at: 'permits.validation.endBeforeStart',
      'answers.reading': 'validation.required',
    });
    expect(submitProblems({ ...filled, end_time: '16:00', answers: { gas: 'No' } }, [section([radio, follow])])).toEqual({});
  });
});
