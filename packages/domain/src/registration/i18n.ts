import { defineMessages } from '../i18n/define.js';

/** Texts of the registration module in the four languages (namespace `registration`). */
export const registrationMessages = defineMessages({
  en: {
    title: 'Registration',
  },
  es: {
    title: 'Registration',
  },
  tr: {
    title: 'Registration',
  },
  zh: {
    title: 'Registration',
  },
});
