import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../platform/deps.js';
import type { JobHandlers, Schedules } from '../platform/jobs/jobs.js';
import type { PushRequestHandlers } from '../platform/push/push.js';

/**
 * What a module hands the app: its routes, its job handlers and schedules, and the push requests it
 * answers. `modules/index.ts` lists every module; nothing else needs to change to add one.
 */
export type ServerModule = {
  name: string;
  routes: (app: FastifyInstance, deps: AppDeps) => void;
  jobs?: (deps: AppDeps) => { handlers: JobHandlers; schedules?: Schedules };
  push?: (deps: AppDeps) => Partial<PushRequestHandlers>;
};
