import type { PushChange } from '@bulwark/domain';
import type { AppDeps } from '../../platform/deps.js';

/** Tells the organisation's screens that an interaction or a plan changed (after the commit). */
export function pushChange(deps: AppDeps, organizationId: string, change: PushChange, id: string) {
  return deps.push.toOrganization(organizationId, { channel: 'safety_interactions', change, id });
}
