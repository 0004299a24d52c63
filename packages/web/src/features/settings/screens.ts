import type { ScreenLoader } from '../../app/screens.js';

/** Screens of the settings module (screen ids of the domain route table: kpiSettings ehsOcp emailsubscription). */
export const settingsScreens: Record<string, ScreenLoader> = {
  kpiSettings: () => import('./kpi-settings-page.js').then((m) => m.KpiSettingsPage),
  ehsOcp: () => import('./ehs-ocp-page.js').then((m) => m.EhsOcpPage),
  emailsubscription: () => import('./email-subscriptions-page.js').then((m) => m.EmailSubscriptionsPage),
};
