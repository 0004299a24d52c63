import type { ScreenLoader } from '../../app/screens.js';

/** Screens of the sites module (screen ids of the domain route table: sites divisions manpower). */
export const sitesScreens: Record<string, ScreenLoader> = {
  sites: () => import('./sites-page.js').then((m) => m.SitesPage),
  divisions: () => import('./divisions-page.js').then((m) => m.DivisionsPage),
  manpower: () => import('./manpower-page.js').then((m) => m.ManpowerPage),
};
