import { defineMessages } from '../i18n/define.js';

/** Texts of the mailers module in the four languages (namespace `mailers`). */
export const mailersMessages = defineMessages({
  en: {
    title: 'Mailers',
  },
  es: {
    title: 'Mailers',
  },
  tr: {
    title: 'Mailers',
  },
  zh: {
    title: 'Mailers',
  },
});
