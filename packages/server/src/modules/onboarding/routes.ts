import { onboardingApi as api } from '@bulwark/domain';
import { recordAudit } from '../../platform/audit.js';
import type { Tx } from '../../platform/db/db.js';
import { AppError } from '../../platform/errors.js';
import type { Router } from '../../platform/http/route.js';
import { completeOnboarding, confirmHeadOfSafety, markInvitesDone, onboardingStatus, setOrganizationTimezone } from './service.js';

/** Runs an admin's wizard step while onboarding is pending, then answers the new status. */
async function step(tx: Tx, work: () => Promise<void>) {
  const before = await onboardingStatus(tx);
  if (!before.pending) throw new AppError('conflict', { messageKey: 'onboarding.alreadyDone' });
  await work();
  return onboardingStatus(tx);
}

export function onboardingRoutes(r: Router) {
  const { deps } = r;

  r.route(api.status, ({ tx }) => onboardingStatus(tx));

  r.route(api.setTimezone, async ({ tx, principal: p, body, afterCommit }) => {
    const status = await step(tx, async () => {
      await setOrganizationTimezone(tx, body.timezone);
      await recordAudit(tx, {
        actorUserId: p.userId,
        action: 'update',
        entity: 'organization',
        entityId: p.organizationId,
        changes: { timezone: body.timezone },
      });
    });
    afterCommit(() => deps.push.toOrganization(p.organizationId, { channel: 'timezone', change: 'updated' }));
    return status;
  });

  r.route(api.confirmStep, ({ tx, params }) =>
    step(tx, () => (params.step === 'headOfSafety' ? confirmHeadOfSafety(tx) : markInvitesDone(tx))),
  );

  r.route(api.complete, async ({ tx, principal: p, afterCommit }) => {
    const status = await completeOnboarding(tx);
    await recordAudit(tx, {
      actorUserId: p.userId,
      action: 'update',
      entity: 'organization',
      entityId: p.organizationId,
      changes: { onboarding: 'completed' },
    });
    afterCommit(() => {
      // Every signed-in member's guard lets them out of /onboarding now.
      deps.push.toOrganization(p.organizationId, { channel: 'onboarding', change: 'updated' });
      deps.push.toOrganization(p.organizationId, { channel: 'organization', change: 'updated' });
    });
    return status;
  });
}
