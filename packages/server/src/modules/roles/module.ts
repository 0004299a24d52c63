import type { ServerModule } from '../module.js';

export const rolesModule: ServerModule = {
  name: 'roles',
  routes: () => {},
};
