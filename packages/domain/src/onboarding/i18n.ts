import { defineMessages } from '../i18n/define.js';

/** Texts of the onboarding module in the four languages (namespace `onboarding`). */
export const onboardingMessages = defineMessages({
  en: {
    title: 'Onboarding',
  },
  es: {
    title: 'Onboarding',
  },
  tr: {
    title: 'Onboarding',
  },
  zh: {
    title: 'Onboarding',
  },
});
