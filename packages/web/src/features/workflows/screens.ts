import type { ScreenLoader } from '../../app/screens.js';

/** Screens of the workflows module (screen ids of the domain route table: workflows). */
export const workflowsScreens: Record<string, ScreenLoader> = {
  workflows: () => import('./workflows-page.js').then((m) => m.WorkflowsPage),
};
