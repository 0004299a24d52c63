import { LICENCE_MODULES, type ProfileResponse } from '@bulwark/domain';
import { and, count, eq } from 'drizzle-orm';
import type { Principal } from '../../platform/auth/principal.js';
import type { Tx } from '../../platform/db/db.js';
import { notifications } from '../../platform/db/schema.js';
import { organizationModules } from '../organizations/plan-modules.js';

// The feature flags moved to the organisation's plan; kept here for the modules that import them.
export { ORGANIZATION_MODULES } from '../organizations/plan-modules.js';

/** The profile of spec 000 §7: user, organization, rules, organization_modules. */
export async function buildProfile(tx: Tx, p: Principal, hiraV2UserIds: readonly string[]): Promise<ProfileResponse> {
  const [unread] = await tx
    .select({ n: count() })
    .from(notifications)
    .where(and(eq(notifications.userId, p.userId), eq(notifications.isRead, false)));
  const org = p.organization;
  return {
    user: {
      id: p.userId,
      organization_id: p.isPlatformAdmin ? null : p.organizationId,
      email: p.email,
      full_name: p.fullName,
      role_name: p.roleName,
      status: p.status,
      is_admin: p.isAdmin,
      is_platform_admin: p.isPlatformAdmin,
      is_guest: p.kind === 'guest',
      can_issue_permit: p.canIssuePermit,
      hira_v2_allowed: hiraV2UserIds.includes(p.userId),
      locale: p.locale,
      notifications: { unread: Number(unread?.n ?? 0) },
      tenant_memory_details: {
        mem_exhausted: p.access.memExhausted,
        used_bytes: org.storageUsedBytes,
        quota_bytes: org.storageQuotaBytes,
      },
      licences: LICENCE_MODULES.filter((m) => p.access.licences?.includes(m)),
    },
    organization: p.isPlatformAdmin
      ? null
      : {
          id: org.id,
          name: org.name,
          sub_domain_name: org.subDomainName,
          is_enterprise: org.isEnterprise,
          organization_status: org.organizationStatus,
          subscription_type: org.subscriptionType,
          onboarding_pending: org.onboardingCompletedAt === null,
          trial_ends_at: org.trialEndsAt?.toISOString() ?? null,
          trial_expired: p.trialExpired,
          timezone: org.timezone,
        },
    rules: p.rules,
    organization_modules: p.isPlatformAdmin ? [] : organizationModules(org),
  };
}
