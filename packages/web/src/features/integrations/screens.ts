import type { ScreenLoaders } from '../../app/screen-loader.js';

/** Screens of the integrations feature (screen ids of the domain route table: integrations). */
export const integrationsScreens: ScreenLoaders = {
  integrations: () => import('./integrations-page.js').then((m) => m.IntegrationsPage),
};
