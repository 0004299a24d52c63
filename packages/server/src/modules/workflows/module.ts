import type { ServerModule } from '../module.js';
import { workflowRoutes } from './routes.js';

export const workflowsModule: ServerModule = {
  name: 'workflows',
  routes: workflowRoutes,
};
