import type { Action, Rule, Subject } from './subjects.js';

/** What a rights decision needs to know about the signed-in principal. */
export type AccessContext = {
  rules: readonly Rule[];
  isPlatformAdmin: boolean;
  memExhausted: boolean;
  subscriptionType: string | null;
  /** A free trial past its end: reads go on, creates and updates stop (spec 001 §4, §8). */
  trialExpired?: boolean;
};

const WRITES: readonly Action[] = ['create', 'update'];

/**
 * The one rights check, shared by the server's route guards and the web's route guards (spec 000 §5, §6).
 * - The platform super admin may act only on Organization, and on nothing else.
 * - Otherwise a module action is allowed when the rules list that module with that action,
 * - except create/update when the tenant's storage is exhausted,
 * - and Permit create/update when the subscription is cancelled,
 * - and every create/update once the free trial has expired.
 */
export function can(ctx: AccessContext, subject: Subject, action: Action): boolean {
  if (ctx.isPlatformAdmin) return subject === 'Organization';
  if (subject === 'Organization') return false;
  const rule = ctx.rules.find((r) => r.subject === subject);
  if (!rule || !rule.actions.includes(action)) return false;
  if (WRITES.includes(action)) {
    if (ctx.memExhausted) return false;
    if (ctx.trialExpired) return false;
    if (subject === 'Permit' && ctx.subscriptionType === 'cancelled') return false;
  }
  return true;
}

/** True when any rule grants any action at all (the "no permissions assigned" test of spec 000 §2). */
export function hasAnyRight(ctx: AccessContext): boolean {
  if (ctx.isPlatformAdmin) return true;
  return ctx.rules.some((r) => r.actions.length > 0);
}
