import type { ServerModule } from '../module.js';
import { siteRoutes } from './routes.js';

export const sitesModule: ServerModule = {
  name: 'sites',
  routes: siteRoutes,
};
