import type { ServerModule } from '../module.js';
import { rootCauseRoutes } from './root-cause-routes.js';
import { categoryRoutes } from './routes.js';

export const categoriesModule: ServerModule = {
  name: 'categories',
  routes: (r, deps) => {
    const app = r.app;
    categoryRoutes(app, deps);
    rootCauseRoutes(app, deps);
  },
};
