import type { ScreenLoaders } from '../../app/screen-loader.js';

/** Screens of the sites module (screen ids of the domain route table: sites divisions manpower). */
export const sitesScreens: ScreenLoaders = {
  sites: () => import('./sites-page.js').then((m) => m.SitesPage),
  divisions: () => import('./divisions-page.js').then((m) => m.DivisionsPage),
  manpower: () => import('./manpower-page.js').then((m) => m.ManpowerPage),
};
