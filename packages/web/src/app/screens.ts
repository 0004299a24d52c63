import type { ComponentType } from 'react';

type ScreenLoader = () => Promise<ComponentType>;

/**
 * Screens with their own page. Every other screen id of the domain route table renders the module
 * page, which names the module and says it is not installed in this release.
 */
const SCREENS: Record<string, ScreenLoader> = {
  login: () => import('../features/auth/login-page.js').then((m) => m.LoginPage),
  passwordReset: () => import('../features/auth/password-reset-page.js').then((m) => m.PasswordResetPage),
  logout: () => import('../features/auth/logout-page.js').then((m) => m.LogoutPage),
  resetSession: () => import('../features/auth/reset-session-page.js').then((m) => m.ResetSessionPage),
  sessionexpire: () => import('../features/auth/session-expired-page.js').then((m) => m.SessionExpiredPage),
  noPermissions: () => import('../features/pages/no-permissions-page.js').then((m) => m.NoPermissionsPage),
  notFound: () => import('../features/pages/not-found-page.js').then((m) => m.NotFoundPage),
  pricing: () => import('../features/pages/pricing-page.js').then((m) => m.PricingPage),
  myaccount: () => import('../features/account/my-account-page.js').then((m) => m.MyAccountPage),
  notification: () => import('../features/notifications/notifications-page.js').then((m) => m.NotificationsPage),
};

const modulePage: ScreenLoader = () => import('../features/pages/module-page.js').then((m) => m.ModulePage);

export function screenLoader(screen: string): ScreenLoader {
  return SCREENS[screen] ?? modulePage;
}

/** Screens shown without the signed-in shell (no menu): signed-out pages and the session transitions. */
export function isBareScreen(screen: string, guardKind: string): boolean {
  return guardKind === 'public' || guardKind === 'appHostOnly' || screen === 'logout' || screen === 'resetSession';
}
