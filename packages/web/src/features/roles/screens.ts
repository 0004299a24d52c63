import type { ScreenLoaders } from '../../app/screen-loader.js';

/** Screens of the roles module (screen ids of the domain route table: roles). */
export const rolesScreens: ScreenLoaders = {
  roles: () => import('./roles-page.js').then((m) => m.RolesPage),
};
