import type { ServerModule } from '../module.js';

export const workflowsModule: ServerModule = {
  name: 'workflows',
  routes: () => {},
};
