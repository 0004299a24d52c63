import { filesModule } from '../platform/storage/module.js';
import { actionsModule } from './actions/module.js';
import { apiTokensModule } from './api-tokens/module.js';
import { dataExportModule } from './data-export/module.js';
import { listExportsModule } from './list-exports/module.js';
import { webhooksModule } from './webhooks/module.js';
import { auditsModule } from './audits/module.js';
import { categoriesModule } from './categories/module.js';
import { guestsModule } from './guests/module.js';
import { homeModule } from './home/module.js';
import { incidentsModule } from './incidents/module.js';
import { mailersModule } from './mailers/module.js';
import type { ServerModule } from './module.js';
import { notificationsModule } from './notifications/module.js';
import { observationsModule } from './observations/module.js';
import { onboardingModule } from './onboarding/module.js';
import { permitsModule } from './permits/module.js';
import { organizationsModule } from './organizations/module.js';
import { registrationModule } from './registration/module.js';
import { rolesModule } from './roles/module.js';
import { safetyInteractionsModule } from './safety-interactions/module.js';
import { sessionModule } from './session/module.js';
import { settingsModule } from './settings/module.js';
import { sitesModule } from './sites/module.js';
import { ssoModule } from './sso/module.js';
import { toursModule } from './tours/module.js';
import { usersModule } from './users/module.js';
import { workflowsModule } from './workflows/module.js';

/** Every domain module the app serves, in registration order. */
export const MODULES: readonly ServerModule[] = [
  sessionModule,
  notificationsModule,
  organizationsModule,
  filesModule,
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
  incidentsModule,
  auditsModule,
  permitsModule,
  actionsModule,
  safetyInteractionsModule,
  toursModule,
  homeModule,
  apiTokensModule,
  webhooksModule,
  dataExportModule,
  listExportsModule,
];
