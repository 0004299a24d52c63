import type { LicenceModule } from '../users/schemas.js';
import type { AccessContext } from './can.js';
import type { Action, Subject } from './subjects.js';

/**
 * Licences (DECISIONS.md "Rights, licences, plans"; spec 001 §6 "licences per user per module").
 * - On a paid plan (subscription 'active'), creating or editing records of a licensed module needs the
 *   user's licence for that module. Editing includes the workflow steps (approve, reject, close, extend,
 *   revoke), which change the record.
 * - Reading never needs one, nor does deleting (neither creates nor edits), nor reporting an incident
 *   (Incident create) or an observation (observations are not a licensed module).
 * - During the free trial every user holds every licence; a cancelled plan is not a paid plan.
 * - Administrators are not exempt: an administrator assigns themself a licence like anyone else's.
 * - Guests hold none, and need none for what they may do (reporting).
 */
export const LICENSED_SUBJECTS = {
  Incident: 'incidents',
  Permit: 'permits',
  Audit: 'audits',
  HIRA: 'hira',
  Library: 'library',
} as const satisfies Partial<Record<Subject, LicenceModule>>;

type LicensedSubject = keyof typeof LICENSED_SUBJECTS;

const READ_OR_DELETE: readonly Action[] = ['read', 'delete'];

function isLicensed(subject: Subject): subject is LicensedSubject {
  return subject in LICENSED_SUBJECTS;
}

/** The licence this action on this subject needs on a paid plan, or null when it needs none. */
export function licenceFor(subject: Subject, action: Action): LicenceModule | null {
  if (!isLicensed(subject) || READ_OR_DELETE.includes(action)) return null;
  // Reporting an incident is open to everyone who may report (guests included).
  if (subject === 'Incident' && action === 'create') return null;
  return LICENSED_SUBJECTS[subject];
}

/**
 * The licence the principal lacks for this action, or null when they lack none (no licence needed, not
 * a paid plan, or held). Whether the role grants the action at all is `can()`'s question.
 */
export function missingLicence(ctx: AccessContext, subject: Subject, action: Action): LicenceModule | null {
  const module = licenceFor(subject, action);
  if (!module || ctx.isPlatformAdmin || ctx.subscriptionType !== 'active') return null;
  return ctx.licences?.includes(module) ? null : module;
}
