import type { ScreenLoader } from '../../app/screens.js';

/** Screens of the categories module (screen ids of the domain route table: categories subCategories whyanalysis). */
export const categoriesScreens: Record<string, ScreenLoader> = {
  categories: () => import('./categories-page.js').then((m) => m.CategoriesPage),
  subCategories: () => import('./sub-categories-page.js').then((m) => m.SubCategoriesPage),
  whyanalysis: () => import('./why-analysis-page.js').then((m) => m.WhyAnalysisPage),
};
