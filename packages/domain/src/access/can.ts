import type { LicenceModule } from '../users/schemas.js';
import { missingLicence } from './licences.js';
import type { Action, Rule, Subject } from './subjects.js';

/** What a rights decision needs to know about the signed-in principal. */
export type AccessContext = {
  rules: readonly Rule[];
  isPlatformAdmin: boolean;
  /**
   * The organisation's storage is used up. Not a right: the server's router answers every create,
   * update and upload with memory_exhausted (DECISIONS), and the web says so in a banner instead of
   * hiding the controls of people who hold the right.
   */
  memExhausted: boolean;
  subscriptionType: string | null;
  /** A free trial past its end: reads go on, creates and updates stop (spec 001 §4, §8). */
  trialExpired?: boolean;
  /** The modules the user holds a licence for (asked on a paid plan only; absent: none). See ./licences.ts. */
  licences?: readonly LicenceModule[];
};

const WRITES: readonly Action[] = ['create', 'update'];

/**
 * The one rights check, shared by the server's route guards and the web's route guards (spec 000 §5, §6).
 * - The platform super admin may act only on Organization, and on nothing else.
 * - Otherwise a module action is allowed when the rules list that module with that action,
 * - and Permit create/update when the subscription is cancelled,
 * - and every create/update once the free trial has expired,
 * - and, on a paid plan, creating or editing a licensed module's records without its licence (./licences.ts).
 */
export function can(ctx: AccessContext, subject: Subject, action: Action): boolean {
  if (ctx.isPlatformAdmin) return subject === 'Organization';
  if (subject === 'Organization') return false;
  const rule = ctx.rules.find((r) => r.subject === subject);
  if (!rule || !rule.actions.includes(action)) return false;
  if (WRITES.includes(action)) {
    if (ctx.trialExpired) return false;
    if (subject === 'Permit' && ctx.subscriptionType === 'cancelled') return false;
  }
  if (missingLicence(ctx, subject, action)) return false;
  return true;
}

/** True when any rule grants any action at all (the "no permissions assigned" test of spec 000 §2). */
export function hasAnyRight(ctx: AccessContext): boolean {
  if (ctx.isPlatformAdmin) return true;
  return ctx.rules.some((r) => r.actions.length > 0);
}
