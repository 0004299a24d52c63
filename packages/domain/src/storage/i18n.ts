import { defineMessages } from '../i18n/define.js';

/** Texts of the storage module in the four languages (namespace `storage`). */
export const storageMessages = defineMessages({
  en: {
    title: 'Storage',
  },
  es: {
    title: 'Storage',
  },
  tr: {
    title: 'Storage',
  },
  zh: {
    title: 'Storage',
  },
});
