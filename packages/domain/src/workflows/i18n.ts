import { defineMessages } from '../i18n/define.js';

/** Texts of the workflows module in the four languages (namespace `workflows`). */
export const workflowsMessages = defineMessages({
  en: {
    title: 'Workflows',
  },
  es: {
    title: 'Workflows',
  },
  tr: {
    title: 'Workflows',
  },
  zh: {
    title: 'Workflows',
  },
});
