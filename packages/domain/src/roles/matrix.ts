import { ROLE_SUBJECTS, isWorkflowSubject, type Subject } from '../access/subjects.js';

/** The four rights every module row carries (spec 000 §3 role_actions_attributes). */
export const ROLE_BASIC_FLAGS = ['r_add', 'r_edit', 'r_view', 'r_destroy'] as const;
export type RoleBasicFlag = (typeof ROLE_BASIC_FLAGS)[number];

/** The five rights only workflow modules (Incident, Observation, Permit, Audit) carry. */
export const ROLE_WORKFLOW_FLAGS = ['is_revoke', 'is_extend', 'is_close', 'is_reject', 'is_approve'] as const;
export type RoleWorkflowFlag = (typeof ROLE_WORKFLOW_FLAGS)[number];

export type RoleFlag = RoleBasicFlag | RoleWorkflowFlag;
export const ROLE_FLAGS: readonly RoleFlag[] = [...ROLE_BASIC_FLAGS, ...ROLE_WORKFLOW_FLAGS];

/** Names of the permit_rules entries, in the order of ROLE_WORKFLOW_FLAGS (spec 000 §3). */
export const ROLE_PERMIT_RULE_NAMES = ['Revoke', 'Extend', 'Close', 'Reject', 'Approve'] as const;
export type RolePermitRuleName = (typeof ROLE_PERMIT_RULE_NAMES)[number];

/** The subjects a role's matrix lists, in display order: every subject but the platform's Organization. */
export type RoleSubject = (typeof ROLE_SUBJECTS)[number];
export const ROLE_MATRIX_SUBJECTS: readonly RoleSubject[] = ROLE_SUBJECTS;

/** One row of the matrix with every flag spelt out (false where a module has no such right). */
export type RoleMatrixRow = { name: RoleSubject } & Record<RoleFlag, boolean>;

/** Flags a module offers: the four basic ones, plus the five workflow ones for workflow modules. */
export function roleFlagsOf(subject: Subject): readonly RoleFlag[] {
  return isWorkflowSubject(subject) ? ROLE_FLAGS : ROLE_BASIC_FLAGS;
}

/** A stable machine key for a module name: 'Permit Form Setting' -> 'permit_form_setting'. */
export function roleModuleKey(subject: Subject): string {
  return subject.toLowerCase().replace(/[^a-z0-9]+/g, '_');
}

export function emptyRoleRow(name: RoleSubject): RoleMatrixRow {
  return {
    name,
    r_add: false,
    r_edit: false,
    r_view: false,
    r_destroy: false,
    is_revoke: false,
    is_extend: false,
    is_close: false,
    is_reject: false,
    is_approve: false,
  };
}

/**
 * The consistency rules of one row, applied the same way by the server (before storing) and by the
 * editor (after each click):
 * 1. A non-workflow module never holds workflow rights: they are cleared.
 * 2. Any right but view implies view: adding, editing, deleting, revoking, extending, closing,
 *    rejecting or approving records one cannot see makes no sense, so view is switched on.
 * The rules normalise rather than refuse, so a client that sends `r_add: true` alone gets add + view.
 */
export function normalizeRoleRow(row: Partial<Record<RoleFlag, boolean>> & { name: RoleSubject }): RoleMatrixRow {
  const out = emptyRoleRow(row.name);
  for (const flag of roleFlagsOf(row.name)) out[flag] = row[flag] === true;
  if (ROLE_FLAGS.some((f) => f !== 'r_view' && out[f])) out.r_view = true;
  return out;
}

/**
 * Turning view off in the editor takes every other right of the row with it (rule 2 the other way
 * round); turning any other right on turns view on.
 */
export function toggleRoleFlag(row: RoleMatrixRow, flag: RoleFlag, value: boolean): RoleMatrixRow {
  if (!roleFlagsOf(row.name).includes(flag)) return row;
  if (flag === 'r_view' && !value) return emptyRoleRow(row.name);
  return normalizeRoleRow({ ...row, [flag]: value });
}

/** Sets every right of a row on or off (the row's "select all"). */
export function setRoleRow(row: RoleMatrixRow, value: boolean): RoleMatrixRow {
  const out = emptyRoleRow(row.name);
  for (const flag of roleFlagsOf(row.name)) out[flag] = value;
  return out;
}

/** Sets one right on every module that offers it (a column's "select all"). */
export function setRoleColumn(rows: readonly RoleMatrixRow[], flag: RoleFlag, value: boolean): RoleMatrixRow[] {
  return rows.map((row) => toggleRoleFlag(row, flag, value));
}

/** 'all' when every module offering the right has it, 'none' when none has it, else 'some'. */
export function roleColumnState(rows: readonly RoleMatrixRow[], flag: RoleFlag): 'all' | 'none' | 'some' {
  const offering = rows.filter((r) => roleFlagsOf(r.name).includes(flag));
  const on = offering.filter((r) => r[flag]).length;
  if (on === 0) return 'none';
  return on === offering.length ? 'all' : 'some';
}

export function roleRowState(row: RoleMatrixRow): 'all' | 'none' | 'some' {
  const flags = roleFlagsOf(row.name);
  const on = flags.filter((f) => row[f]).length;
  if (on === 0) return 'none';
  return on === flags.length ? 'all' : 'some';
}

/**
 * The full matrix, one normalised row per module in display order, from whatever rows were given
 * (missing modules get no rights). Rows of unknown or duplicate modules must be refused before this.
 */
export function completeRoleMatrix(rows: ReadonlyArray<Partial<Record<RoleFlag, boolean>> & { name: RoleSubject }>): RoleMatrixRow[] {
  const byName = new Map(rows.map((r) => [r.name, r]));
  return ROLE_MATRIX_SUBJECTS.map((name) => normalizeRoleRow(byName.get(name) ?? { name }));
}

/** The permit_rules entries of a workflow row: Revoke, Extend, Close, Reject, Approve with is_allow. */
export function rolePermitRules(row: RoleMatrixRow): Array<{ name: RolePermitRuleName; is_allow: boolean }> {
  if (!isWorkflowSubject(row.name)) return [];
  return ROLE_PERMIT_RULE_NAMES.map((name, i) => ({ name, is_allow: row[ROLE_WORKFLOW_FLAGS[i]!] }));
}
