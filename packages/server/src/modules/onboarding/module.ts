import type { ServerModule } from '../module.js';
import { onboardingRoutes } from './routes.js';

export const onboardingModule: ServerModule = {
  name: 'onboarding',
  routes: (r, deps) => onboardingRoutes(r.app, deps),
};
