import type { ServerModule } from '../module.js';

export const registrationModule: ServerModule = {
  name: 'registration',
  routes: () => {},
};
