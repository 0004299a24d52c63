import type { ServerModule } from '../module.js';

export const settingsModule: ServerModule = {
  name: 'settings',
  routes: () => {},
};
