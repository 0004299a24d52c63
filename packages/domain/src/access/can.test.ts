import { describe, expect, it } from 'vitest';
import { can, hasAnyRight, type AccessContext } from './can.js';
import {
  ACTIONS,
  ROLE_SUBJECTS,
  SUBJECTS,
  WORKFLOW_SUBJECTS,
  rulesFromRoleActions,
  type Action,
  type RoleAction,
  type Rule,
  type Subject,
} from './subjects.js';

const ctx = (rules: readonly Rule[], over: Partial<AccessContext> = {}): AccessContext => ({
  rules,
  isPlatformAdmin: false,
  memExhausted: false,
  subscriptionType: null,
  ...over,
});

/** Every action on every module an organisation role can grant. */
const everything: Rule[] = ROLE_SUBJECTS.map((subject) => ({ subject, actions: [...ACTIONS] }));
const ORGANIZATION_ALL: Rule = { subject: 'Organization', actions: ['read', 'create', 'update', 'delete'] };

const pairs = SUBJECTS.flatMap((subject) => ACTIONS.map((action) => ({ subject, action })));
const label = (s: Subject, a: Action): string => `${s}:${a}`;

describe('can(): a module action is allowed when the rules list that module with that action (spec 000 §5)', () => {
  const rules: Rule[] = [
    { subject: 'Incident', actions: ['read', 'approve'] },
    { subject: 'Site', actions: ['create', 'delete'] },
    { subject: 'Permit', actions: ['read', 'create', 'update', 'extend'] },
    { subject: 'Library', actions: [] },
  ];
  const granted = new Set(rules.flatMap((r) => r.actions.map((a) => label(r.subject, a))));

  it.each(pairs)('$subject / $action is granted exactly when listed', ({ subject, action }) => {
    expect(can(ctx(rules), subject, action)).toBe(granted.has(label(subject, action)));
  });

  it('grants nothing with an empty rule set', () => {
    for (const { subject, action } of pairs) expect(can(ctx([]), subject, action)).toBe(false);
  });

  it('does not let one module rule leak into another module', () => {
    const only: Rule[] = [{ subject: 'Observation', actions: [...ACTIONS] }];
    expect(can(ctx(only), 'Observation', 'read')).toBe(true);
    expect(can(ctx(only), 'Incident', 'read')).toBe(false);
    expect(can(ctx(only), 'Action', 'read')).toBe(false);
  });
});

describe('can(): the platform admin acts only on Organization (spec 000 §5)', () => {
  const platform = ctx([ORGANIZATION_ALL, ...everything], { isPlatformAdmin: true });

  it.each(ACTIONS)('may %s Organization', (action) => {
    expect(can(platform, 'Organization', action)).toBe(true);
  });

  it.each(ROLE_SUBJECTS)('may do nothing on %s, even when a rule lists it', (subject) => {
    for (const action of ACTIONS) expect(can(platform, subject, action)).toBe(false);
  });

  it('is not held back by exhausted memory or a cancelled subscription on Organization', () => {
    const held = ctx([ORGANIZATION_ALL], { isPlatformAdmin: true, memExhausted: true, subscriptionType: 'cancelled' });
    expect(can(held, 'Organization', 'create')).toBe(true);
    expect(can(held, 'Organization', 'update')).toBe(true);
  });
});

describe('can(): a non-platform user never acts on Organization', () => {
  it.each(ACTIONS)('%s Organization is denied even when a rule lists it', (action) => {
    const user = ctx([{ subject: 'Organization', actions: [...ACTIONS] }, ...everything]);
    expect(can(user, 'Organization', action)).toBe(false);
  });
});

describe('can(): exhausted storage is not a right (the router answers memory_exhausted, DECISIONS)', () => {
  // Folding storage into the rights made a full organisation look like missing rights: "Permission
  // denied" on the server and silently hidden controls on the web. The router refuses the writes now.
  const full = ctx(everything, { memExhausted: true });
  const roomy = ctx(everything, { memExhausted: false });

  it.each(ROLE_SUBJECTS)('%s: every action answers as with storage to spare', (subject) => {
    for (const action of ACTIONS) expect(can(full, subject, action)).toBe(can(roomy, subject, action));
    expect(can(full, subject, 'create')).toBe(true);
    expect(can(full, subject, 'update')).toBe(true);
  });
});

describe('can(): a cancelled subscription blocks Permit create and update only (spec 000 §4, §5)', () => {
  const cancelled = ctx(everything, { subscriptionType: 'cancelled' });

  it('denies Permit create and update', () => {
    expect(can(cancelled, 'Permit', 'create')).toBe(false);
    expect(can(cancelled, 'Permit', 'update')).toBe(false);
  });

  it.each(ACTIONS.filter((a) => a !== 'create' && a !== 'update'))('still allows Permit %s', (action) => {
    expect(can(cancelled, 'Permit', action)).toBe(true);
  });

  it.each(ROLE_SUBJECTS.filter((s) => s !== 'Permit'))('does not touch %s', (subject) => {
    for (const action of ACTIONS) expect(can(cancelled, subject, action)).toBe(true);
  });

  it.each(['active', 'free_trial', null])('subscription %s leaves Permit create and update allowed', (subscriptionType) => {
    // On the paid plan the permits licence is asked too (./licences.test.ts): held here.
    const other = ctx(everything, { subscriptionType, licences: ['permits'] });
    expect(can(other, 'Permit', 'create')).toBe(true);
    expect(can(other, 'Permit', 'update')).toBe(true);
  });
});

describe('hasAnyRight()', () => {
  it('is false without rules and with rules that list no action', () => {
    expect(hasAnyRight(ctx([]))).toBe(false);
    expect(hasAnyRight(ctx([{ subject: 'Site', actions: [] }]))).toBe(false);
  });
  it('is true with a single action anywhere', () => {
    expect(
      hasAnyRight(
        ctx([
          { subject: 'Site', actions: [] },
          { subject: 'Library', actions: ['read'] },
        ]),
      ),
    ).toBe(true);
  });
  it('is true for the platform admin', () => {
    expect(hasAnyRight(ctx([], { isPlatformAdmin: true }))).toBe(true);
  });
});

describe('rulesFromRoleActions(): role matrix rows become rules (spec 000 §3)', () => {
  const row = (name: Subject, over: Partial<RoleAction> = {}): RoleAction => ({
    name,
    r_add: false,
    r_edit: false,
    r_view: false,
    r_destroy: false,
    ...over,
  });
  const allFlags = { is_revoke: true, is_extend: true, is_close: true, is_reject: true, is_approve: true } as const;

  it.each([
    ['r_view', 'read'],
    ['r_add', 'create'],
    ['r_edit', 'update'],
    ['r_destroy', 'delete'],
  ] as const)('%s alone maps to %s', (flag, action) => {
    expect(rulesFromRoleActions([row('Site', { [flag]: true })])).toEqual([{ subject: 'Site', actions: [action] }]);
  });

  it('maps all four CRUD flags together', () => {
    const [rule] = rulesFromRoleActions([row('User', { r_view: true, r_add: true, r_edit: true, r_destroy: true })]);
    expect(rule?.subject).toBe('User');
    expect([...(rule?.actions ?? [])].sort()).toEqual(['create', 'delete', 'read', 'update']);
  });

  it.each(WORKFLOW_SUBJECTS)('%s maps each workflow flag to its action', (subject) => {
    for (const [flag, action] of [
      ['is_revoke', 'revoke'],
      ['is_extend', 'extend'],
      ['is_close', 'close'],
      ['is_reject', 'reject'],
      ['is_approve', 'approve'],
    ] as const) {
      expect(rulesFromRoleActions([row(subject, { [flag]: true })])).toEqual([{ subject, actions: [action] }]);
    }
  });

  it.each(ROLE_SUBJECTS.filter((s) => !(WORKFLOW_SUBJECTS as readonly Subject[]).includes(s)))(
    '%s ignores the workflow flags',
    (subject) => {
      const rules = rulesFromRoleActions([row(subject, { r_view: true, ...allFlags })]);
      expect(rules).toEqual([{ subject, actions: ['read'] }]);
    },
  );

  it('keeps one rule per row and the result drives can()', () => {
    const rules = rulesFromRoleActions([
      row('Permit', { r_view: true, is_approve: true }),
      row('Observation', { r_add: true }),
      row('Library', {}),
    ]);
    const user = ctx(rules);
    expect(can(user, 'Permit', 'read')).toBe(true);
    expect(can(user, 'Permit', 'approve')).toBe(true);
    expect(can(user, 'Permit', 'create')).toBe(false);
    expect(can(user, 'Observation', 'create')).toBe(true);
    expect(can(user, 'Observation', 'read')).toBe(false);
    expect(can(user, 'Library', 'read')).toBe(false);
  });
});

describe('can(): an expired free trial blocks create and update, not reads (spec 001 §4, §8 "free trial expired")', () => {
  const expired = ctx(everything, { trialExpired: true });

  it.each(ROLE_SUBJECTS)('%s: create and update denied, read and delete allowed', (subject) => {
    expect(can(expired, subject, 'create')).toBe(false);
    expect(can(expired, subject, 'update')).toBe(false);
    expect(can(expired, subject, 'read')).toBe(true);
    expect(can(expired, subject, 'delete')).toBe(true);
  });
});
