import { describe, expect, it } from 'vitest';
import { changedFields } from './action-form.js';

const before = {
  description: 'Fit a guard rail',
  control_type: 'engineering' as const,
  responsible_id: 'a',
  due_date: '2026-12-01',
  category_id: null,
  site_id: 's',
  remarks: '',
  image_description: '',
};

describe('the edit form sends only what changed', () => {
  it('leaves untouched and whitespace-only edits out', () => {
    expect(changedFields(before, { ...before, description: ' Fit a guard rail ' }, ['description', 'due_date'])).toEqual({});
  });

  it('sends a reassignment and a cleared category, but not fields the person may not change', () => {
    const after = { ...before, responsible_id: 'b', category_id: null, remarks: 'Done', due_date: '2026-12-24' };
    expect(changedFields({ ...before, category_id: 'c' }, after, ['responsible_id', 'category_id', 'remarks'])).toEqual({
      responsible_id: 'b',
      category_id: null,
      remarks: 'Done',
    });
  });
});
