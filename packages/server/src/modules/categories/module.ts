import type { ServerModule } from '../module.js';

export const categoriesModule: ServerModule = {
  name: 'categories',
  routes: () => {},
};
