import type { ServerModule } from '../module.js';
import { ssoRoutes } from './routes.js';
import { createSsoService } from './service.js';

export const ssoModule: ServerModule = {
  name: 'sso',
  routes: (app, deps) => ssoRoutes(app, deps, createSsoService(deps)),
};
