import { WORKFLOW_MAX_REVIEWERS } from '@bulwark/domain';

/** The reviewer list of the form: ordered, distinct, at most five. */
export function addReviewer(list: readonly string[], id: string): string[] {
  if (list.includes(id) || list.length >= WORKFLOW_MAX_REVIEWERS) return [...list];
  return [...list, id];
}

export function removeReviewer(list: readonly string[], id: string): string[] {
  return list.filter((x) => x !== id);
}

/** Moves the reviewer at `index` one place up (-1) or down (+1); out-of-range moves change nothing. */
export function moveReviewer(list: readonly string[], index: number, by: -1 | 1): string[] {
  const target = index + by;
  if (index < 0 || index >= list.length || target < 0 || target >= list.length) return [...list];
  const next = [...list];
  [next[index], next[target]] = [next[target]!, next[index]!];
  return next;
}

/** Form ids typed one per line (or separated by commas/spaces). */
export function parseFormIds(text: string): string[] {
  return text
    .split(/[\s,;]+/)
    .map((s) => s.trim())
    .filter(Boolean);
}
