/** Module names as the rule set names them (spec 000 §3). */
export const SUBJECTS = [
  'User',
  'Site',
  'Role',
  'WorkFlow',
  'Category',
  'RC Master',
  'Audit Template',
  'Permit Form Setting',
  'Permit',
  'HIRA',
  'Library',
  'Observation',
  'Incident',
  'Organization',
  'Action',
  'Audit',
] as const;
export type Subject = (typeof SUBJECTS)[number];

/** Operations a rule may grant. The last five exist only for workflow modules. */
export const ACTIONS = ['read', 'create', 'update', 'delete', 'revoke', 'extend', 'close', 'reject', 'approve'] as const;
export type Action = (typeof ACTIONS)[number];

export const WORKFLOW_SUBJECTS = ['Incident', 'Observation', 'Permit', 'Audit'] as const satisfies readonly Subject[];
export const WORKFLOW_ACTIONS = ['revoke', 'extend', 'close', 'reject', 'approve'] as const satisfies readonly Action[];

/** Subjects an organisation's roles can grant: everything but Organization, which is the platform's. */
export const ROLE_SUBJECTS = SUBJECTS.filter((s) => s !== 'Organization');

export type Rule = { subject: Subject; actions: Action[] };

/** One row of a role's matrix (spec 000 §3 role_actions_attributes). */
export type RoleAction = {
  name: Subject;
  r_add: boolean;
  r_edit: boolean;
  r_view: boolean;
  r_destroy: boolean;
  is_revoke?: boolean;
  is_extend?: boolean;
  is_close?: boolean;
  is_reject?: boolean;
  is_approve?: boolean;
};

export function isWorkflowSubject(subject: Subject): boolean {
  return (WORKFLOW_SUBJECTS as readonly Subject[]).includes(subject);
}

/** Turns a role's matrix into the rule set the session carries. Rows granting nothing are dropped. */
export function rulesFromRoleActions(rows: readonly RoleAction[]): Rule[] {
  const rules: Rule[] = [];
  for (const row of rows) {
    const actions: Action[] = [];
    if (row.r_view) actions.push('read');
    if (row.r_add) actions.push('create');
    if (row.r_edit) actions.push('update');
    if (row.r_destroy) actions.push('delete');
    if (isWorkflowSubject(row.name)) {
      if (row.is_revoke) actions.push('revoke');
      if (row.is_extend) actions.push('extend');
      if (row.is_close) actions.push('close');
      if (row.is_reject) actions.push('reject');
      if (row.is_approve) actions.push('approve');
    }
    if (actions.length > 0) rules.push({ subject: row.name, actions });
  }
  return rules;
}
