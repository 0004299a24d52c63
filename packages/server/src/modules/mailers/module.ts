import type { ServerModule } from '../module.js';

export const mailersModule: ServerModule = {
  name: 'mailers',
  routes: () => {},
};
