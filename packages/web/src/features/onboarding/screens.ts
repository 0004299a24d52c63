import type { ScreenLoaders } from '../../app/screen-loader.js';

/** Screens of the onboarding module (screen ids of the domain route table: onboarding). */
export const onboardingScreens: ScreenLoaders = {
  onboarding: () => import('./onboarding-page.js').then((m) => m.OnboardingPage),
};
