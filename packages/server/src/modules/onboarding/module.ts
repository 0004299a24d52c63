import type { ServerModule } from '../module.js';
import { onboardingRoutes } from './routes.js';

export const onboardingModule: ServerModule = {
  name: 'onboarding',
  routes: onboardingRoutes,
};
