import { workflowsApi as api } from '@bulwark/domain';
import type { Router } from '../../platform/http/route.js';
import { createWorkflow, deleteWorkflow, getWorkflow, listWorkflows, updateWorkflow, workflowOptions } from './service.js';

export function workflowRoutes(r: Router) {
  r.route(api.list, ({ tx, query }) => listWorkflows(tx, query));
  r.route(api.options, ({ tx }) => workflowOptions(tx));
  r.route(api.get, ({ tx, params }) => getWorkflow(tx, params.id));
  r.route(api.create, ({ tx, principal, body }) => createWorkflow(tx, principal, body));
  r.route(api.update, ({ tx, principal, params, body }) => updateWorkflow(tx, principal, params.id, body));
  r.route(api.remove, ({ tx, principal, params }) => deleteWorkflow(tx, principal, params.id));
}
