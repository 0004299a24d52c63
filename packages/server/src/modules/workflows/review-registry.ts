import type { PushChannel, ReviewModule, Subject } from '@bulwark/domain';
import type { Tx } from '../../platform/db/db.js';

/** What the engine needs to know of a module's record. */
export type ReviewRecord = {
  /** How mails and notifications name it, e.g. "INC-000012 Forklift collision". */
  label: string;
  /** The record's screen in the app, e.g. /incidents/{id}/summary (mails link to it). */
  path: string;
  /** Picks the workflow (with `formId`), and the time zone of the dates in mails. */
  siteId: string;
  /** The permit or audit template, when the module has forms: a workflow naming it wins over a site's. */
  formId?: string | null;
  /** Who the record goes back to on a rejection; never reviews it. */
  ownerId: string | null;
};

export type ReviewSubject = {
  /** The rights subject whose approve right decides when no workflow applies, e.g. 'Incident'. */
  subject: Subject;
  /** Reads the record in the request's transaction; throws (not_found) when it is not there. */
  describe: (tx: Tx, recordId: string) => Promise<ReviewRecord>;
  /** Runs in the deciding transaction when a round ends: the module moves its record on. */
  onDecided: (tx: Tx, recordId: string, outcome: 'approved' | 'rejected', by: { userId: string; comment: string | null }) => Promise<void>;
  /**
   * Optional: the module's push channel. After any review change (including the sweep's reminders and
   * escalations, which have no request of the module) the engine announces `{ channel, 'updated', id }`.
   */
  channel?: PushChannel;
};

const subjects = new Map<ReviewModule, ReviewSubject>();

/** Called by a module at import time (its module.ts); a second call for the same module replaces the first. */
export function registerReviewSubject(module: ReviewModule, subject: ReviewSubject): void {
  subjects.set(module, subject);
}

/** The module's registration; a module that submits records must have registered (a programming error otherwise). */
export function reviewSubject(module: ReviewModule): ReviewSubject {
  const found = subjects.get(module);
  if (!found) throw new Error(`No review subject is registered for ${module}: call registerReviewSubject in its module.ts`);
  return found;
}

/** The registration, if any: the sweep and the replacement also meet rounds of modules this process never loaded. */
export function maybeReviewSubject(module: ReviewModule): ReviewSubject | undefined {
  return subjects.get(module);
}
