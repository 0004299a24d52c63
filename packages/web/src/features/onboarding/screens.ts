import type { ScreenLoader } from '../../app/screens.js';

/** Screens of the onboarding module (screen ids of the domain route table: onboarding). */
export const onboardingScreens: Record<string, ScreenLoader> = {
  onboarding: () => import('./onboarding-page.js').then((m) => m.OnboardingPage),
};
