import type { ScreenLoader } from '../../app/screens.js';

/** Screens of the safety interactions module (screen ids of the domain route table). */
export const safetyInteractionsScreens: Record<string, ScreenLoader> = {
  siDashboard: () => import('./si-dashboard.js').then((m) => m.SiDashboard),
  safetyInteractions: () => import('./si-page.js').then((m) => m.SafetyInteractionsPage),
};
