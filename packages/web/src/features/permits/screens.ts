import type { ScreenLoaders } from '../../app/screen-loader.js';

/** Screens of the permits module (screen ids of the domain route table). */
export const permitsScreens: ScreenLoaders = {
  permits: () => import('./permits-page.js').then((m) => m.PermitsPage),
  permitForms: () => import('./templates-page.js').then((m) => m.PermitFormsPage),
  permitTypeSelect: () => import('./type-select-page.js').then((m) => m.PermitTypeSelectPage),
  permitRequest: () => import('./request-page.js').then((m) => m.PermitRequestPage),
  permitSummary: () => import('./permit-summary-page.js').then((m) => m.PermitSummaryPage),
  permitBoard: () => import('./board-page.js').then((m) => m.PermitBoardPage),
  workerProfile: () => import('./workers-page.js').then((m) => m.WorkersPage),
  hierarchyOfControls: () => import('./masters-page.js').then((m) => m.HierarchyOfControlsPage),
  activityMasters: () => import('./masters-page.js').then((m) => m.ActivityMastersPage),
  equipmentMaster: () => import('./masters-page.js').then((m) => m.EquipmentMasterPage),
  rescueMaster: () => import('./masters-page.js').then((m) => m.RescueMasterPage),
  // Signed out, by an unguessable token: a wall screen's board link and a printed permit's status page.
  permitBoardLive: () => import('./public-pages.js').then((m) => m.PublicBoardPage),
  permitStatus: () => import('./public-pages.js').then((m) => m.PermitStatusPage),
};
