import type { ServerModule } from '../module.js';
import { userRoutes } from './routes.js';

export const usersModule: ServerModule = {
  name: 'users',
  routes: userRoutes,
};
