import type { AppDeps } from '../platform/deps.js';
import type { JobHandlers, Schedules } from '../platform/jobs/jobs.js';
import type { PushRequestHandlers } from '../platform/push/push.js';
import type { Router } from '../platform/http/route.js';

/**
 * What a module hands the app: its routes (each mounted from a contract of `packages/domain/src/<m>/api.ts`
 * with the router), its job handlers and schedules, and the push requests it answers.
 * `modules/index.ts` lists every module; nothing else needs to change to add one.
 */
export type ServerModule = {
  name: string;
  routes: (r: Router, deps: AppDeps) => void;
  jobs?: (deps: AppDeps) => { handlers: JobHandlers; schedules?: Schedules };
  push?: (deps: AppDeps) => Partial<PushRequestHandlers>;
};
