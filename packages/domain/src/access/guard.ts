import { can, hasAnyRight, type AccessContext } from './can.js';
import { matchPath, type Params } from './match.js';
import { ROUTES, type RouteDef } from './routes.js';

/** Who is asking for a screen. A signed-out visitor is `null`. */
export type Principal = {
  access: AccessContext;
  isAdmin: boolean;
  canIssuePermit: boolean;
  onboardingPending: boolean;
  /** Whether this user is on the configured /hira_v2 allow-list (decided by the server). */
  hiraV2Allowed: boolean;
  /** A self-registered guest (DECISIONS): it reports and follows its own reports, nothing else. */
  isGuest?: boolean;
};

export type RouteDecision = { kind: 'allow'; route: RouteDef; params: Params } | { kind: 'redirect'; to: string };

const ALWAYS_DURING_ONBOARDING = ['/logout', '/login', '/onboarding'];

/** Where a guest lands: the report form, with its own reports beside it. */
export const GUEST_LANDING = '/observations/new';

/**
 * The screens a guest may open (route patterns), besides the public ones: the report form, its own
 * reports, its account (password, language) and signing out. The server refuses a guest everything
 * else too (EndpointDef.guests); this keeps the web from offering it.
 */
const GUEST_SCREENS: ReadonlySet<string> = new Set([
  '/observations',
  '/observations/new',
  '/observations/mine',
  '/observations/summary/:id/:tab?',
  '/myaccount',
  '/notification',
  '/logout',
  '/not_found',
  '/no_permissions',
]);

export function passesGeneralGate(p: Principal): boolean {
  return (['Incident', 'Permit', 'Audit'] as const).some((s) => can(p.access, s, 'read'));
}

/**
 * Where a user goes after signing in, or when a screen turns them away. Issue 15 overrides the landing
 * order of spec 000 §6: the home (`/`) is the landing page of everyone who may read anything, since it
 * shows each person their own work; the spec's other targets stay (platform, guests, no rights, onboarding).
 */
export function landingPage(p: Principal): string {
  if (p.access.isPlatformAdmin) return '/organizations';
  if (p.isGuest) return GUEST_LANDING;
  if (!hasAnyRight(p.access)) return '/no_permissions';
  if (p.onboardingPending) return '/onboarding';
  return '/';
}

/** The no-permission page naming the screen that was refused, so it can say what and whom to ask. */
export function noPermissionPath(screen: string): string {
  return `/no_permissions?screen=${encodeURIComponent(screen)}`;
}

export function findRoute(pathname: string): { route: RouteDef; params: Params } | null {
  for (const route of ROUTES) {
    const params = matchPath(route.path, pathname);
    if (params) return { route, params };
  }
  return null;
}

/** Hosts on which /organization_verify may open: the app, lvh and 192.x hosts (spec 000 §2). */
export function isAppHost(host: string): boolean {
  const name = host.split(':')[0] ?? '';
  return name.startsWith('app.') || name.startsWith('lvh.') || name === 'lvh.me' || name.startsWith('192.');
}

/**
 * Decides one navigation. A redirect is a single hop; the router decides again on the new location.
 * `host` is the browser's host, needed only by the host-restricted route.
 */
export function decideRoute(pathname: string, principal: Principal | null, host = ''): RouteDecision {
  const found = findRoute(pathname);
  const path = normalise(pathname);

  if (!principal) {
    if (found && found.route.guard.kind === 'public') return allowOrForward(found);
    // Signing out must work whatever state the session is in; the page itself ends at /login.
    if (found && found.route.path === '/logout') return allowOrForward(found);
    if (found && found.route.guard.kind === 'appHostOnly') {
      return isAppHost(host) ? allowOrForward(found) : { kind: 'redirect', to: '/' };
    }
    const back = path === '/' || path === '/login' || !found ? '' : `?redirect=${encodeURIComponent(path)}`;
    return { kind: 'redirect', to: `/login${back}` };
  }

  if (!found) return { kind: 'redirect', to: '/not_found' };
  if (principal.isGuest && found.route.guard.kind !== 'public' && !GUEST_SCREENS.has(found.route.path)) {
    return path === GUEST_LANDING ? { kind: 'redirect', to: '/not_found' } : { kind: 'redirect', to: GUEST_LANDING };
  }
  // A guest has no part in the organisation's onboarding: it reports whatever its state.
  if (principal.onboardingPending && !principal.access.isPlatformAdmin && !principal.isGuest && !ALWAYS_DURING_ONBOARDING.includes(path)) {
    return { kind: 'redirect', to: '/onboarding' };
  }

  const { route } = found;
  const deny = (to: string): RouteDecision => ({ kind: 'redirect', to });
  // A screen the rights refuse is not a silent redirect: the no-permission page names it and whom to ask.
  // A guest has nobody to ask for more: it gets the plain page.
  const turnAway = (): RouteDecision =>
    deny(hasAnyRight(principal.access) && !principal.isGuest ? noPermissionPath(route.screen) : '/no_permissions');
  const guard = route.guard;

  switch (guard.kind) {
    case 'public':
      if (path === '/login') return deny(landingPage(principal));
      return allowOrForward(found);
    case 'appHostOnly':
      return isAppHost(host) ? allowOrForward(found) : deny('/');
    case 'signedIn':
      return allowOrForward(found);
    case 'onboarding':
      return principal.onboardingPending ? allowOrForward(found) : deny('/');
    case 'admin':
      if (principal.isAdmin && !principal.access.isPlatformAdmin) return allowOrForward(found);
      // Spec 000 §2 sends the PSRS and MSI settings to their dashboards; every other admin screen is refused by name.
      return guard.fallback === '/' ? turnAway() : deny(guard.fallback);
    case 'platform':
      return principal.access.isPlatformAdmin ? allowOrForward(found) : deny('/');
    case 'dashboard':
      if (principal.access.isPlatformAdmin) return deny('/organizations');
      // The home shows each person their own work: anyone who may read anything has one (issue 15).
      return hasAnyRight(principal.access) ? allowOrForward(found) : deny('/no_permissions');
    case 'read':
      return can(principal.access, guard.subject, 'read') ? allowOrForward(found) : turnAway();
    case 'permits':
      if (principal.access.isPlatformAdmin) return deny('/organizations');
      if (can(principal.access, 'Permit', 'read')) return allowOrForward(found);
      return deny(`/permit-forms?redirect=${encodeURIComponent(path)}`);
    case 'newPermitType':
      return (principal.canIssuePermit || principal.isAdmin) && can(principal.access, 'Permit', 'create')
        ? allowOrForward(found)
        : deny('/');
    case 'permitWrite':
      return can(principal.access, 'Permit', guard.action) ? allowOrForward(found) : turnAway();
    case 'hiraV2':
      return principal.hiraV2Allowed && can(principal.access, 'HIRA', 'read') ? allowOrForward(found) : deny('/');
  }
}

function allowOrForward(found: { route: RouteDef; params: Params }): RouteDecision {
  const { route, params } = found;
  if (route.redirectTo) {
    const to = route.redirectTo.replace(/:(\w+)/g, (_, name: string) => encodeURIComponent(params[name] ?? ''));
    return { kind: 'redirect', to };
  }
  return { kind: 'allow', route, params };
}

function normalise(pathname: string): string {
  const trimmed = pathname.replace(/\/+$/, '');
  return trimmed === '' ? '/' : trimmed;
}

/** Follows redirects to where a navigation finally lands (tests and the post-sign-in choice use it). */
export function resolveRoute(pathname: string, principal: Principal | null, host = ''): string {
  let path = pathname;
  for (let hop = 0; hop < 8; hop++) {
    const d = decideRoute(path.split('?')[0]!, principal, host);
    if (d.kind === 'allow') return path;
    path = d.to;
  }
  throw new Error(`Redirect loop from ${pathname}`);
}
