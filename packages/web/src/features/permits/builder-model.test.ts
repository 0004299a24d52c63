import type { PermitSection } from '@bulwark/domain';
import { describe, expect, it } from 'vitest';
import { conditionSources, moveItem, newDraft, toInput } from './builder-model.js';
import { boardPhase, clock } from './board-model.js';

describe('moving an item', () => {
  it('moves up and down, and stays put at the ends', () => {
    expect(moveItem(['a', 'b', 'c'], 2, 0)).toEqual(['c', 'a', 'b']);
    expect(moveItem(['a', 'b', 'c'], 0, 1)).toEqual(['b', 'a', 'c']);
    expect(moveItem(['a', 'b', 'c'], 0, -1)).toEqual(['a', 'b', 'c']);
    expect(moveItem(['a', 'b', 'c'], 2, 3)).toEqual(['a', 'b', 'c']);
  });
});

describe('a question as saved', () => {
  it('keeps a new question’s key, drops blank choices and what its type does not use', () => {
    const d = { ...newDraft('radio_button'), label: 'Gas test done?', options: ['Yes', ' ', 'No'], max_length: 10 };
    const input = toInput(d);
    expect(input.key).toBe(d.key);
    expect(input.id).toBeUndefined();
    expect(input.options).toEqual(['Yes', 'No']);
    expect(input.max_length).toBeNull();
  });
});

const radio = (id: string) => ({
  id,
  section_id: 's',
  position: 1,
  type: 'radio_button' as const,
  label: id,
  required: false,
  max_length: null,
  options: ['Yes', 'No'],
  attachment: null,
  hidden_value: null,
  help_text: null,
  reference_image: null,
  condition: null,
  binding: null,
  fixed: false,
});
const sec = (id: string, ids: string[]): PermitSection => ({
  id,
  name: id,
  kind: 'custom',
  position: 1,
  fixed: false,
  active: true,
  questions: ids.map(radio),
});

describe('conditions', () => {
  it('point only at radio questions earlier in the form', () => {
    const sections = [sec('A', ['a1', 'a2']), sec('B', ['b1', 'b2']), sec('C', ['c1'])];
    expect(conditionSources(sections, 'B', 1).map((s) => s.id)).toEqual(['a1', 'a2', 'b1']);
    expect(conditionSources(sections, 'A', 0)).toEqual([]);
  });
});

describe('the board clock', () => {
  it('counts down from the answer and says where each permit stands', () => {
    expect(clock(2 * 3600 + 5 * 60 + 9)).toBe('2:05:09');
    expect(clock(-65)).toBe('1:05');
    expect(boardPhase({ starts_in_seconds: 100, time_left_seconds: 5000 }, 10)).toBe('upcoming');
    expect(boardPhase({ starts_in_seconds: 0, time_left_seconds: 3600 }, 10)).toBe('running');
    expect(boardPhase({ starts_in_seconds: 0, time_left_seconds: 1900 }, 200)).toBe('ending');
    expect(boardPhase({ starts_in_seconds: 0, time_left_seconds: 30 }, 31)).toBe('ended');
  });
});
