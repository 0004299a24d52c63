import type { ScreenLoaders } from '../../app/screen-loader.js';

/** Screens of the settings module (screen ids of the domain route table: kpiSettings ehsOcp emailsubscription). */
export const settingsScreens: ScreenLoaders = {
  kpiSettings: () => import('./kpi-settings-page.js').then((m) => m.KpiSettingsPage),
  ehsOcp: () => import('./ehs-ocp-page.js').then((m) => m.EhsOcpPage),
  emailsubscription: () => import('./email-subscriptions-page.js').then((m) => m.EmailSubscriptionsPage),
};
