import type { ServerModule } from '../module.js';
import { ssoRoutes } from './routes.js';
import { createSsoService } from './service.js';

export const ssoModule: ServerModule = {
  name: 'sso',
  routes: (r, deps) => ssoRoutes(r.app, deps, createSsoService(deps)),
};
