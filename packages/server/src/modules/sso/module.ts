import type { ServerModule } from '../module.js';
import { ssoRoutes } from './routes.js';

export const ssoModule: ServerModule = {
  name: 'sso',
  routes: ssoRoutes,
};
