import type { ScreenLoaders } from '../../app/screen-loader.js';

/** Screens of the safety interactions module (screen ids of the domain route table). */
export const safetyInteractionsScreens: ScreenLoaders = {
  siDashboard: () => import('./si-dashboard.js').then((m) => m.SiDashboard),
  safetyInteractions: () => import('./si-page.js').then((m) => m.SafetyInteractionsPage),
};
