import { describe, expect, it } from 'vitest';
import { ROLE_SUBJECTS, rulesFromRoleActions } from '../access/subjects.js';
import {
  completeRoleMatrix,
  emptyRoleRow,
  normalizeRoleRow,
  roleColumnState,
  roleFlagsOf,
  roleModuleKey,
  rolePermitRules,
  roleRowState,
  setRoleColumn,
  setRoleRow,
  toggleRoleFlag,
} from './matrix.js';
import { roleCreateBody, roleNameSchema, roleUpdateBody } from './schemas.js';

describe('role matrix rules', () => {
  it('any right implies view', () => {
    for (const flag of ['r_add', 'r_edit', 'r_destroy'] as const) {
      expect(normalizeRoleRow({ name: 'Site', [flag]: true }).r_view).toBe(true);
    }
    for (const flag of ['is_revoke', 'is_extend', 'is_close', 'is_reject', 'is_approve'] as const) {
      const row = normalizeRoleRow({ name: 'Permit', [flag]: true });
      expect(row.r_view).toBe(true);
      expect(row[flag]).toBe(true);
    }
    expect(normalizeRoleRow({ name: 'Site' }).r_view).toBe(false);
    expect(normalizeRoleRow({ name: 'Site', r_view: true })).toEqual({ ...emptyRoleRow('Site'), r_view: true });
  });

  it('non-workflow modules never keep workflow rights', () => {
    const row = normalizeRoleRow({ name: 'Library', is_approve: true });
    expect(row.is_approve).toBe(false);
    expect(row.r_view).toBe(false);
    expect(roleFlagsOf('Library')).toEqual(['r_add', 'r_edit', 'r_view', 'r_destroy']);
    expect(roleFlagsOf('Audit')).toHaveLength(9);
  });

  it('turning view off clears the row; turning a right on turns view on', () => {
    const full = setRoleRow(emptyRoleRow('Incident'), true);
    expect(roleRowState(full)).toBe('all');
    expect(toggleRoleFlag(full, 'r_view', false)).toEqual(emptyRoleRow('Incident'));
    const withEdit = toggleRoleFlag(emptyRoleRow('Site'), 'r_edit', true);
    expect(withEdit).toMatchObject({ r_edit: true, r_view: true, r_add: false });
    expect(roleRowState(withEdit)).toBe('some');
    // A flag the module does not offer is ignored.
    expect(toggleRoleFlag(emptyRoleRow('Site'), 'is_close', true)).toEqual(emptyRoleRow('Site'));
  });

  it('column select-all touches only modules offering the right', () => {
    const rows = completeRoleMatrix([]);
    expect(rows.map((r) => r.name)).toEqual(ROLE_SUBJECTS);
    const approved = setRoleColumn(rows, 'is_approve', true);
    expect(roleColumnState(approved, 'is_approve')).toBe('all');
    expect(
      approved
        .filter((r) => r.is_approve)
        .map((r) => r.name)
        .sort(),
    ).toEqual(['Audit', 'Incident', 'Observation', 'Permit']);
    expect(approved.find((r) => r.name === 'Site')).toEqual(emptyRoleRow('Site'));
    expect(roleColumnState(approved, 'r_view')).toBe('some');
    expect(roleColumnState(rows, 'r_view')).toBe('none');
    const noView = setRoleColumn(approved, 'r_view', false);
    expect(noView.every((r) => roleRowState(r) === 'none')).toBe(true);
  });

  it('a normalised matrix maps to rules the session carries', () => {
    const rows = completeRoleMatrix([
      { name: 'Permit', is_close: true },
      { name: 'Site', r_add: true },
    ]);
    expect(rulesFromRoleActions(rows)).toEqual([
      { subject: 'Site', actions: ['read', 'create'] },
      { subject: 'Permit', actions: ['read', 'close'] },
    ]);
  });

  it('keys and permit_rules', () => {
    expect(roleModuleKey('Permit Form Setting')).toBe('permit_form_setting');
    expect(roleModuleKey('RC Master')).toBe('rc_master');
    const row = normalizeRoleRow({ name: 'Permit', is_revoke: true, is_approve: true });
    expect(rolePermitRules(row)).toEqual([
      { name: 'Revoke', is_allow: true },
      { name: 'Extend', is_allow: false },
      { name: 'Close', is_allow: false },
      { name: 'Reject', is_allow: false },
      { name: 'Approve', is_allow: true },
    ]);
    expect(rolePermitRules(emptyRoleRow('Site'))).toEqual([]);
  });
});

describe('role schemas', () => {
  const name = (v: unknown) => {
    const r = roleNameSchema.safeParse(v);
    return r.success ? r.data : r.error.issues[0]!.message;
  };
  it('role name: letters, digits, spaces and hyphens', () => {
    expect(name('  Site   supervisor ')).toBe('Site supervisor');
    expect(name('HOD-2')).toBe('HOD-2');
    expect(name('Güvenlik müdürü')).toBe('Güvenlik müdürü');
    expect(name('安全经理')).toBe('安全经理');
    expect(name('')).toBe('validation.required');
    expect(name('   ')).toBe('validation.required');
    expect(name(undefined)).toBe('validation.required');
    expect(name('Admin!')).toBe('roles.validation.nameFormat');
    expect(name('-lead')).toBe('roles.validation.nameFormat');
    expect(name('lead_1')).toBe('roles.validation.nameFormat');
    expect(name('a'.repeat(61))).toBe('validation.tooLong');
  });

  it('refuses duplicate modules, unknown modules and workflow rights on other modules', () => {
    const issues = (body: unknown) => {
      const r = roleCreateBody.safeParse(body);
      return r.success ? [] : r.error.issues.map((i) => `${i.path.join('.')}:${i.message}`);
    };
    expect(issues({ name: 'X', role_actions_attributes: [{ name: 'Site' }, { name: 'Site' }] })).toEqual([
      'role_actions_attributes.1.name:roles.validation.duplicateModule',
    ]);
    expect(issues({ name: 'X', role_actions_attributes: [{ name: 'Organization' }] })).toEqual([
      'role_actions_attributes.0.name:roles.validation.unknownModule',
    ]);
    expect(issues({ name: 'X', role_actions_attributes: [{ name: 'Site', is_close: true }] })).toEqual([
      'role_actions_attributes.0.is_close:roles.validation.notWorkflowModule',
    ]);
    expect(issues({ name: 'X', role_actions_attributes: [{ name: 'Permit', is_close: true }] })).toEqual([]);
    const ok = roleCreateBody.parse({ name: 'X' });
    expect(ok).toEqual({ name: 'X', is_power_user: false, grants_admin: false, role_actions_attributes: [] });
    expect(roleUpdateBody.parse({})).toEqual({});
  });
});
