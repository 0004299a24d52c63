import { can, type Action, type Subject } from '@bulwark/domain';
import type { Principal } from '../../platform/auth/principal.js';
import { AppError } from '../../platform/errors.js';
import { LICENCE_SUBJECT } from './groups.js';

export type Right = readonly [Subject, Action];

/**
 * A list of staff (names, e-mails, employee ids, roles) needs a real right, not only a session: User
 * read, or a right of the module whose screens pick from that list. Guests never get this far (the
 * router refuses them every route but their own).
 */
export function needsOneOf(...rights: Right[]) {
  return (p: Principal): void => {
    if (!rights.some(([subject, action]) => can(p.access, subject, action))) throw new AppError('forbidden');
  };
}

export const USER_READ: Right = ['User', 'read'];
/** Who an action can be assigned to: the action screens and the records actions are raised from. */
export const ACTION_PICKERS = needsOneOf(
  USER_READ,
  ['Action', 'read'],
  ['Action', 'create'],
  ['Observation', 'read'],
  ['Incident', 'read'],
  ['Audit', 'read'],
);
/** Safety-interaction observers: the interactions are written under the Observation rights. */
export const SI_PICKERS = needsOneOf(USER_READ, ['Observation', 'read'], ['Observation', 'create']);
/** The spec's users, permit_users, inci_users and audit_users groups: the readers of those modules. */
export const MODULE_PICKERS = needsOneOf(USER_READ, ['Permit', 'read'], ['Incident', 'read'], ['Audit', 'read']);
/** One module's readers at a site: the readers of some licensed module (the handler checks which). */
export const ANY_MODULE_READER = needsOneOf(USER_READ, ...Object.values(LICENCE_SUBJECT).map((s): Right => [s, 'read']));
