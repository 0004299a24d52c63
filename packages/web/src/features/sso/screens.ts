import type { ScreenLoader } from '../../app/screens.js';

/** Screens of the sso module (screen ids of the domain route table: sso ssoConfigs). */
export const ssoScreens: Record<string, ScreenLoader> = {
  sso: () => import('./sso-page.js').then((m) => m.SsoPage),
  ssoConfigs: () => import('./sso-configs-page.js').then((m) => m.SsoConfigsPage),
};
