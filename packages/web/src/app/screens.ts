import type { ScreenId } from '@bulwark/domain';
import type { ScreenLoader, ScreenLoaders } from './screen-loader.js';
import { actionsScreens } from '../features/actions/screens.js';
import { auditsScreens } from '../features/audits/screens.js';
import { categoriesScreens } from '../features/categories/screens.js';
import { homeScreens } from '../features/home/screens.js';
import { incidentsScreens } from '../features/incidents/screens.js';
import { integrationsScreens } from '../features/integrations/screens.js';
import { mailersScreens } from '../features/mailers/screens.js';
import { observationsScreens } from '../features/observations/screens.js';
import { permitsScreens } from '../features/permits/screens.js';
import { onboardingScreens } from '../features/onboarding/screens.js';
import { registrationScreens } from '../features/registration/screens.js';
import { rolesScreens } from '../features/roles/screens.js';
import { safetyInteractionsScreens } from '../features/safety-interactions/screens.js';
import { settingsScreens } from '../features/settings/screens.js';
import { sitesScreens } from '../features/sites/screens.js';
import { ssoScreens } from '../features/sso/screens.js';
import { storageScreens } from '../features/storage/screens.js';
import { usersScreens } from '../features/users/screens.js';
import { workflowsScreens } from '../features/workflows/screens.js';

/**
 * Screens with their own page. Every other screen id of the domain route table renders the module
 * page, which names the module and says it is not installed in this release.
 */
const CORE_SCREENS: ScreenLoaders = {
  login: () => import('../features/auth/login-page.js').then((m) => m.LoginPage),
  passwordReset: () => import('../features/auth/password-reset-page.js').then((m) => m.PasswordResetPage),
  logout: () => import('../features/auth/logout-page.js').then((m) => m.LogoutPage),
  resetSession: () => import('../features/auth/reset-session-page.js').then((m) => m.ResetSessionPage),
  sessionexpire: () => import('../features/auth/session-expired-page.js').then((m) => m.SessionExpiredPage),
  notFound: () => import('../ui/pages/not-found-page.js').then((m) => m.NotFoundPage),
  pricing: () => import('../ui/pages/pricing-page.js').then((m) => m.PricingPage),
  myaccount: () => import('../features/account/my-account-page.js').then((m) => m.MyAccountPage),
  notification: () => import('../features/notifications/notifications-page.js').then((m) => m.NotificationsPage),
};

/** Each module's screens; a module adds its line here and nothing else changes. */
const SCREENS: ScreenLoaders = {
  ...CORE_SCREENS,
  ...homeScreens,
  ...registrationScreens,
  ...onboardingScreens,
  ...sitesScreens,
  ...usersScreens,
  ...rolesScreens,
  ...categoriesScreens,
  ...workflowsScreens,
  ...settingsScreens,
  ...mailersScreens,
  ...ssoScreens,
  ...storageScreens,
  ...integrationsScreens,
  ...observationsScreens,
  ...permitsScreens,
  ...incidentsScreens,
  ...auditsScreens,
  ...actionsScreens,
  ...safetyInteractionsScreens,
};

const modulePage: ScreenLoader = () => import('../ui/pages/module-page.js').then((m) => m.ModulePage);

/** Whether this release has built the screen (it has a page of its own): the menu lists only those. */
export function hasOwnScreen(screen: string): boolean {
  return Object.hasOwn(SCREENS, screen);
}

export function screenLoader(screen: ScreenId): ScreenLoader {
  return SCREENS[screen] ?? modulePage;
}

/** Screens shown without the signed-in shell (no menu): signed-out pages and the session transitions. */
export function isBareScreen(screen: ScreenId, guardKind: string): boolean {
  return guardKind === 'public' || guardKind === 'appHostOnly' || screen === 'logout' || screen === 'resetSession';
}
