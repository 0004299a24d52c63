import type { RootCauseNode } from '@bulwark/domain';
import { describe, expect, it } from 'vitest';
import { activeBelow, isHidden, parentOptions, visibleNodes } from './root-cause-tree.js';

const node = (id: string, parent: string | null, depth: number, type: string, active = true): RootCauseNode => ({
  id,
  parent_id: parent,
  name: id,
  type_name: type,
  depth,
  active,
  children_count: 0,
  created_at: '',
  updated_at: '',
});
const nodes = [
  node('People', null, 0, 'People'),
  node('Training', 'People', 1, 'People'),
  node('Not trained', 'Training', 2, 'People'),
  node('Equipment', null, 0, 'Equipment'),
  node('Maintenance', 'Equipment', 1, 'Equipment', false),
];

describe('why-analysis tree view', () => {
  it('filters by type and keeps the path to search matches', () => {
    expect(visibleNodes(nodes, 'Equipment', '').map((n) => n.id)).toEqual(['Equipment', 'Maintenance']);
    expect(visibleNodes(nodes, null, 'trained').map((n) => n.id)).toEqual(['People', 'Training', 'Not trained']);
    expect(visibleNodes(nodes, 'Equipment', 'trained')).toEqual([]);
  });

  it('hides nodes below a collapsed entry', () => {
    const byId = new Map(nodes.map((n) => [n.id, n]));
    expect(isHidden(nodes[2]!, byId, new Set(['People']))).toBe(true);
    expect(isHidden(nodes[2]!, byId, new Set(['People', 'Training']))).toBe(false);
    expect(isHidden(nodes[0]!, byId, new Set())).toBe(false);
  });

  it('offers as parents everything but the node and its own entries', () => {
    expect(parentOptions(nodes, nodes[1]!).map((n) => n.id)).toEqual(['People', 'Equipment', 'Maintenance']);
    expect(parentOptions(nodes, null)).toHaveLength(5);
  });

  it('counts active entries below', () => {
    expect(activeBelow(nodes, 'People')).toBe(2);
    expect(activeBelow(nodes, 'Equipment')).toBe(0);
  });
});
