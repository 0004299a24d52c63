import { defineMessages } from '../i18n/define.js';

/** Texts of the sites module in the four languages (namespace `sites`). */
export const sitesMessages = defineMessages({
  en: {
    title: 'Sites',
  },
  es: {
    title: 'Sites',
  },
  tr: {
    title: 'Sites',
  },
  zh: {
    title: 'Sites',
  },
});
