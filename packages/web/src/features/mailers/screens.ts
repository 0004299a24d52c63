import type { ScreenLoader } from '../../app/screens.js';

/** Screens of the mailers module (screen ids of the domain route table: mailers). */
export const mailersScreens: Record<string, ScreenLoader> = {
  mailers: () => import('./mailers-page.js').then((m) => m.MailersPage),
};
