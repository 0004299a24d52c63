import {
  errorResponse,
  extendApproveBody,
  extendRejectBody,
  extendRequestBody,
  extendRequestListQuery,
  extendRequestSchema,
  planSchema,
  platformExtendRequestSchema,
  registrationBody,
  registrationCreatedResponse,
  registrationResentResponse,
  registrationVerifiedResponse,
  registrationVerifyBody,
  saasFeaturesSchema,
  subdomainAvailabilityQuery,
  subdomainAvailabilityResponse,
} from '@bulwark/domain';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { inTenant } from '../../platform/db/db.js';
import type { AppDeps } from '../../platform/deps.js';
import { principalOf } from '../../platform/http/access.js';
import { createExtendRequestService } from './extend-requests.js';
import type { RegistrationService } from './service.js';
import { planOf, saasFeatures } from './trial.js';

const errors = {
  400: errorResponse,
  401: errorResponse,
  403: errorResponse,
  404: errorResponse,
  409: errorResponse,
  410: errorResponse,
  429: errorResponse,
};
const uuidParam = z.uuid({ message: 'validation.invalid' });

export function registrationRoutes(app: FastifyInstance, deps: AppDeps, registration: RegistrationService) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['Registration'];

  r.post(
    '/api/organizations',
    {
      config: { access: { public: true } },
      schema: {
        tags,
        summary: 'Sign up (step 1): keeps a pending registration and e-mails a 6-digit code; nothing is created until the code is verified',
        description:
          'Business e-mails only (free and disposable providers refused); the e-mail may not belong to an admin or a pending sign-up; the sub-domain must be free. Rate-limited per address and per e-mail.',
        body: registrationBody,
        response: { 201: registrationCreatedResponse, ...errors },
      },
      onRequest: (req) => registration.limitAddress('register', req.ip),
    },
    async (req, reply) => {
      const created = await registration.register(req.body, req.lang);
      return reply.status(201).send(created);
    },
  );

  r.get(
    '/api/registrations/sub_domain_availability',
    {
      config: { access: { public: true } },
      schema: {
        tags,
        summary: 'Is this sub-domain free? Without one, a sub-domain is suggested from company_name',
        querystring: subdomainAvailabilityQuery,
        response: { 200: subdomainAvailabilityResponse, ...errors },
      },
      onRequest: (req) => registration.limitAddress('availability', req.ip),
    },
    async (req) => registration.availability(req.query),
  );

  r.post(
    '/api/registrations/:registration_id/verify',
    {
      config: { access: { public: true } },
      schema: {
        tags,
        summary: 'Sign up (step 2): check the e-mailed code and create the organisation (14-day free trial) with its admin',
        description:
          'Wrong code: otp_invalid (5 tries). Expired code or no tries left: link_expired (ask for a new code). The organisation, its Administrator role and admin user are created in one transaction; onboarding stays pending.',
        params: z.object({ registration_id: uuidParam }),
        body: registrationVerifyBody,
        response: { 200: registrationVerifiedResponse, ...errors },
      },
      onRequest: (req) => registration.limitAddress('verify', req.ip),
    },
    async (req) => registration.verify(req.params.registration_id, req.body.code),
  );

  r.post(
    '/api/registrations/:registration_id/resend',
    {
      config: { access: { public: true } },
      schema: {
        tags,
        summary: 'E-mail a new code (after a 60-second cool-down, at most 5 times); the old code stops working',
        params: z.object({ registration_id: uuidParam }),
        response: { 200: registrationResentResponse, ...errors },
      },
      onRequest: (req) => registration.limitAddress('resend', req.ip),
    },
    async (req) => registration.resend(req.params.registration_id),
  );

  // The plan of the signed-in user's organisation (also the get_plan push request).
  r.get(
    '/api/v1/plan',
    {
      config: { access: { session: true } },
      schema: {
        tags: ['Subscription'],
        summary: 'The organisation’s plan: trial, active or cancelled; trial end and expiry; user limit; storage quota and usage',
        response: { 200: planSchema, ...errors },
      },
    },
    async (req) => {
      const p = principalOf(req);
      return inTenant(deps.db.app, p.organizationId, (tx) => planOf(tx, p.organization));
    },
  );

  r.get(
    '/api/v1/saas_additional_features',
    {
      config: { access: { session: true } },
      schema: {
        tags: ['Subscription'],
        summary: 'Features of the plan: every module is enabled',
        response: { 200: saasFeaturesSchema, ...errors },
      },
    },
    async () => saasFeatures(),
  );

  const extend = createExtendRequestService(deps);
  const extendTags = ['Free-trial extension requests'];
  const orgParams = z.object({ organization_id: uuidParam });

  r.get(
    '/api/organizations/:organization_id/org_free_trial_extend_requests',
    {
      config: { access: { admin: true } },
      schema: {
        tags: extendTags,
        summary: 'The organisation’s own extension requests, newest first (organisation admin)',
        params: orgParams,
        response: { 200: z.object({ requests: z.array(extendRequestSchema) }), ...errors },
      },
    },
    async (req) => ({ requests: await extend.listOwn(principalOf(req), req.params.organization_id) }),
  );

  r.post(
    '/api/organizations/:organization_id/org_free_trial_extend_requests',
    {
      // Asking for more time must stay possible once the trial has ended.
      config: { access: { admin: true }, allowedAfterTrial: true },
      schema: {
        tags: extendTags,
        summary: 'Ask the provider for more free-trial days (organisation admin; one waiting request at a time)',
        params: orgParams,
        body: extendRequestBody,
        response: { 201: extendRequestSchema, ...errors },
      },
    },
    async (req, reply) => reply.status(201).send(await extend.create(principalOf(req), req.params.organization_id, req.body.reason)),
  );

  r.get(
    '/api/v1/org_free_trial_extend_requests',
    {
      config: { access: { platform: true } },
      schema: {
        tags: extendTags,
        summary: 'Every organisation’s extension requests, newest first (platform admin)',
        querystring: extendRequestListQuery,
        response: { 200: z.object({ requests: z.array(platformExtendRequestSchema) }), ...errors },
      },
    },
    async (req) => ({ requests: await extend.listAll(req.query.status) }),
  );

  const requestParams = z.object({ id: uuidParam });
  r.post(
    '/api/v1/org_free_trial_extend_requests/:id/approve',
    {
      config: { access: { platform: true } },
      schema: {
        tags: extendTags,
        summary:
          'Approve: the trial ends N days later (default 14, counted from the later of now and the current end); the admins are told',
        params: requestParams,
        body: extendApproveBody,
        response: { 200: platformExtendRequestSchema, ...errors },
      },
    },
    async (req) => extend.approve(principalOf(req), req.params.id, req.body.days),
  );

  r.post(
    '/api/v1/org_free_trial_extend_requests/:id/reject',
    {
      config: { access: { platform: true } },
      schema: {
        tags: extendTags,
        summary: 'Reject with a reason; the admins are told',
        params: requestParams,
        body: extendRejectBody,
        response: { 200: platformExtendRequestSchema, ...errors },
      },
    },
    async (req) => extend.reject(principalOf(req), req.params.id, req.body.reason),
  );
}
