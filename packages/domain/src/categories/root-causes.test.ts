import { describe, expect, it } from 'vitest';
import { categoryCreateSchema, categoryUpdateSchema } from './schemas.js';
import {
  ROOT_CAUSE_MAX_DEPTH,
  rootCauseAncestors,
  rootCauseCreateSchema,
  rootCauseDescendants,
  rootCauseHeight,
  rootCauseIndex,
  rootCauseMoveProblem,
} from './root-causes.js';

// People > Training > Not trained > Induction skipped ; Equipment
const nodes = [
  { id: 'people', parent_id: null },
  { id: 'training', parent_id: 'people' },
  { id: 'not-trained', parent_id: 'training' },
  { id: 'induction', parent_id: 'not-trained' },
  { id: 'equipment', parent_id: null },
];
const tree = rootCauseIndex(nodes);

describe('root-cause tree', () => {
  it('lists ancestors from the type down', () => {
    expect(rootCauseAncestors('induction', tree.byId).map((n) => n.id)).toEqual(['people', 'training', 'not-trained']);
    expect(rootCauseAncestors('people', tree.byId)).toEqual([]);
  });

  it('lists descendants and measures height', () => {
    expect(rootCauseDescendants('people', tree.children).map((n) => n.id)).toEqual(['training', 'not-trained', 'induction']);
    expect(rootCauseHeight('people', tree.children)).toBe(3);
    expect(rootCauseHeight('equipment', tree.children)).toBe(0);
  });

  it('refuses a move below itself or its own descendants', () => {
    expect(rootCauseMoveProblem('training', 'training', tree)).toBe('cycle');
    expect(rootCauseMoveProblem('training', 'induction', tree)).toBe('cycle');
    expect(rootCauseMoveProblem('training', 'equipment', tree)).toBeNull();
    expect(rootCauseMoveProblem('training', null, tree)).toBeNull();
  });

  it('refuses a tree deeper than the limit', () => {
    // induction is at depth 3; a new child is at 4, a child of that at 5 = the limit.
    expect(ROOT_CAUSE_MAX_DEPTH).toBe(5);
    expect(rootCauseMoveProblem(null, 'induction', tree)).toBeNull();
    const deeper = rootCauseIndex([...nodes, { id: 'd4', parent_id: 'induction' }, { id: 'd5', parent_id: 'd4' }]);
    expect(rootCauseMoveProblem(null, 'd4', deeper)).toBeNull();
    expect(rootCauseMoveProblem(null, 'd5', deeper)).toBe('tooDeep');
    // Moving the people subtree (height 3) below equipment would put induction at depth 4: allowed; below training of another tree: too deep.
    expect(rootCauseMoveProblem('people', 'equipment', deeper)).toBe('tooDeep');
  });

  it('survives a looping chain in stored data', () => {
    const loop = rootCauseIndex([
      { id: 'a', parent_id: 'b' },
      { id: 'b', parent_id: 'a' },
    ]);
    expect(rootCauseAncestors('a', loop.byId).map((n) => n.id)).toEqual(['b']);
  });

  it('validates names', () => {
    expect(rootCauseCreateSchema.safeParse({ name: '  ' }).success).toBe(false);
    expect(rootCauseCreateSchema.safeParse({ name: 'People', parent_id: null }).success).toBe(true);
    expect(rootCauseCreateSchema.safeParse({ name: 'x', parent_id: 'nope' }).success).toBe(false);
  });
});

describe('category schemas', () => {
  it('requires a type of the chosen module', () => {
    const bad = categoryCreateSchema.safeParse({ module: 'observations', type: 'injury', name: 'Slips' });
    expect(bad.success).toBe(false);
    expect(bad.error?.issues[0]).toMatchObject({ path: ['type'], message: 'categories.validation.typeNotInModule' });
    expect(categoryCreateSchema.safeParse({ module: 'observations', type: 'unsafe_act', name: ' Slips ' }).data?.name).toBe('Slips');
  });

  it('says required for a missing name and refuses an empty change', () => {
    const missing = categoryCreateSchema.safeParse({ module: 'observations', type: 'unsafe_act' });
    expect(missing.error?.issues.find((i) => i.path[0] === 'name')?.message).toBe('validation.required');
    expect(categoryUpdateSchema.safeParse({}).success).toBe(false);
  });
});
