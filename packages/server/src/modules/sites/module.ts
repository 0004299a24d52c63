import type { ServerModule } from '../module.js';

export const sitesModule: ServerModule = {
  name: 'sites',
  routes: () => {},
};
