import type { SaasFeatures } from '@bulwark/domain';
import type { organizations } from '../../platform/db/schema.js';
import type { AppDeps } from '../../platform/deps.js';

/** The feature flags of spec 000 §1, all built in. */
export const ORGANIZATION_MODULES = [
  'enterprise',
  'pricing',
  'settings',
  'actions',
  'audits',
  'hira',
  'incidents',
  'library',
  'observations',
  'permits',
];

type Org = Pick<typeof organizations.$inferSelect, 'id' | 'subscriptionType'>;

/**
 * The modules an organisation has on: every one (spec 000 §1), the free trial included (spec 001 §9),
 * except permits on the free account, a cancelled subscription ("no permits", DECISIONS.md), where
 * can() refuses their creation too.
 */
export function organizationModules(org: Pick<Org, 'subscriptionType'>): string[] {
  return ORGANIZATION_MODULES.filter((m) => !(m === 'permits' && org.subscriptionType === 'cancelled'));
}

/** The plan's features (`saas_additional_features`): each module, on or off as `organizationModules` says. */
export function saasFeatures(org: Pick<Org, 'subscriptionType'>): SaasFeatures {
  const on = new Set(organizationModules(org));
  return { features: ORGANIZATION_MODULES.map((key) => ({ key, enabled: on.has(key) })) };
}

/**
 * After the commit of a change to an organisation's plan: its members' open screens hear the new
 * modules (`org_modules`) and features (`saas_additional_features`), when they changed.
 */
export function announceModuleChanges(deps: Pick<AppDeps, 'push'>, before: Org, after: Org): void {
  const modules = organizationModules(after);
  if (modules.join() === organizationModules(before).join()) return;
  deps.push.toOrganization(after.id, { channel: 'org_modules', change: 'updated', id: after.id, data: modules });
  deps.push.toOrganization(after.id, { channel: 'saas_additional_features', change: 'updated', id: after.id, data: saasFeatures(after) });
}
