import { defineMessages } from '../i18n/define.js';

/** Texts of the sso module in the four languages (namespace `sso`). */
export const ssoMessages = defineMessages({
  en: {
    title: 'Sso',
  },
  es: {
    title: 'Sso',
  },
  tr: {
    title: 'Sso',
  },
  zh: {
    title: 'Sso',
  },
});
