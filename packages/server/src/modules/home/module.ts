import type { ServerModule } from '../module.js';
import { homeRoutes } from './routes.js';

/** The home (`/`, issue 15): one call for a person's first screen, read through the other modules. */
export const homeModule: ServerModule = {
  name: 'home',
  routes: homeRoutes,
};
