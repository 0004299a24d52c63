import { defineMessages } from '../i18n/define.js';

/** Texts of the users module in the four languages (namespace `users`). */
export const usersMessages = defineMessages({
  en: {
    title: 'Users',
  },
  es: {
    title: 'Users',
  },
  tr: {
    title: 'Users',
  },
  zh: {
    title: 'Users',
  },
});
