import type { ServerModule } from '../../modules/module.js';
import { fileRoutes } from './routes.js';

/** Stored files: the one download route; the modules that link files decide who reads them (gates.ts). */
export const filesModule: ServerModule = {
  name: 'files',
  routes: (r) => fileRoutes(r),
};
