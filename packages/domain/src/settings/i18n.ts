import { defineMessages } from '../i18n/define.js';

/** Texts of the settings module in the four languages (namespace `settings`). */
export const settingsMessages = defineMessages({
  en: {
    title: 'Settings',
  },
  es: {
    title: 'Settings',
  },
  tr: {
    title: 'Settings',
  },
  zh: {
    title: 'Settings',
  },
});
