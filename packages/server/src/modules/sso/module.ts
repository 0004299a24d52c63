import type { ServerModule } from '../module.js';

export const ssoModule: ServerModule = {
  name: 'sso',
  routes: () => {},
};
