import type { AuditStatus } from './model.js';

/**
 * The audit's status machine (spec 001 §4 lists the statuses and the actions start, continue, complete,
 * approve and reject, and leaves the transitions open; this table is the rule the server enforces).
 *
 * | event    | from                                    | to          |
 * |----------|-----------------------------------------|-------------|
 * | start    | scheduled                               | in_progress |
 * | start    | overdue, not started yet                | overdue     |
 * | complete | in_progress                             | completed   |
 * | complete | overdue, started                        | completed   |
 * | approve  | completed                               | approved    |
 * | reject   | completed                               | rejected    |
 * | resume   | rejected                                | in_progress |
 * | overdue  | scheduled, in_progress (not marked yet) | overdue     |
 *
 * - An overdue audit stays overdue while it is run late: the Overdue tab is where late work is looked
 *   for, so it leaves that tab only when completed. "Overdue" is marked once per audit (the sweep); a
 *   rejected audit resumed after its window is in progress, not overdue again.
 * - "Continue" (spec) opens a running audit where it was left; it changes no status.
 * - Approve and reject end the review workflow's round (the engine decides who may; `onDecided` moves
 *   the audit). Approved is final.
 */
export const AUDIT_EVENTS = ['start', 'complete', 'approve', 'reject', 'resume', 'overdue'] as const;
export type AuditEvent = (typeof AUDIT_EVENTS)[number];

/** A condition on the audit besides its status: whether it has been started. */
type When = 'started' | 'not_started' | 'not_marked_overdue';

export type AuditTransition = { from: AuditStatus; to: AuditStatus; when?: When };

export const AUDIT_TRANSITIONS: Record<AuditEvent, readonly AuditTransition[]> = {
  start: [
    { from: 'scheduled', to: 'in_progress' },
    { from: 'overdue', to: 'overdue', when: 'not_started' },
  ],
  complete: [
    { from: 'in_progress', to: 'completed' },
    { from: 'overdue', to: 'completed', when: 'started' },
  ],
  approve: [{ from: 'completed', to: 'approved' }],
  reject: [{ from: 'completed', to: 'rejected' }],
  resume: [{ from: 'rejected', to: 'in_progress' }],
  overdue: [
    { from: 'scheduled', to: 'overdue', when: 'not_marked_overdue' },
    { from: 'in_progress', to: 'overdue', when: 'not_marked_overdue' },
  ],
};

/** What the machine reads of an audit. */
export type AuditState = { status: AuditStatus; started: boolean; markedOverdue: boolean };

/** The status `event` leads to from `state`, or null when the event is out of order. */
export function nextAuditStatus(state: AuditState, event: AuditEvent): AuditStatus | null {
  const found = AUDIT_TRANSITIONS[event].find((t) => {
    if (t.from !== state.status) return false;
    if (t.when === 'started') return state.started;
    if (t.when === 'not_started') return !state.started;
    if (t.when === 'not_marked_overdue') return !state.markedOverdue;
    return true;
  });
  return found ? found.to : null;
}

/** Running: started and not completed; answers, notes, files and key findings may change. */
export function isAuditRunning(state: Pick<AuditState, 'status' | 'started'>): boolean {
  return state.started && (state.status === 'in_progress' || state.status === 'overdue');
}

/** Not started yet: the schedule's details (auditor, dates, area) may still change freely and it may be deleted. */
export function isAuditUnstarted(state: Pick<AuditState, 'status' | 'started'>): boolean {
  return !state.started && (state.status === 'scheduled' || state.status === 'overdue');
}

/** Done with the run: completed, or decided. */
export function isAuditFinished(status: AuditStatus): boolean {
  return status === 'completed' || status === 'approved' || status === 'rejected';
}

/** The viewer as the ability rules see them. */
export type AuditViewer = {
  userId: string;
  /** Audit update (and, on a paid plan, the audits licence): runs audits they are the auditor of, edits audits. */
  canUpdate: boolean;
  canDelete: boolean;
  /** The review engine's answer: the review waits for this viewer's decision now. */
  mayDecide: boolean;
};

export type AuditForAbilities = AuditState & { auditorId: string; actionCount: number };

export type AuditAbilities = {
  start: boolean;
  resume: boolean;
  /** Answer, remark, notes, files and key findings: the running audit's auditor. */
  answer: boolean;
  complete: boolean;
  decide: boolean;
  /** Auditor, auditee, area and dates: Audit update holders until the audit is completed. */
  edit: boolean;
  delete: boolean;
  send_report: boolean;
};

/**
 * Who may do what (docs/modules.md "Audits"; spec 001 §6: auditors run audits, approvers approve or
 * reject them):
 * - The audit's **auditor** starts, answers, completes and resumes it, holding Audit update (the router
 *   asks the audits licence of it on a paid plan). Nobody else runs someone else's audit: a manager
 *   reassigns it instead.
 * - **Audit update** holders edit the auditor, auditee, area and dates until the audit is completed
 *   (and again once rejected: it is back with an auditor, who may be another).
 * - **Deciding** is the review workflow's: its reviewers whose turn it is, or, with no workflow, Audit
 *   approve holders (never the submitter or the auditor, the engine's rule).
 * - **Deleting** needs Audit delete, and only before the audit is started (nothing is lost).
 * - **Sending the report** is for the auditor and Audit update holders once the audit is completed.
 */
export function auditAbilities(a: AuditForAbilities, v: AuditViewer): AuditAbilities {
  const auditor = a.auditorId === v.userId && v.canUpdate;
  const finished = isAuditFinished(a.status);
  return {
    start: auditor && nextAuditStatus(a, 'start') !== null,
    resume: auditor && nextAuditStatus(a, 'resume') !== null,
    answer: auditor && isAuditRunning(a),
    complete: auditor && nextAuditStatus(a, 'complete') !== null,
    decide: a.status === 'completed' && v.mayDecide,
    edit: v.canUpdate && a.status !== 'completed' && a.status !== 'approved',
    delete: v.canDelete && isAuditUnstarted(a) && a.actionCount === 0,
    send_report: (auditor || v.canUpdate) && finished,
  };
}
