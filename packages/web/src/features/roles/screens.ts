import type { ScreenLoader } from '../../app/screens.js';

/** Screens of the roles module (screen ids of the domain route table: roles). */
export const rolesScreens: Record<string, ScreenLoader> = {
  roles: () => import('./roles-page.js').then((m) => m.RolesPage),
};
