import { safetyInteractionsApi as api } from '@bulwark/domain';
import type { Router } from '../../platform/http/route.js';
import { dashboard, summary } from './summary.js';

/** The figures: the summary of a period and the dashboard (in the organisation's time zone). */
export function summaryRoutes(r: Router) {
  r.route(api.summary, ({ tx, query }) => summary(tx, query));
  r.route(api.dashboard, ({ tx, principal }) => dashboard(tx, principal.organization.timezone));
}
