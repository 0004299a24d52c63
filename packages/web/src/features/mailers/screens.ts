import type { ScreenLoaders } from '../../app/screen-loader.js';

/** Screens of the mailers module (screen ids of the domain route table: mailers). */
export const mailersScreens: ScreenLoaders = {
  mailers: () => import('./mailers-page.js').then((m) => m.MailersPage),
};
