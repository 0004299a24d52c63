import { describe, expect, it } from 'vitest';
import { addReviewer, moveReviewer, parseFormIds, removeReviewer } from './reviewer-order.js';

describe('reviewer order', () => {
  it('adds distinct reviewers up to five', () => {
    let list: string[] = [];
    for (const id of ['a', 'b', 'a', 'c', 'd', 'e', 'f']) list = addReviewer(list, id);
    expect(list).toEqual(['a', 'b', 'c', 'd', 'e']);
  });

  it('moves and removes', () => {
    expect(moveReviewer(['a', 'b', 'c'], 2, -1)).toEqual(['a', 'c', 'b']);
    expect(moveReviewer(['a', 'b', 'c'], 0, 1)).toEqual(['b', 'a', 'c']);
    expect(moveReviewer(['a', 'b', 'c'], 0, -1)).toEqual(['a', 'b', 'c']);
    expect(moveReviewer(['a', 'b', 'c'], 2, 1)).toEqual(['a', 'b', 'c']);
    expect(removeReviewer(['a', 'b', 'c'], 'b')).toEqual(['a', 'c']);
  });

  it('reads form ids from lines or commas', () => {
    expect(parseFormIds(' x1\n x2, x3 \n\n')).toEqual(['x1', 'x2', 'x3']);
  });
});
