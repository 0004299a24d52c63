import type { ScreenLoaders } from '../../app/screen-loader.js';

/** Screens of the incidents module (screen ids of the domain route table). */
export const incidentsScreens: ScreenLoaders = {
  incidents: () => import('./incidents-page.js').then((m) => m.IncidentsPage),
  incidentSteps: () => import('./steps-page.js').then((m) => m.IncidentStepsPage),
  incidentReport: () => import('./report-page.js').then((m) => m.IncidentReportPage),
  incidentsOsha: () => import('./osha-page.js').then((m) => m.OshaPage),
  // The signed-out /incident route: a guest reports to the organisation of the sub-domain.
  incident: () => import('./guest-report-page.js').then((m) => m.IncidentGuestPage),
};
