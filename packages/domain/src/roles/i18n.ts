import { defineMessages } from '../i18n/define.js';

/** Texts of the roles module in the four languages (namespace `roles`). */
export const rolesMessages = defineMessages({
  en: {
    title: 'Roles',
  },
  es: {
    title: 'Roles',
  },
  tr: {
    title: 'Roles',
  },
  zh: {
    title: 'Roles',
  },
});
