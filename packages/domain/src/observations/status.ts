import type { ActionStatus } from '../actions/schemas.js';
import type { ObservationStatus } from './schemas.js';

const DONE: readonly ActionStatus[] = ['completed', 'closed'];

/**
 * An observation's status follows its actions (spec 001 §4), until somebody closes it:
 * - no actions: open (nothing is being done yet, or nothing needs doing);
 * - any action overdue: overdue;
 * - every action completed or closed: completed;
 * - some work started or finished, but not all: in progress;
 * - otherwise open.
 * Closed is final and is only reached by closing (observationCloseBlocker says when that is allowed).
 */
export function observationStatusFromActions(current: ObservationStatus, actions: readonly ActionStatus[]): ObservationStatus {
  if (current === 'closed') return 'closed';
  if (actions.length === 0) return 'open';
  if (actions.includes('overdue')) return 'overdue';
  if (actions.every((s) => DONE.includes(s))) return 'completed';
  if (actions.some((s) => s === 'in_progress' || DONE.includes(s))) return 'in_progress';
  return 'open';
}

/** Why the observation cannot be closed now (an i18n key), or null when it can. */
export function observationCloseBlocker(status: ObservationStatus, actions: readonly ActionStatus[], canClose: boolean): string | null {
  if (status === 'closed') return 'observations.validation.closedReadOnly';
  if (!canClose) return 'observations.validation.closeRight';
  if (actions.some((s) => !DONE.includes(s))) return 'observations.validation.actionsOpen';
  return null;
}
