import type { ServerModule } from '../module.js';
import { guestRoutes } from './routes.js';

export const guestsModule: ServerModule = {
  name: 'guests',
  routes: guestRoutes,
};
