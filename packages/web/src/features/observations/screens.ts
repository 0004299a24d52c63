import type { ScreenLoaders } from '../../app/screen-loader.js';

/** Screens of the observations module (screen ids of the domain route table). */
export const observationsScreens: ScreenLoaders = {
  observations: () => import('./observations-page.js').then((m) => m.ObservationsPage),
  observationReport: () => import('./report-page.js').then((m) => m.ObservationReportPage),
  // The signed-out /observation route: a guest reports to the organisation of the sub-domain.
  observation: () => import('./guest-report-page.js').then((m) => m.GuestReportPage),
};
