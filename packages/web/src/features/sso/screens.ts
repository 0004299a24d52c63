import type { ScreenLoaders } from '../../app/screen-loader.js';

/** Screens of the sso module (screen ids of the domain route table: sso ssoConfigs). */
export const ssoScreens: ScreenLoaders = {
  sso: () => import('./sso-page.js').then((m) => m.SsoPage),
  ssoConfigs: () => import('./sso-configs-page.js').then((m) => m.SsoConfigsPage),
};
