import { actionsMessages } from '../actions/i18n.js';
import { actionsWebMessages } from '../actions/web-i18n.js';
import { categoriesMessages } from '../categories/i18n.js';
import { mailersMessages } from '../mailers/i18n.js';
import { homeMessages } from '../home/i18n.js';
import { incidentsMessages } from '../incidents/i18n.js';
import { incidentsWebMessages } from '../incidents/web-i18n.js';
import { auditsMessages } from '../audits/i18n.js';
import { auditsWebMessages } from '../audits/web-i18n.js';
import { observationsMessages } from '../observations/i18n.js';
import { permitsMessages } from '../permits/i18n.js';
import { permitsWebMessages } from '../permits/web-i18n.js';
import { observationsWebMessages } from '../observations/web-i18n.js';
import { onboardingMessages } from '../onboarding/i18n.js';
import { registrationMessages } from '../registration/i18n.js';
import { rolesMessages } from '../roles/i18n.js';
import { safetyInteractionsMessages } from '../safety-interactions/i18n.js';
import { settingsMessages } from '../settings/i18n.js';
import { sitesMessages } from '../sites/i18n.js';
import { ssoMessages } from '../sso/i18n.js';
import { storageMessages } from '../storage/i18n.js';
import { usersMessages } from '../users/i18n.js';
import { workflowsMessages } from '../workflows/i18n.js';
import { reviewsMessages } from '../workflows/review-i18n.js';
import { kitMessages } from './kit.js';
import { apiTokensMessages } from '../api-tokens/i18n.js';
import { webhooksMessages } from '../webhooks/i18n.js';
import { dataExportMessages } from '../data-export/i18n.js';
import { listExportMessages } from '../list-exports/i18n.js';

/**
 * Each module's texts under its own namespace (`sites.form.name`). A new module adds its line here;
 * the catalogue test then holds its four languages to the same key set.
 */
export const MODULE_MESSAGES = {
  kit: kitMessages,
  actions: actionsMessages,
  actionsWeb: actionsWebMessages,
  categories: categoriesMessages,
  mailers: mailersMessages,
  home: homeMessages,
  incidents: incidentsMessages,
  incidentsWeb: incidentsWebMessages,
  audits: auditsMessages,
  auditsWeb: auditsWebMessages,
  observations: observationsMessages,
  observationsWeb: observationsWebMessages,
  permits: permitsMessages,
  permitsWeb: permitsWebMessages,
  onboarding: onboardingMessages,
  registration: registrationMessages,
  roles: rolesMessages,
  safetyInteractions: safetyInteractionsMessages,
  settings: settingsMessages,
  sites: sitesMessages,
  sso: ssoMessages,
  storage: storageMessages,
  users: usersMessages,
  workflows: workflowsMessages,
  reviews: reviewsMessages,
  apiTokens: apiTokensMessages,
  webhooks: webhooksMessages,
  dataExport: dataExportMessages,
  listExport: listExportMessages,
};
