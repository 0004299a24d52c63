import type { ScreenLoader } from '../../app/screens.js';

/**
 * Screens of the registration module (screen ids of the domain route table). guestUserCreation is not
 * built: see the module's report — the spec only names the route.
 */
export const registrationScreens: Record<string, ScreenLoader> = {
  registration: () => import('./signup-page.js').then((m) => m.SignUpPage),
  getStarted: () => import('./signup-page.js').then((m) => m.SignUpPage),
  organizationVerify: () => import('./verify-page.js').then((m) => m.VerifyPage),
  thankyou: () => import('./thankyou-page.js').then((m) => m.ThankYouPage),
  extendRequests: () => import('./extend-requests-page.js').then((m) => m.ExtendRequestsPage),
};
