import type { ScreenLoaders } from '../../app/screen-loader.js';

/** Screens of the storage feature (screen ids of the domain route table: storage). */
export const storageScreens: ScreenLoaders = {
  storage: () => import('./storage-page.js').then((m) => m.StoragePage),
};
