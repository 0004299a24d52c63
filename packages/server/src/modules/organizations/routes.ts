import { organizationsApi as api, type PlatformOrganization } from '@bulwark/domain';
import { and, asc, eq, isNull } from 'drizzle-orm';
import { recordAudit } from '../../platform/audit.js';
import type { Tx } from '../../platform/db/db.js';
import { organizations } from '../../platform/db/schema.js';
import type { AppDeps } from '../../platform/deps.js';
import { AppError } from '../../platform/errors.js';
import type { Router } from '../../platform/http/route.js';
import { resolveTenant } from '../../platform/http/tenancy.js';
import { tenantMemoryEvent } from '../../platform/storage/memory-push.js';
import { announceModuleChanges } from './plan-modules.js';
import { seeEveryOrganization } from './service.js';

function toDto(o: typeof organizations.$inferSelect): PlatformOrganization {
  return {
    id: o.id,
    name: o.name,
    sub_domain_name: o.subDomainName,
    organization_status: o.organizationStatus,
    subscription_type: o.subscriptionType,
    is_enterprise: o.isEnterprise,
    trial_ends_at: o.trialEndsAt?.toISOString() ?? null,
    created_at: o.createdAt.toISOString(),
    storage_quota_bytes: o.storageQuotaBytes,
    storage_used_bytes: o.storageUsedBytes,
    storage_pending_bytes: o.storagePendingBytes,
  };
}

async function findCustomerOrg(tx: Tx, id: string) {
  const [org] = await tx
    .select()
    .from(organizations)
    .where(and(eq(organizations.id, id), eq(organizations.isPlatform, false), isNull(organizations.deletedAt)));
  if (!org) throw new AppError('not_found');
  return org;
}

/**
 * The sign-in finder's look-up, and the platform admin's organisations. The platform routes run in the
 * admin's own (platform) organisation, whose audit trail records them; the contract has admitted only
 * the platform admin, so the transaction may then see every organisation row.
 */
export function organizationRoutes(r: Router, deps: AppDeps) {
  r.public(api.lookup, async ({ query }) => {
    const tenant = await resolveTenant(deps.db.app, query.sub_domain);
    return { found: !!tenant && !tenant.removed && !tenant.isPlatform };
  });

  r.route(api.list, async ({ tx }) => {
    await seeEveryOrganization(tx);
    const rows = await tx
      .select()
      .from(organizations)
      .where(and(eq(organizations.isPlatform, false), isNull(organizations.deletedAt)))
      .orderBy(asc(organizations.subDomainName));
    return { organizations: rows.map(toDto) };
  });

  r.route(api.get, async ({ tx, params }) => {
    await seeEveryOrganization(tx);
    return toDto(await findCustomerOrg(tx, params.id));
  });

  r.route(api.update, async ({ tx, principal: p, params, body, afterCommit }) => {
    await seeEveryOrganization(tx);
    const before = await findCustomerOrg(tx, params.id);
    const [org] = await tx
      .update(organizations)
      .set({
        ...(body.organization_status ? { organizationStatus: body.organization_status } : {}),
        ...(body.subscription_type ? { subscriptionType: body.subscription_type } : {}),
        updatedAt: new Date(),
      })
      .where(eq(organizations.id, params.id))
      .returning();
    await recordAudit(tx, { actorUserId: p.userId, action: 'update', entity: 'Organization', entityId: org!.id, changes: body });
    afterCommit(() => {
      deps.push.toOrganization(org!.id, { channel: 'organization', change: 'updated', id: org!.id });
      // A change of subscription may switch modules on or off (the free account has no permits).
      announceModuleChanges(deps, before, org!);
    });
    return toDto(org!);
  });

  // A quota below what is used is allowed: the organisation's writes then wait until space is freed.
  r.route(api.setStorageQuota, async ({ tx, principal: p, params, body, afterCommit }) => {
    await seeEveryOrganization(tx);
    const before = await findCustomerOrg(tx, params.id);
    const [org] = await tx
      .update(organizations)
      .set({ storageQuotaBytes: body.storage_quota_bytes, updatedAt: new Date() })
      .where(eq(organizations.id, params.id))
      .returning();
    await recordAudit(tx, {
      actorUserId: p.userId,
      action: 'storage_quota',
      entity: 'Organization',
      entityId: org!.id,
      changes: { storage_quota_bytes: { from: before.storageQuotaBytes, to: org!.storageQuotaBytes } },
    });
    afterCommit(() =>
      deps.push.toOrganization(
        org!.id,
        tenantMemoryEvent({
          organizationId: org!.id,
          used: org!.storageUsedBytes,
          quota: org!.storageQuotaBytes,
          pending: org!.storagePendingBytes,
        }),
      ),
    );
    return toDto(org!);
  });

  r.route(api.remove, async ({ tx, principal: p, params, afterCommit }) => {
    await seeEveryOrganization(tx);
    await findCustomerOrg(tx, params.id);
    await tx.update(organizations).set({ deletedAt: new Date(), organizationStatus: 'Inactive' }).where(eq(organizations.id, params.id));
    await recordAudit(tx, { actorUserId: p.userId, action: 'remove', entity: 'Organization', entityId: params.id, changes: {} });
    afterCommit(() => deps.push.toOrganization(params.id, { channel: 'organization', change: 'removed', id: params.id }));
    return { ok: true as const };
  });
}
