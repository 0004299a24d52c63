/**
 * Actions raised together with their source record (an observation, a safety interaction): the rows
 * as typed, before the server turns them into actions of that source.
 */
export type ActionItemRow = {
  key: string;
  description: string;
  control_type: string | null;
  responsible_id: string | null;
  due_date: string;
  /** Only where the form offers the actions module's categories. */
  category_id?: string | null;
};

let counter = 0;

/** A blank row; its key only tells React the rows apart. */
export function emptyActionItem(): ActionItemRow & { category_id: string | null } {
  counter += 1;
  return { key: `a${counter}`, description: '', control_type: null, responsible_id: null, due_date: '', category_id: null };
}

/**
 * One row changed, and the server paths (`<prefix>.<index>.<field>`) whose errors the change makes
 * stale: the index is the row's place in the list, as the server numbered it.
 */
export function editActionItem<R extends ActionItemRow>(
  rows: R[],
  key: string,
  change: Partial<Omit<ActionItemRow, 'key'>>,
  prefix: string,
): { rows: R[]; stale: string[] } {
  const index = rows.findIndex((r) => r.key === key);
  return {
    rows: rows.map((r) => (r.key === key ? { ...r, ...change } : r)),
    stale: Object.keys(change).map((field) => `${prefix}.${index}.${field}`),
  };
}

export function removeActionItem<R extends ActionItemRow>(rows: R[], key: string): R[] {
  return rows.filter((r) => r.key !== key);
}

/** A row may go unless it is the last one standing while at least one action is required. */
export function canRemoveActionItem(count: number, atLeastOne: boolean): boolean {
  return !(atLeastOne && count <= 1);
}

/** A row's field error as the server (or the form's own check) keys it: `actions.0.due_date`. */
export function actionItemError(
  errors: Record<string, string>,
  prefix: string,
  index: number,
  field: keyof Omit<ActionItemRow, 'key'>,
): string | undefined {
  return errors[`${prefix}.${index}.${field}`];
}
