import { registrationApi as api } from '@bulwark/domain';
import type { FastifyRequest } from 'fastify';
import type { Router } from '../../platform/http/route.js';
import { createExtendRequestService } from './extend-requests.js';
import { createRegistrationService, type RegistrationService } from './service.js';
import { planChanged, planOf, saasFeatures } from './trial.js';

type Limited = Parameters<RegistrationService['limitAddress']>[0];

export function registrationRoutes(r: Router) {
  const { deps } = r;
  const registration = createRegistrationService(deps);
  const extend = createExtendRequestService(deps);
  // The per-address limit of each public sign-up route, counted before the body is read so malformed
  // floods count too.
  const limited = (kind: Limited) => ({ onRequest: (req: FastifyRequest) => registration.limitAddress(kind, req.ip) });

  // --- Sign-up (signed out): the platform's own tenant keeps the pending registrations -------------

  r.public(api.register, ({ body, lang }) => registration.register(body, lang), limited('register'));
  r.public(api.subdomainAvailability, ({ query }) => registration.availability(query), limited('availability'));
  r.public(api.verify, ({ params, body }) => registration.verify(params.registration_id, body.code), limited('verify'));
  r.public(api.resend, ({ params }) => registration.resend(params.registration_id), limited('resend'));

  // --- The plan of the signed-in user's organisation (also the get_plan push request) ---------------

  r.route(api.plan, ({ tx, principal }) => planOf(tx, principal.organization));
  r.route(api.saasFeatures, ({ principal }) => saasFeatures(principal.organization));

  // --- Free-trial extension requests ----------------------------------------------------------------

  r.route(api.ownExtendRequests, async ({ tx, principal, params }) => ({
    requests: await extend.listOwn(tx, principal, params.organization_id),
  }));

  r.route(api.requestExtension, async ({ tx, principal, params, body, afterCommit }) => {
    const created = await extend.create(tx, principal, params.organization_id, body.reason);
    afterCommit(() => planChanged(deps, principal.organizationId));
    return created;
  });

  r.route(api.extendRequests, async ({ tx, query }) => ({ requests: await extend.listAll(tx, query.status) }));

  r.route(api.approveExtension, async ({ tx, principal, params, body, afterCommit }) => {
    const decided = await extend.approve(tx, principal, params.id, body.days);
    afterCommit(decided.afterCommit);
    return decided.request;
  });

  r.route(api.rejectExtension, async ({ tx, principal, params, body, afterCommit }) => {
    const decided = await extend.reject(tx, principal, params.id, body.reason);
    afterCommit(decided.afterCommit);
    return decided.request;
  });
}
