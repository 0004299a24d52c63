import type { ScreenLoader, ScreenLoaders } from '../../app/screen-loader.js';

const page: ScreenLoader = () => import('./actions-page.js').then((m) => m.ActionsPage);

/**
 * Screens of the actions module: the six lists of spec 000 §2 (ACTION_LISTS of the route table). One
 * page serves them all; it reads which list it is from the matched screen id.
 */
export const actionsScreens: ScreenLoaders = {
  actions: page,
  actionsAudits: page,
  actionsObservations: page,
  actionsIncidents: page,
  actionsSafetyInteraction: page,
  actionsAll: page,
};
