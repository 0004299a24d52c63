import type { ServerModule } from '../module.js';
import { settingsRoutes } from './routes.js';

export const settingsModule: ServerModule = {
  name: 'settings',
  routes: settingsRoutes,
};
