import { describe, expect, it } from 'vitest';
import { decideRoute, GUEST_LANDING, landingPage, resolveRoute, type Principal } from './guard.js';
import type { Rule } from './subjects.js';

/**
 * Guests (DECISIONS): a self-registered guest reports observations and follows its own reports. The
 * web offers it those screens only, whatever its role holds; the server refuses the rest as well.
 */

/** The Guest system role's rules: report and read observations and incidents. */
const GUEST_RULES: Rule[] = [
  { subject: 'Observation', actions: ['read', 'create'] },
  { subject: 'Incident', actions: ['read', 'create'] },
];

const who = (over: Partial<Principal> = {}, rules: Rule[] = GUEST_RULES): Principal => ({
  access: { rules, isPlatformAdmin: false, memExhausted: false, subscriptionType: 'free_trial' },
  isAdmin: false,
  canIssuePermit: false,
  onboardingPending: false,
  hiraV2Allowed: false,
  isGuest: true,
  ...over,
});

const HOST = 'demo.bulwark.test';
const GUEST = who();

describe('a guest in the web app', () => {
  it('lands on the report form, though its role reads incidents (which opens the dashboard to members)', () => {
    expect(landingPage(GUEST)).toBe(GUEST_LANDING);
    expect(resolveRoute('/', GUEST, HOST)).toBe(GUEST_LANDING);
    // The same rules held by a member (a role that happens to be called Guest) open the dashboard.
    expect(landingPage(who({ isGuest: false }))).toBe('/');
  });

  it.each(['/observations/new', '/observations/mine', '/observations/summary/0190-a', '/myaccount', '/notification', '/logout'])(
    'may open %s',
    (path) => {
      expect(decideRoute(path, GUEST, HOST).kind).toBe('allow');
    },
  );

  it.each([
    '/',
    '/observations/edit/0190-a',
    '/observations/0190-a/report',
    '/actions/all',
    '/safety-interactions',
    '/si-dashboard',
    '/users',
    '/sites',
    '/subscriptions',
    '/pricing',
    '/onboarding',
  ])('is sent from %s to the report form', (path) => {
    expect(decideRoute(path, GUEST, HOST)).toEqual({ kind: 'redirect', to: GUEST_LANDING });
  });

  it('is not held by a pending onboarding of the organisation', () => {
    expect(decideRoute('/observations/new', who({ onboardingPending: true }), HOST).kind).toBe('allow');
  });

  it('without the right to report ends on "no permissions", not in a loop', () => {
    expect(resolveRoute('/', who({}, []), HOST)).toBe('/no_permissions');
    expect(resolveRoute('/users', who({}, [{ subject: 'Incident', actions: ['read'] }]), HOST)).toBe('/no_permissions');
  });

  it('signed in, is sent from the sign-in page to the report form', () => {
    expect(resolveRoute('/login', GUEST, HOST)).toBe(GUEST_LANDING);
  });
});
