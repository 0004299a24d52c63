import { can, type AccessContext } from '../access/can.js';
import type { Action } from '../access/subjects.js';
import { PERMIT_CLOSURE_GRACE_HOURS, PERMIT_LIVE_STATUSES, isLiveStatus, type PermitStatus } from './model.js';

/**
 * The permit's lifecycle, written down once (spec 001 §4 leaves the moves and their rights open): the
 * server refuses every move this table does not hold, and the web shows only the moves the viewer may
 * make (`permitAbilities`). Each command names:
 * - `from`: the statuses it starts from; `to`: where it ends ('unchanged': the status stays);
 * - `right`: the role's Permit right it needs (`can(access, 'Permit', right)`); null: the hourly job alone;
 * - `review`: decided through the review workflow (workflows/review.ts). With a workflow for the
 *   permit's template or site, the reviewer whose turn it is decides (or the escalation user in their
 *   place); with none, the holders of the approve right decide (the engine's rule for every module) and,
 *   of those, only holders of `right` may make this move. Nobody decides their own permit.
 * - `comment`: required (reject, revoke) or optional;
 * - `extension`: whether an extension request must be pending ('pending') or must not be ('none').
 */
export const PERMIT_COMMANDS = [
  'submit',
  'approve',
  'reject',
  'request_extension',
  'approve_extension',
  'reject_extension',
  'settle_extension',
  'revoke',
  'close',
  'mark_pending_closure',
  'mark_overdue',
] as const;
export type PermitCommand = (typeof PERMIT_COMMANDS)[number];

export type PermitTransition = {
  command: PermitCommand;
  from: readonly PermitStatus[];
  to: PermitStatus | 'unchanged';
  right: Action | null;
  review: boolean;
  comment: 'required' | 'optional' | 'none';
  extension?: 'pending' | 'none';
};

const LIVE = PERMIT_LIVE_STATUSES;

export const PERMIT_TRANSITIONS: readonly PermitTransition[] = [
  // The requester (or a person the draft was shared with) sends it to the issuing officers. It needs at
  // least one worker, its site, start and end, and every required answer (./form.ts).
  { command: 'submit', from: ['draft'], to: 'requested', right: 'create', review: false, comment: 'none' },
  // The issuing officers issue the permit, or refuse it with the reason (final: clone it to try again).
  { command: 'approve', from: ['requested'], to: 'approved', right: 'approve', review: true, comment: 'optional' },
  { command: 'reject', from: ['requested'], to: 'rejected', right: 'reject', review: true, comment: 'required' },
  // More time: a request with the template's declaration, approved like the permit, adding the
  // template's extension hours to the end. Not once the permit is overdue: then it must be closed.
  {
    command: 'request_extension',
    from: ['approved', 'extended', 'pending_closure'],
    to: 'unchanged',
    right: 'extend',
    review: false,
    comment: 'none',
    extension: 'none',
  },
  { command: 'approve_extension', from: LIVE, to: 'extended', right: 'approve', review: true, comment: 'optional', extension: 'pending' },
  { command: 'reject_extension', from: LIVE, to: 'unchanged', right: 'reject', review: true, comment: 'required', extension: 'pending' },
  // A permit revoked or closed while its extension awaited the reviewers: the request is withdrawn, and
  // the reviewers' decision only ends the review round (so they are not reminded for ever).
  { command: 'settle_extension', from: ['revoked', 'closed'], to: 'unchanged', right: null, review: true, comment: 'optional' },
  // Work stopped: with the reason, at any time while the permit is issued.
  { command: 'revoke', from: LIVE, to: 'revoked', right: 'revoke', review: false, comment: 'required' },
  // Work done: the closure checklist answered (its required answers), at any time while issued.
  { command: 'close', from: LIVE, to: 'closed', right: 'close', review: false, comment: 'optional' },
  // The hourly job (`permitTimeStatus`): the end time passed, then the grace period too.
  { command: 'mark_pending_closure', from: ['approved', 'extended'], to: 'pending_closure', right: null, review: false, comment: 'none' },
  {
    command: 'mark_overdue',
    from: ['approved', 'extended', 'pending_closure'],
    to: 'overdue',
    right: null,
    review: false,
    comment: 'none',
  },
];

export function permitTransition(command: PermitCommand): PermitTransition {
  return PERMIT_TRANSITIONS.find((t) => t.command === command)!;
}

/** Whether the table allows this command from this status (and extension state). */
export function permitMayMove(command: PermitCommand, status: PermitStatus, extensionPending: boolean): boolean {
  const t = permitTransition(command);
  if (!t.from.includes(status)) return false;
  if (t.extension === 'pending' && !extensionPending) return false;
  if (t.extension === 'none' && extensionPending) return false;
  return true;
}

/** The status after the command ('unchanged' resolved). */
export function permitStatusAfter(command: PermitCommand, status: PermitStatus): PermitStatus {
  const to = permitTransition(command).to;
  return to === 'unchanged' ? status : to;
}

const HOUR = 3_600_000;

/**
 * Where time alone takes an issued permit (the hourly job): at its end time it is pending closure, and
 * PERMIT_CLOSURE_GRACE_HOURS later overdue. Other statuses are left as they are. An approved extension
 * moves the end, so an extended permit is live again until its new end.
 */
export function permitTimeStatus(status: PermitStatus, endAt: Date | null, now: Date): PermitStatus {
  if (!isLiveStatus(status) || !endAt) return status;
  if (now.getTime() >= endAt.getTime() + PERMIT_CLOSURE_GRACE_HOURS * HOUR) return 'overdue';
  if (now.getTime() >= endAt.getTime()) return status === 'overdue' ? 'overdue' : 'pending_closure';
  return status;
}

/**
 * The status a permit takes when an extension is approved at `now`: extended while its new end is
 * ahead, else where time has taken it.
 */
export function statusAfterExtension(newEnd: Date, now: Date): PermitStatus {
  return permitTimeStatus('extended', newEnd, now);
}

/** What the viewer may do to one permit (the detail answer's `abilities`; computed on the server). */
export type PermitAbilities = {
  /** Change the draft's answers, workers, site and times. */
  edit: boolean;
  /** Share the draft with another member. */
  share: boolean;
  submit: boolean;
  delete: boolean;
  /** Approve what awaits a decision: the permit, its extension, or a withdrawn extension's round. */
  approve: boolean;
  /** Reject it (with the reason). */
  reject: boolean;
  /** What approve and reject would decide now. */
  decision: 'permit' | 'extension' | 'settle' | null;
  request_extension: boolean;
  revoke: boolean;
  close: boolean;
  clone: boolean;
  export_pdf: boolean;
};

export type PermitAbilityFacts = {
  status: PermitStatus;
  requesterId: string;
  sharedWith: readonly string[];
  /** An extension request awaits its decision (or was withdrawn while its review round is still open). */
  extensionPending: boolean;
  /** The permit's review round is pending with the engine. */
  reviewPending: boolean;
  reviewMode: 'workflow' | 'approve_right' | null;
  /** The engine says the viewer may decide the pending round now (their turn, or the approve right). */
  viewerMayDecide: boolean;
};

export type PermitViewer = { userId: string; access: AccessContext; isGuest: boolean };

/** The drafts' authors: the requester and every person it was shared with (spec 000 §6, 001 §4). */
export function isDraftAuthor(p: Pick<PermitAbilityFacts, 'requesterId' | 'sharedWith'>, userId: string): boolean {
  return p.requesterId === userId || p.sharedWith.includes(userId);
}

/** Deleting: a draft (by its authors) or a permit never issued (requested, rejected); issued ones are records. */
const DELETABLE: readonly PermitStatus[] = ['draft', 'requested', 'rejected'];

export function permitAbilities(p: PermitAbilityFacts, viewer: PermitViewer): PermitAbilities {
  const none: PermitAbilities = {
    edit: false,
    share: false,
    submit: false,
    delete: false,
    approve: false,
    reject: false,
    decision: null,
    request_extension: false,
    revoke: false,
    close: false,
    clone: false,
    export_pdf: false,
  };
  if (viewer.isGuest) return none;
  const has = (action: Action) => can(viewer.access, 'Permit', action);
  const author = isDraftAuthor(p, viewer.userId);
  const draft = p.status === 'draft';
  const decision: PermitAbilities['decision'] =
    p.reviewPending && p.status === 'requested'
      ? 'permit'
      : p.reviewPending && p.extensionPending && isLiveStatus(p.status)
        ? 'extension'
        : p.reviewPending && (p.status === 'revoked' || p.status === 'closed')
          ? 'settle'
          : null;
  // With a workflow, the reviewer in turn decides; with none, the approve right decides and the move's
  // own right (reject) is asked too.
  const mayDecide = decision !== null && p.viewerMayDecide;
  const rightFor = (action: Action) => decision === 'settle' || p.reviewMode === 'workflow' || has(action);
  return {
    edit: draft && author && has('update'),
    share: draft && author && has('update'),
    submit: draft && author && has('create') && permitMayMove('submit', p.status, p.extensionPending),
    delete: DELETABLE.includes(p.status) && has('delete') && (!draft || author),
    approve: mayDecide && rightFor('approve'),
    reject: mayDecide && rightFor('reject'),
    decision: mayDecide ? decision : null,
    request_extension: has('extend') && permitMayMove('request_extension', p.status, p.extensionPending),
    revoke: has('revoke') && permitMayMove('revoke', p.status, p.extensionPending),
    close: has('close') && permitMayMove('close', p.status, p.extensionPending),
    clone: has('create') && (!draft || author),
    export_pdf: !draft || author,
  };
}
