import { describe, expect, it } from 'vitest';
import { AUDIT_STATUSES, auditRouteParam, type AuditStatus } from './model.js';
import { AUDIT_EVENTS, auditAbilities, nextAuditStatus, type AuditEvent } from './status.js';

const state = (status: AuditStatus, started = false, markedOverdue = false) => ({ status, started, markedOverdue });

describe('the audit status machine (issue 17: start, complete, approve and reject refused out of order)', () => {
  it.each<[AuditStatus, boolean, AuditEvent, AuditStatus | null]>([
    ['scheduled', false, 'start', 'in_progress'],
    ['overdue', false, 'start', 'overdue'],
    ['overdue', true, 'start', null],
    ['in_progress', true, 'start', null],
    ['completed', true, 'start', null],
    ['in_progress', true, 'complete', 'completed'],
    ['overdue', true, 'complete', 'completed'],
    ['overdue', false, 'complete', null],
    ['scheduled', false, 'complete', null],
    ['completed', true, 'complete', null],
    ['completed', true, 'approve', 'approved'],
    ['completed', true, 'reject', 'rejected'],
    ['in_progress', true, 'approve', null],
    ['approved', true, 'reject', null],
    ['rejected', true, 'approve', null],
    ['rejected', true, 'resume', 'in_progress'],
    ['in_progress', true, 'resume', null],
    ['scheduled', false, 'overdue', 'overdue'],
    ['in_progress', true, 'overdue', 'overdue'],
    ['completed', true, 'overdue', null],
  ])('%s (started: %s) --%s--> %s', (status, started, event, to) => {
    expect(nextAuditStatus(state(status, started), event)).toBe(to);
  });

  it('marks an audit overdue once: a rejected audit resumed after its window stays in progress', () => {
    expect(nextAuditStatus(state('in_progress', true, true), 'overdue')).toBeNull();
  });

  it('approved is final', () => {
    for (const e of AUDIT_EVENTS) expect(nextAuditStatus(state('approved', true), e)).toBeNull();
  });

  it('every status is reachable from scheduled', () => {
    const seen = new Set<AuditStatus>(['scheduled']);
    let frontier = [state('scheduled')];
    while (frontier.length) {
      const next = [];
      for (const s of frontier)
        for (const e of AUDIT_EVENTS) {
          const to = nextAuditStatus(s, e);
          if (to && !seen.has(to)) {
            seen.add(to);
            next.push(state(to, e !== 'overdue' || s.started, e === 'overdue'));
          }
        }
      frontier = next;
    }
    expect([...seen].sort()).toEqual([...AUDIT_STATUSES].sort());
  });
});

describe('who may do what to an audit (auditAbilities)', () => {
  const audit = (status: AuditStatus, started: boolean, actionCount = 0) => ({ ...state(status, started), auditorId: 'aud', actionCount });
  const auditor = { userId: 'aud', canUpdate: true, canDelete: false, mayDecide: false };
  const manager = { userId: 'mgr', canUpdate: true, canDelete: true, mayDecide: false };

  it('only its auditor, holding Audit update, starts, answers and completes it', () => {
    expect(auditAbilities(audit('scheduled', false), auditor).start).toBe(true);
    expect(auditAbilities(audit('scheduled', false), manager).start).toBe(false);
    expect(auditAbilities(audit('scheduled', false), { ...auditor, canUpdate: false }).start).toBe(false);
    expect(auditAbilities(audit('in_progress', true), auditor)).toMatchObject({ answer: true, complete: true, start: false });
    expect(auditAbilities(audit('in_progress', true), manager)).toMatchObject({ answer: false, complete: false, edit: true });
  });

  it('deciding follows the review engine, and only on a completed audit', () => {
    expect(auditAbilities(audit('completed', true), { ...manager, mayDecide: true }).decide).toBe(true);
    expect(auditAbilities(audit('in_progress', true), { ...manager, mayDecide: true }).decide).toBe(false);
    expect(auditAbilities(audit('completed', true), manager).decide).toBe(false);
  });

  it('deletes only an audit not started, with Audit delete', () => {
    expect(auditAbilities(audit('scheduled', false), manager).delete).toBe(true);
    expect(auditAbilities(audit('overdue', false), manager).delete).toBe(true);
    expect(auditAbilities(audit('in_progress', true), manager).delete).toBe(false);
    expect(auditAbilities(audit('scheduled', false), auditor).delete).toBe(false);
  });

  it('edits until completed, and again once rejected', () => {
    expect(auditAbilities(audit('completed', true), manager).edit).toBe(false);
    expect(auditAbilities(audit('approved', true), manager).edit).toBe(false);
    expect(auditAbilities(audit('rejected', true), manager).edit).toBe(true);
  });
});

describe('/audits/{type} and /audits/{id} share a shape (DECISIONS)', () => {
  it('tells a tab slug from an audit id', () => {
    expect(auditRouteParam('scheduled')).toEqual({ kind: 'tab', tab: 'scheduled' });
    expect(auditRouteParam('in_progress')).toEqual({ kind: 'tab', tab: 'in_progress' });
    expect(auditRouteParam('0190a6b2-7c3d-7e4f-8a9b-0c1d2e3f4a5b')).toEqual({ kind: 'id', id: '0190a6b2-7c3d-7e4f-8a9b-0c1d2e3f4a5b' });
    expect(auditRouteParam('rejected')).toBeNull();
    expect(auditRouteParam('5')).toBeNull();
  });
});
