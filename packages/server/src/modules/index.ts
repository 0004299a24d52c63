import { actionsModule } from './actions/module.js';
import { categoriesModule } from './categories/module.js';
import { guestsModule } from './guests/module.js';
import { mailersModule } from './mailers/module.js';
import type { ServerModule } from './module.js';
import { observationsModule } from './observations/module.js';
import { onboardingModule } from './onboarding/module.js';
import { registrationModule } from './registration/module.js';
import { rolesModule } from './roles/module.js';
import { safetyInteractionsModule } from './safety-interactions/module.js';
import { settingsModule } from './settings/module.js';
import { sitesModule } from './sites/module.js';
import { ssoModule } from './sso/module.js';
import { usersModule } from './users/module.js';
import { workflowsModule } from './workflows/module.js';

/** Every domain module the app serves, in registration order. */
export const MODULES: readonly ServerModule[] = [
  registrationModule,
  guestsModule,
  onboardingModule,
  sitesModule,
  usersModule,
  rolesModule,
  categoriesModule,
  workflowsModule,
  settingsModule,
  mailersModule,
  ssoModule,
  observationsModule,
  actionsModule,
  safetyInteractionsModule,
];
