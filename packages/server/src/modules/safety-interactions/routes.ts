import type { Router } from '../../platform/http/route.js';
import { recordRoutes } from './record-routes.js';
import { scheduleRoutes } from './schedule-routes.js';
import { summaryRoutes } from './summary-routes.js';

/** Every endpoint of `safetyInteractionsApi`, mounted by area. */
export function safetyInteractionRoutes(r: Router) {
  recordRoutes(r);
  scheduleRoutes(r);
  summaryRoutes(r);
}
