import { isMailerScenarioId, mailersApi as api, type MailerScenarioParams } from '@bulwark/domain';
import type { Principal } from '../../platform/auth/principal.js';
import { AppError } from '../../platform/errors.js';
import type { Router } from '../../platform/http/route.js';
import { listOutbox } from './outbox.js';
import {
  listMailerModules,
  listMailerScenarios,
  mailerScenarioDetail,
  requireModule,
  resetMailerTemplate,
  saveMailerTemplate,
} from './service.js';

/** The organisation in the URL must be the caller's own; any other id is "not found", like a missing one. */
function ownOrganization(p: Principal, id: string) {
  if (id !== p.organizationId) throw new AppError('not_found');
}

function scenarioOf(p: Principal, params: MailerScenarioParams) {
  ownOrganization(p, params.id);
  const module = requireModule(params.moduleId, params.scenarioId);
  if (!isMailerScenarioId(params.scenarioId)) throw new AppError('not_found');
  return { module, id: params.scenarioId };
}

export function mailerRoutes(r: Router) {
  const { deps } = r;

  r.route(api.modules, ({ tx, principal, params }) => {
    ownOrganization(principal, params.id);
    return listMailerModules(tx);
  });

  r.route(api.scenarios, ({ tx, principal, params }) => {
    ownOrganization(principal, params.id);
    return listMailerScenarios(tx, requireModule(params.moduleId));
  });

  r.route(api.scenario, ({ tx, principal, params }) => {
    const { module, id } = scenarioOf(principal, params);
    return mailerScenarioDetail(tx, module, id);
  });

  r.route(api.saveTemplate, async ({ tx, principal, params, body, lang }) => {
    const { module, id } = scenarioOf(principal, params);
    await saveMailerTemplate(tx, principal.userId, id, body, lang);
    return mailerScenarioDetail(tx, module, id);
  });

  r.route(api.resetTemplate, async ({ tx, principal, params, query }) => {
    const { module, id } = scenarioOf(principal, params);
    await resetMailerTemplate(tx, principal.userId, id, query.language);
    return mailerScenarioDetail(tx, module, id);
  });

  r.route(api.outbox, ({ tx, principal, query }) => listOutbox(tx, query, principal.email, deps.mail.smtpEnabled));
}
