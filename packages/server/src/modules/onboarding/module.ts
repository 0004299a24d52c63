import type { ServerModule } from '../module.js';

export const onboardingModule: ServerModule = {
  name: 'onboarding',
  routes: () => {},
};
