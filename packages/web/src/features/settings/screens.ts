import type { ScreenLoader } from '../../app/screens.js';

/** Screens of the settings module (screen ids of the domain route table: kpiSettings ehsOcp emailsubscription). */
export const settingsScreens: Record<string, ScreenLoader> = {};
