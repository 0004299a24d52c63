import type { ScreenLoaders } from '../../app/screen-loader.js';

/** The home (`/`) and the page that says which screen was refused and whom to ask. */
export const homeScreens: ScreenLoaders = {
  dashboard: () => import('./home-page.js').then((m) => m.HomePage),
  noPermissions: () => import('./no-permission-page.js').then((m) => m.NoPermissionPage),
};
