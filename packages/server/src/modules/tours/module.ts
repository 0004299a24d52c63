import type { ServerModule } from '../module.js';
import { tourRoutes } from './routes.js';

/** Guided tours (spec 001 §2): each is offered to a user until they have seen it once. */
export const toursModule: ServerModule = {
  name: 'tours',
  routes: tourRoutes,
};
