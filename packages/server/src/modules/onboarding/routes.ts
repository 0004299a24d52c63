import { errorResponse, onboardingStatusSchema, onboardingTimezoneBody } from '@bulwark/domain';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { inTenant, type Tx } from '../../platform/db/db.js';
import type { AppDeps } from '../../platform/deps.js';
import { AppError } from '../../platform/errors.js';
import { principalOf } from '../../platform/http/access.js';
import { recordAudit } from '../../platform/audit.js';
import { completeOnboarding, confirmHeadOfSafety, markInvitesDone, onboardingStatus, setOrganizationTimezone } from './service.js';

const tags = ['Onboarding'];
const errors = { 400: errorResponse, 401: errorResponse, 403: errorResponse, 404: errorResponse };

export function onboardingRoutes(app: FastifyInstance, deps: AppDeps) {
  const r = app.withTypeProvider<ZodTypeProvider>();

  /** Runs an admin's wizard step while onboarding is pending, then answers the new status. */
  async function step(req: Parameters<typeof principalOf>[0], work: (tx: Tx) => Promise<void>) {
    const p = principalOf(req);
    const status = await inTenant(deps.db.app, p.organizationId, async (tx) => {
      const before = await onboardingStatus(tx);
      if (!before.pending) throw new AppError('conflict', { messageKey: 'onboarding.alreadyDone' });
      await work(tx);
      return onboardingStatus(tx);
    });
    return status;
  }

  r.get(
    '/api/onboarding',
    {
      config: { access: { session: true } },
      schema: { tags, summary: 'Where the organisation stands in the set-up wizard', response: { 200: onboardingStatusSchema, ...errors } },
    },
    async (req) => {
      const p = principalOf(req);
      return inTenant(deps.db.app, p.organizationId, onboardingStatus);
    },
  );

  r.put(
    '/api/onboarding/timezone',
    {
      config: { access: { admin: true } },
      schema: {
        tags,
        summary: 'Step 1: the organisation’s time zone',
        body: onboardingTimezoneBody,
        response: { 200: onboardingStatusSchema, ...errors },
      },
    },
    async (req) => {
      const p = principalOf(req);
      const status = await step(req, async (tx) => {
        await setOrganizationTimezone(tx, req.body.timezone);
        await recordAudit(tx, {
          actorUserId: p.userId,
          action: 'update',
          entity: 'organization',
          entityId: p.organizationId,
          changes: { timezone: req.body.timezone },
        });
      });
      deps.push.toOrganization(p.organizationId, { channel: 'timezone', change: 'updated' });
      return status;
    },
  );

  r.post(
    '/api/onboarding/steps/:step',
    {
      config: { access: { admin: true } },
      schema: {
        tags,
        summary: 'Confirm a step that leaves no record of its own (head of safety, invitations done or skipped)',
        params: z.object({ step: z.enum(['headOfSafety', 'invite'], { message: 'validation.invalid' }) }),
        response: { 200: onboardingStatusSchema, ...errors },
      },
    },
    async (req) => step(req, (tx) => (req.params.step === 'headOfSafety' ? confirmHeadOfSafety(tx) : markInvitesDone(tx))),
  );

  r.post(
    '/api/onboarding/complete',
    {
      config: { access: { admin: true } },
      schema: { tags, summary: 'Finish onboarding for the organisation', response: { 200: onboardingStatusSchema, ...errors } },
    },
    async (req) => {
      const p = principalOf(req);
      const status = await inTenant(deps.db.app, p.organizationId, async (tx) => {
        const done = await completeOnboarding(tx);
        await recordAudit(tx, {
          actorUserId: p.userId,
          action: 'update',
          entity: 'organization',
          entityId: p.organizationId,
          changes: { onboarding: 'completed' },
        });
        return done;
      });
      // Every signed-in member's guard lets them out of /onboarding now.
      deps.push.toOrganization(p.organizationId, { channel: 'onboarding', change: 'updated' });
      deps.push.toOrganization(p.organizationId, { channel: 'organization', change: 'updated' });
      return status;
    },
  );
}
