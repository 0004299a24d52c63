import { describe, expect, it } from 'vitest';
import type { AccessContext } from '../access/can.js';
import { ACTIONS, type Action } from '../access/subjects.js';
import {
  PERMIT_COMMANDS,
  PERMIT_TRANSITIONS,
  permitAbilities,
  permitMayMove,
  permitStatusAfter,
  permitTimeStatus,
  statusAfterExtension,
  type PermitAbilityFacts,
} from './lifecycle.js';
import { PERMIT_CLOSURE_GRACE_HOURS, PERMIT_STATUSES, type PermitStatus } from './model.js';

const HOUR = 3_600_000;
const access = (actions: readonly Action[], over: Partial<AccessContext> = {}): AccessContext => ({
  rules: [{ subject: 'Permit', actions: [...actions] }],
  isPlatformAdmin: false,
  memExhausted: false,
  subscriptionType: null,
  ...over,
});
const facts = (over: Partial<PermitAbilityFacts> = {}): PermitAbilityFacts => ({
  status: 'approved',
  requesterId: 'req',
  sharedWith: [],
  extensionPending: false,
  reviewPending: false,
  reviewMode: null,
  viewerMayDecide: false,
  ...over,
});
const viewer = (actions: readonly Action[], userId = 'someone', over: Partial<AccessContext> = {}) => ({
  userId,
  access: access(actions, over),
  isGuest: false,
});

describe('the transition table (written once)', () => {
  it('names every command once', () => {
    expect(PERMIT_TRANSITIONS.map((t) => t.command).sort()).toEqual([...PERMIT_COMMANDS].sort());
  });

  it('is exactly this', () => {
    const table = Object.fromEntries(PERMIT_TRANSITIONS.map((t) => [t.command, `${t.from.join('|')} -> ${t.to} [${t.right ?? 'job'}]`]));
    expect(table).toEqual({
      submit: 'draft -> requested [create]',
      approve: 'requested -> approved [approve]',
      reject: 'requested -> rejected [reject]',
      request_extension: 'approved|extended|pending_closure -> unchanged [extend]',
      approve_extension: 'approved|extended|pending_closure|overdue -> extended [approve]',
      reject_extension: 'approved|extended|pending_closure|overdue -> unchanged [reject]',
      settle_extension: 'revoked|closed -> unchanged [job]',
      revoke: 'approved|extended|pending_closure|overdue -> revoked [revoke]',
      close: 'approved|extended|pending_closure|overdue -> closed [close]',
      mark_pending_closure: 'approved|extended -> pending_closure [job]',
      mark_overdue: 'approved|extended|pending_closure -> overdue [job]',
    });
  });

  it('asks the reason to reject and to revoke, and an extension pending (or not) where it matters', () => {
    const required = PERMIT_TRANSITIONS.filter((t) => t.comment === 'required').map((t) => t.command);
    expect(required.sort()).toEqual(['reject', 'reject_extension', 'revoke']);
    expect(permitMayMove('request_extension', 'approved', true)).toBe(false);
    expect(permitMayMove('approve_extension', 'approved', false)).toBe(false);
    expect(permitMayMove('approve_extension', 'approved', true)).toBe(true);
  });

  it.each(PERMIT_STATUSES)('from %s only the listed moves are allowed; final statuses allow none but settling', (status) => {
    const allowed = PERMIT_COMMANDS.filter((c) => permitMayMove(c, status, false) || permitMayMove(c, status, true));
    const expected: Record<PermitStatus, string[]> = {
      draft: ['submit'],
      requested: ['approve', 'reject'],
      approved: ['request_extension', 'approve_extension', 'reject_extension', 'revoke', 'close', 'mark_pending_closure', 'mark_overdue'],
      extended: ['request_extension', 'approve_extension', 'reject_extension', 'revoke', 'close', 'mark_pending_closure', 'mark_overdue'],
      pending_closure: ['request_extension', 'approve_extension', 'reject_extension', 'revoke', 'close', 'mark_overdue'],
      overdue: ['approve_extension', 'reject_extension', 'revoke', 'close'],
      rejected: [],
      revoked: ['settle_extension'],
      closed: ['settle_extension'],
    };
    expect(allowed.sort()).toEqual(expected[status].sort());
  });

  it('resolves "unchanged"', () => {
    expect(permitStatusAfter('request_extension', 'pending_closure')).toBe('pending_closure');
    expect(permitStatusAfter('revoke', 'overdue')).toBe('revoked');
  });
});

describe('time (the hourly job’s rule)', () => {
  const end = new Date('2026-11-20T16:00:00Z');
  const at = (h: number) => new Date(end.getTime() + h * HOUR);
  it('pending closure at the end, overdue after the grace period', () => {
    expect(permitTimeStatus('approved', end, at(-0.01))).toBe('approved');
    expect(permitTimeStatus('approved', end, at(0))).toBe('pending_closure');
    expect(permitTimeStatus('extended', end, at(PERMIT_CLOSURE_GRACE_HOURS - 0.01))).toBe('pending_closure');
    expect(permitTimeStatus('pending_closure', end, at(PERMIT_CLOSURE_GRACE_HOURS))).toBe('overdue');
    expect(permitTimeStatus('approved', end, at(48))).toBe('overdue');
  });
  it.each(['draft', 'requested', 'rejected', 'revoked', 'closed'] as const)('never moves a %s permit', (s) => {
    expect(permitTimeStatus(s, end, at(48))).toBe(s);
  });
  it('an extension makes the permit live again until its new end', () => {
    expect(statusAfterExtension(at(4), at(1))).toBe('extended');
    expect(statusAfterExtension(at(4), at(5))).toBe('pending_closure');
  });
});

describe('abilities: the moves the viewer may make (the web shows only these)', () => {
  it('a draft: its authors edit, share and submit (with the rights); nobody else does anything', () => {
    const draft = facts({ status: 'draft', sharedWith: ['friend'] });
    const author = permitAbilities(draft, viewer(['read', 'create', 'update', 'delete'], 'req'));
    expect(author).toMatchObject({ edit: true, share: true, submit: true, delete: true, clone: true, export_pdf: true });
    expect(permitAbilities(draft, viewer(['read', 'update'], 'friend'))).toMatchObject({ edit: true, submit: false });
    const stranger = permitAbilities(draft, viewer([...ACTIONS], 'other'));
    expect(Object.entries(stranger).filter(([, v]) => v === true)).toEqual([]);
  });

  it('with no workflow: approving needs the approve right, rejecting the reject right too', () => {
    const asked = facts({ status: 'requested', reviewPending: true, reviewMode: 'approve_right', viewerMayDecide: true });
    expect(permitAbilities(asked, viewer(['read', 'approve']))).toMatchObject({ approve: true, reject: false, decision: 'permit' });
    expect(permitAbilities(asked, viewer(['read', 'approve', 'reject']))).toMatchObject({ approve: true, reject: true });
  });

  it('with a workflow: the reviewer whose turn it is decides, whatever the role holds', () => {
    const asked = facts({ status: 'requested', reviewPending: true, reviewMode: 'workflow', viewerMayDecide: true });
    expect(permitAbilities(asked, viewer(['read']))).toMatchObject({ approve: true, reject: true });
    expect(permitAbilities({ ...asked, viewerMayDecide: false }, viewer([...ACTIONS]))).toMatchObject({ approve: false, reject: false });
  });

  it('an issued permit: extend, revoke and close by their rights; an extension pending is decided like the permit', () => {
    const issued = facts({ status: 'approved' });
    expect(permitAbilities(issued, viewer(['read', 'extend', 'revoke', 'close']))).toMatchObject({
      request_extension: true,
      revoke: true,
      close: true,
    });
    expect(permitAbilities(issued, viewer(['read']))).toMatchObject({ request_extension: false, revoke: false, close: false });
    const pending = facts({
      status: 'extended',
      extensionPending: true,
      reviewPending: true,
      reviewMode: 'approve_right',
      viewerMayDecide: true,
    });
    expect(permitAbilities(pending, viewer(['read', 'approve', 'extend']))).toMatchObject({
      approve: true,
      decision: 'extension',
      request_extension: false,
    });
    expect(permitAbilities(facts({ status: 'overdue' }), viewer(['read', 'extend']))).toMatchObject({ request_extension: false });
  });

  it('a cancelled subscription takes away creating (submit, clone) and editing; guests may do nothing', () => {
    const draft = facts({ status: 'draft' });
    const cancelled = permitAbilities(draft, viewer(['read', 'create', 'update'], 'req', { subscriptionType: 'cancelled' }));
    expect(cancelled).toMatchObject({ edit: false, submit: false, clone: false });
    const guest = permitAbilities(draft, { ...viewer([...ACTIONS], 'req'), isGuest: true });
    expect(Object.values(guest).filter((v) => v === true)).toEqual([]);
  });

  it('deleting: a draft by its authors, or a permit never issued; never an issued one', () => {
    const may = (status: PermitStatus) => permitAbilities(facts({ status }), viewer(['read', 'delete'], 'req')).delete;
    expect(PERMIT_STATUSES.filter(may)).toEqual(['draft', 'requested', 'rejected']);
  });
});
