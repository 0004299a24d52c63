import type { ScreenLoaders } from '../../app/screen-loader.js';

/** Screens of the registration module (screen ids of the domain route table). */
export const registrationScreens: ScreenLoaders = {
  registration: () => import('./signup-page.js').then((m) => m.SignUpPage),
  getStarted: () => import('./signup-page.js').then((m) => m.SignUpPage),
  organizationVerify: () => import('./verify-page.js').then((m) => m.VerifyPage),
  thankyou: () => import('./thankyou-page.js').then((m) => m.ThankYouPage),
  guestUserCreation: () => import('./guest-page.js').then((m) => m.GuestPage),
  extendRequests: () => import('./extend-requests-page.js').then((m) => m.ExtendRequestsPage),
};
