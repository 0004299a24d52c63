import type { ServerModule } from '../module.js';
import { rootCauseRoutes } from './root-cause-routes.js';
import { categoryRoutes } from './routes.js';

/** Categories and sub-categories (subject Category) and the root-cause settings of the why analysis (RC Master). */
export const categoriesModule: ServerModule = {
  name: 'categories',
  routes: (r) => {
    categoryRoutes(r);
    rootCauseRoutes(r);
  },
};
