import type { ScreenLoader } from '../../app/screens.js';

/** Screens of the sites module (screen ids of the domain route table: sites divisions manpower). */
export const sitesScreens: Record<string, ScreenLoader> = {};
