import type { ScreenLoader } from '../../app/screens.js';

/** Screens of the categories module (screen ids of the domain route table: categories subCategories whyanalysis). */
export const categoriesScreens: Record<string, ScreenLoader> = {};
