import { missingOnboardingSteps, nextOnboardingStep, type OnboardingStatus } from '@bulwark/domain';
import { and, count, eq, isNotNull, isNull, sql } from 'drizzle-orm';
import type { Tx } from '../../platform/db/db.js';
import { organizations, roles } from '../../platform/db/schema.js';
import { AppError } from '../../platform/errors.js';
import { sites } from '../sites/read.js';

const thisOrg = eq(organizations.id, sql`app_current_org()`);

/** Where the organisation stands in the wizard, read from what really exists (sites, roles) and the confirmed steps. */
export async function onboardingStatus(tx: Tx): Promise<OnboardingStatus> {
  const [org] = await tx.select().from(organizations).where(thisOrg);
  if (!org) throw new AppError('not_found');
  const [siteCount] = await tx.select({ n: count() }).from(sites).where(eq(sites.isActive, true));
  const [headless] = await tx
    .select({ n: count() })
    .from(sites)
    .where(and(eq(sites.isActive, true), isNull(sites.headOfSafetyId)));
  const [headed] = await tx
    .select({ n: count() })
    .from(sites)
    .where(and(eq(sites.isActive, true), isNotNull(sites.headOfSafetyId)));
  const [roleCount] = await tx.select({ n: count() }).from(roles).where(eq(roles.isSystem, false));
  const state = org.onboardingState;
  const steps = {
    timezone: state.timezone === true,
    site: Number(siteCount?.n ?? 0) > 0,
    // Confirmed by the admin, and still true: every active site has a head of safety.
    headOfSafety: state.headOfSafety === true && Number(headed?.n ?? 0) > 0 && Number(headless?.n ?? 0) === 0,
    roles: Number(roleCount?.n ?? 0) > 0,
    invite: state.invite === true,
  };
  return { pending: org.onboardingCompletedAt === null, timezone: org.timezone, steps, next: nextOnboardingStep(steps) };
}

async function markStep(tx: Tx, step: string) {
  await tx
    .update(organizations)
    .set({ onboardingState: sql`${organizations.onboardingState} || jsonb_build_object(${step}::text, true)`, updatedAt: new Date() })
    .where(thisOrg);
}

export async function setOrganizationTimezone(tx: Tx, timezone: string) {
  await tx.update(organizations).set({ timezone, updatedAt: new Date() }).where(thisOrg);
  await markStep(tx, 'timezone');
}

/** The admin confirms who heads safety; refused while an active site has nobody. */
export async function confirmHeadOfSafety(tx: Tx) {
  const [headless] = await tx
    .select({ n: count() })
    .from(sites)
    .where(and(eq(sites.isActive, true), isNull(sites.headOfSafetyId)));
  const [any] = await tx.select({ n: count() }).from(sites).where(eq(sites.isActive, true));
  if (Number(any?.n ?? 0) === 0) throw new AppError('validation_failed', { fields: { site: 'onboarding.validation.siteFirst' } });
  if (Number(headless?.n ?? 0) > 0)
    throw new AppError('validation_failed', { fields: { head_of_safety_id: 'onboarding.validation.headOfSafety' } });
  await markStep(tx, 'headOfSafety');
}

export async function markInvitesDone(tx: Tx) {
  await markStep(tx, 'invite');
}

/** Ends onboarding for the whole organisation; refused, naming the steps, while a required one is open. */
export async function completeOnboarding(tx: Tx): Promise<OnboardingStatus> {
  const status = await onboardingStatus(tx);
  if (!status.pending) return status;
  const missing = missingOnboardingSteps(status.steps);
  if (missing.length > 0) {
    throw new AppError('validation_failed', { fields: Object.fromEntries(missing.map((s) => [s, `onboarding.validation.${s}Missing`])) });
  }
  await tx.update(organizations).set({ onboardingCompletedAt: new Date(), updatedAt: new Date() }).where(thisOrg);
  return { ...status, pending: false };
}
