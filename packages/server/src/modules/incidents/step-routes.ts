import { incidentsApi as api } from '@bulwark/domain';
import type { Router } from '../../platform/http/route.js';
import { rootCauseOptions, setKeyFactors, setWhyAnalysis } from './analysis.js';
import { addCapa } from './capa.js';
import { sendIncidentReport } from './communicate.js';
import { closeIncident, decideInvestigation, deleteIncident, recordConclusion, submitInvestigation } from './review.js';
import { formTeam, recordFacts } from './steps.js';
import { updateIncident } from './update.js';
import { incidentView } from './view.js';

/**
 * The writes to one incident, step by step (spec 000 §2): each runs its rule (incidentAbilities) in
 * the request's transaction and answers the incident as the requester now sees it.
 */
export function stepRoutes(r: Router) {
  const { deps } = r;
  const view = async (tx: Parameters<typeof incidentView>[0], principal: Parameters<typeof incidentView>[1], id: string) => ({
    incident: await incidentView(tx, principal, id),
  });

  r.route(api.update, async ({ tx, principal, params, body, afterCommit }) => {
    afterCommit(await updateIncident(tx, deps, principal, params.id, body));
    return view(tx, principal, params.id);
  });
  r.route(api.team, async ({ tx, principal, params, body, afterCommit }) => {
    afterCommit(await formTeam(tx, deps, principal, params.id, body));
    return view(tx, principal, params.id);
  });
  r.route(api.facts, async ({ tx, principal, params, body, afterCommit }) => {
    afterCommit(await recordFacts(tx, deps, principal, params.id, body));
    return view(tx, principal, params.id);
  });
  r.route(api.keyFactors, async ({ tx, principal, params, body, afterCommit }) => {
    afterCommit(await setKeyFactors(tx, deps, principal, params.id, body));
    return view(tx, principal, params.id);
  });
  r.route(api.rootCauses, ({ tx, principal, params }) => rootCauseOptions(tx, principal, params.id));
  r.route(api.whyAnalysis, async ({ tx, principal, params, body, afterCommit }) => {
    afterCommit(await setWhyAnalysis(tx, deps, principal, params.id, body));
    return view(tx, principal, params.id);
  });
  r.route(api.addActions, async ({ tx, principal, params, body, afterCommit }) => {
    afterCommit(await addCapa(tx, deps, principal, params.id, body));
    return view(tx, principal, params.id);
  });
  r.route(api.record, async ({ tx, principal, params, body, afterCommit }) => {
    afterCommit(await recordConclusion(tx, deps, principal, params.id, body));
    return view(tx, principal, params.id);
  });
  r.route(api.submit, async ({ tx, principal, params, afterCommit }) => {
    afterCommit(await submitInvestigation(tx, deps, principal, params.id));
    return view(tx, principal, params.id);
  });
  r.route(api.decide, async ({ tx, principal, params, body, afterCommit }) => {
    afterCommit(await decideInvestigation(tx, deps, principal, params.id, body));
    return view(tx, principal, params.id);
  });
  r.route(api.close, async ({ tx, principal, params, body, afterCommit }) => {
    afterCommit(await closeIncident(tx, deps, principal, params.id, body.remarks));
    return view(tx, principal, params.id);
  });
  r.route(api.sendReport, async ({ tx, principal, params, body, lang, afterCommit }) => {
    afterCommit(await sendIncidentReport(tx, deps, principal, params.id, body, lang));
    return view(tx, principal, params.id);
  });
  r.route(api.remove, async ({ tx, principal, params, afterCommit }) => {
    afterCommit(await deleteIncident(tx, deps, principal, params.id));
    return { ok: true as const };
  });
}
