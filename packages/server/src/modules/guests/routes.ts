import { errorResponse, guestAvailabilitySchema, guestSettingsSchema, guestSignupBody } from '@bulwark/domain';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { inTenant } from '../../platform/db/db.js';
import type { AppDeps } from '../../platform/deps.js';
import { AppError } from '../../platform/errors.js';
import { principalOf, requireTenant } from '../../platform/http/access.js';
import { limit } from '../../platform/http/rate-limit.js';
import { MAIL_QUEUE } from '../../platform/mail/mail.js';
import { createGuest, guestSettings, setGuestSignup } from './service.js';

const tags = ['Guests'];
const errors = { 400: errorResponse, 401: errorResponse, 403: errorResponse, 404: errorResponse, 429: errorResponse };

export function guestRoutes(app: FastifyInstance, deps: AppDeps) {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.get(
    '/api/guest_users/availability',
    {
      config: { access: { public: true } },
      schema: {
        tags,
        summary: 'Whether the organisation of this address accepts guest accounts',
        response: { 200: guestAvailabilitySchema, ...errors },
      },
    },
    async (req) => {
      const tenant = await requireTenant(req, deps.db.app, deps.config.baseDomain);
      if (tenant.isPlatform) throw new AppError('tenant_not_found');
      if (tenant.status !== 'Active') throw new AppError('organization_inactive');
      const s = await inTenant(deps.db.app, tenant.id, guestSettings);
      return { enabled: s.enabled, organization: s.organization };
    },
  );

  r.post(
    '/api/guest_users',
    {
      config: { access: { public: true } },
      // Counted before validation, so malformed floods count too.
      onRequest: (req) => limit(deps.db.app, `guest:${req.ip}`, 10, 3600),
      schema: {
        tags,
        summary: 'Ask for a guest account: a link to choose the password is e-mailed (same answer whether or not the address is known)',
        body: guestSignupBody,
        response: { 202: z.object({ email: z.string() }), ...errors },
      },
    },
    async (req, reply) => {
      const tenant = await requireTenant(req, deps.db.app, deps.config.baseDomain);
      if (tenant.isPlatform) throw new AppError('tenant_not_found');
      if (tenant.status !== 'Active') throw new AppError('organization_inactive');
      const mailId = await inTenant(deps.db.app, tenant.id, async (tx) => {
        if (!(await guestSettings(tx)).enabled) throw new AppError('forbidden', { messageKey: 'registration.guest.disabled' });
        return createGuest(tx, deps, req.body, req.lang);
      });
      if (mailId && deps.mail.smtpEnabled) await deps.jobs?.send(MAIL_QUEUE, { organizationId: tenant.id, id: mailId });
      return reply.status(202).send({ email: req.body.email });
    },
  );

  r.get(
    '/api/organizations/guest_settings',
    {
      config: { access: { admin: true } },
      schema: { tags, summary: 'Whether guests may create accounts here', response: { 200: guestSettingsSchema, ...errors } },
    },
    async (req) => {
      const p = principalOf(req);
      return { enabled: (await inTenant(deps.db.app, p.organizationId, guestSettings)).enabled };
    },
  );

  r.put(
    '/api/organizations/guest_settings',
    {
      config: { access: { admin: true } },
      schema: {
        tags,
        summary: 'Allow or stop guest accounts',
        body: guestSettingsSchema,
        response: { 200: guestSettingsSchema, ...errors },
      },
    },
    async (req) => {
      const p = principalOf(req);
      await inTenant(deps.db.app, p.organizationId, (tx) => setGuestSignup(tx, req.body.enabled, p.userId));
      return { enabled: req.body.enabled };
    },
  );
}
