import type { ScreenLoader } from '../../app/screens.js';

/** Screens of the users module (screen ids of the domain route table: users userProfile userPermission newusers). */
export const usersScreens: Record<string, ScreenLoader> = {};
