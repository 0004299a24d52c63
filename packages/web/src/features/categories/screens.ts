import type { ScreenLoaders } from '../../app/screen-loader.js';

/** Screens of the categories module (screen ids of the domain route table: categories subCategories whyanalysis). */
export const categoriesScreens: ScreenLoaders = {
  categories: () => import('./categories-page.js').then((m) => m.CategoriesPage),
  subCategories: () => import('./sub-categories-page.js').then((m) => m.SubCategoriesPage),
  whyanalysis: () => import('./why-analysis-page.js').then((m) => m.WhyAnalysisPage),
};
