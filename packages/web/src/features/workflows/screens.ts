import type { ScreenLoaders } from '../../app/screen-loader.js';

/** Screens of the workflows module (screen ids of the domain route table: workflows). */
export const workflowsScreens: ScreenLoaders = {
  workflows: () => import('./workflows-page.js').then((m) => m.WorkflowsPage),
};
