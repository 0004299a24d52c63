import { defineMessages } from '../i18n/define.js';

/** Texts of the categories module in the four languages (namespace `categories`). */
export const categoriesMessages = defineMessages({
  en: {
    title: 'Categories',
  },
  es: {
    title: 'Categories',
  },
  tr: {
    title: 'Categories',
  },
  zh: {
    title: 'Categories',
  },
});
