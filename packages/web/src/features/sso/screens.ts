import type { ScreenLoader } from '../../app/screens.js';

/** Screens of the sso module (screen ids of the domain route table: sso ssoConfigs). */
export const ssoScreens: Record<string, ScreenLoader> = {};
