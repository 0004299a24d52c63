import type { ServerModule } from '../module.js';
import { settingsRoutes } from './routes.js';

export const settingsModule: ServerModule = {
  name: 'settings',
  routes: (r, deps) => settingsRoutes(r.app, deps),
};
