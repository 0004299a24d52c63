import { can, hasAnyRight, type AccessContext } from './can.js';
import { matchPath, type Params } from './match.js';
import { ROUTES, type RouteDef } from './routes.js';
import type { Subject } from './subjects.js';

/** Who is asking for a screen. A signed-out visitor is `null`. */
export type Principal = {
  access: AccessContext;
  isAdmin: boolean;
  canIssuePermit: boolean;
  onboardingPending: boolean;
  /** Whether this user is on the configured /hira_v2 allow-list (decided by the server). */
  hiraV2Allowed: boolean;
};

export type RouteDecision = { kind: 'allow'; route: RouteDef; params: Params } | { kind: 'redirect'; to: string };

/** Landing order of spec 000 §6: later readable entries override earlier ones. */
const LANDING_ORDER: Array<[Subject, string]> = [
  ['User', '/users'],
  ['Site', '/sites'],
  ['Role', '/roles'],
  ['WorkFlow', '/workflows'],
  ['Category', '/categories'],
  ['RC Master', '/whyanalysis'],
  ['Audit Template', '/audit-forms'],
  ['Permit Form Setting', '/permit-forms'],
  ['Permit', '/permits'],
  ['HIRA', '/hira'],
  ['Library', '/library'],
];

/** Modules outside the landing list that still give a user somewhere to work. */
const FALLBACK_ORDER: Array<[Subject, string]> = [
  ['Observation', '/observations/new'],
  ['Action', '/actions/new'],
];

const ALWAYS_DURING_ONBOARDING = ['/logout', '/login', '/onboarding'];

export function passesGeneralGate(p: Principal): boolean {
  return (['Incident', 'Permit', 'Audit'] as const).some((s) => can(p.access, s, 'read'));
}

/** Where a user goes after signing in, or when a screen turns them away (spec 000 §2, §6). */
export function landingPage(p: Principal): string {
  if (p.access.isPlatformAdmin) return '/organizations';
  if (!hasAnyRight(p.access)) return '/no_permissions';
  if (p.onboardingPending) return '/onboarding';
  if (passesGeneralGate(p)) return '/';
  let landing: string | null = null;
  for (const [subject, path] of LANDING_ORDER) if (can(p.access, subject, 'read')) landing = path;
  if (landing) return landing;
  for (const [subject, path] of FALLBACK_ORDER) if (can(p.access, subject, 'read')) return path;
  return '/no_permissions';
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
  if (principal.onboardingPending && !principal.access.isPlatformAdmin && !ALWAYS_DURING_ONBOARDING.includes(path)) {
    return { kind: 'redirect', to: '/onboarding' };
  }

  const { route } = found;
  const deny = (to: string): RouteDecision => ({ kind: 'redirect', to });
  const turnAway = (): RouteDecision => {
    const landing = landingPage(principal);
    if (landing === '/no_permissions' || landing === path) return deny('/no_permissions');
    return deny(`${landing}?redirected=${encodeURIComponent(path)}`);
  };
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
      return principal.isAdmin && !principal.access.isPlatformAdmin ? allowOrForward(found) : deny(guard.fallback);
    case 'platform':
      return principal.access.isPlatformAdmin ? allowOrForward(found) : deny('/');
    case 'dashboard':
      if (principal.access.isPlatformAdmin) return deny('/organizations');
      return passesGeneralGate(principal) ? allowOrForward(found) : turnAway();
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
