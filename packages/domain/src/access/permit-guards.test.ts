import { describe, expect, it } from 'vitest';
import type { AccessContext } from './can.js';
import { decideRoute, type Principal } from './guard.js';
import { ACTIONS, ROLE_SUBJECTS, type Action, type Rule, type Subject } from './subjects.js';

/**
 * The permit screens of spec 000 §2 for every kind of user, one hop at a time: /permits (the platform
 * admin goes to /organizations, a user without Permit read to /permit-forms with the path in the
 * query), the settings screens (Permit Form Setting read), new-permit type selection (can_issue_permit
 * or is_admin, then Permit create; otherwise /), the request and summary screens, the admin-only
 * masters, and, beyond the spec, the live board and the two token pages (public).
 */

const ctx = (rules: readonly Rule[], over: Partial<AccessContext> = {}): AccessContext => ({
  rules,
  isPlatformAdmin: false,
  memExhausted: false,
  subscriptionType: null,
  ...over,
});
const who = (rules: readonly Rule[], over: Partial<Principal> = {}, access: Partial<AccessContext> = {}): Principal => ({
  access: ctx(rules, access),
  isAdmin: false,
  canIssuePermit: false,
  onboardingPending: false,
  hiraV2Allowed: false,
  ...over,
});
const rights = (subject: Subject, actions: readonly Action[]): Rule => ({ subject, actions: [...actions] });
const everything: Rule[] = ROLE_SUBJECTS.map((s) => rights(s, ACTIONS));

const USERS: Record<string, Principal | null> = {
  signedOut: null,
  platform: who([rights('Organization', ['read', 'create', 'update', 'delete'])], {}, { isPlatformAdmin: true }),
  guest: who([rights('Observation', ['read', 'create'])], { isGuest: true }),
  admin: who(everything, { isAdmin: true, canIssuePermit: true }),
  onboarding: who(everything, { isAdmin: true, onboardingPending: true }),
  issuer: who([rights('Permit', ['read', 'create'])], { canIssuePermit: true }),
  requester: who([rights('Permit', ['read', 'create', 'update'])]),
  approver: who([rights('Permit', ['read', 'approve', 'reject'])]),
  setter: who([rights('Permit Form Setting', ['read', 'create', 'update'])]),
  observer: who([rights('Observation', ['read'])]),
  nobody: who([]),
  cancelledAdmin: who(everything, { isAdmin: true, canIssuePermit: true }, { subscriptionType: 'cancelled' }),
};

const PATHS = [
  '/permits',
  '/permit-forms',
  '/permit-forms/8',
  '/worker-profile',
  '/permit-form-questions/new',
  '/permit-form-questions/new/8',
  '/permit-form-questions/edit/8',
  '/permit/8/summary',
  '/permits/board',
  '/hierarchy-of-controls',
  '/activity-masters',
  '/equipment-master',
  '/rescue-master',
  '/permit-board/live/tok',
  '/permit-status/tok',
] as const;

/**
 * Turned away: the guard's own answer for a screen the rights do not open (which page explains it is
 * the guard's; spec 000 §2 names the target only where this table does).
 */
const refused = () => 'refused';
type Row = Record<(typeof PATHS)[number], (path: string) => string>;
const every = (f: (path: string) => string): Row => Object.fromEntries(PATHS.map((p) => [p, f])) as Row;
const allow = () => 'allow';
const to = (target: string) => () => target;
const PUBLIC = { '/permit-board/live/tok': allow, '/permit-status/tok': allow };

/** What each user gets at each path: 'allow', or where they are sent (one hop). */
const EXPECTED: Record<keyof typeof USERS, Row> = {
  signedOut: {
    ...every((path) => `/login?redirect=${encodeURIComponent(path)}`),
    ...PUBLIC,
  },
  platform: {
    '/permits': to('/organizations'),
    '/permit-forms': refused,
    '/permit-forms/8': refused,
    '/worker-profile': refused,
    '/permit-form-questions/new': to('/'),
    '/permit-form-questions/new/8': refused,
    '/permit-form-questions/edit/8': refused,
    '/permit/8/summary': refused,
    '/permits/board': refused,
    '/hierarchy-of-controls': refused,
    '/activity-masters': refused,
    '/equipment-master': refused,
    '/rescue-master': refused,
    ...PUBLIC,
  },
  guest: { ...every(to('/observations/new')), ...PUBLIC },
  admin: every(allow),
  // Spec 000 §2: while onboarding is pending, every path but /logout, /login and /onboarding leads there.
  onboarding: every(to('/onboarding')),
  issuer: {
    '/permits': allow,
    '/permit-forms': refused,
    '/permit-forms/8': refused,
    '/worker-profile': refused,
    '/permit-form-questions/new': allow,
    '/permit-form-questions/new/8': allow,
    '/permit-form-questions/edit/8': refused,
    '/permit/8/summary': allow,
    '/permits/board': allow,
    '/hierarchy-of-controls': refused,
    '/activity-masters': refused,
    '/equipment-master': refused,
    '/rescue-master': refused,
    ...PUBLIC,
  },
  requester: {
    '/permits': allow,
    '/permit-forms': refused,
    '/permit-forms/8': refused,
    '/worker-profile': refused,
    // Permit create without can_issue_permit or is_admin: the type selection sends them to /.
    '/permit-form-questions/new': to('/'),
    '/permit-form-questions/new/8': allow,
    '/permit-form-questions/edit/8': allow,
    '/permit/8/summary': allow,
    '/permits/board': allow,
    '/hierarchy-of-controls': refused,
    '/activity-masters': refused,
    '/equipment-master': refused,
    '/rescue-master': refused,
    ...PUBLIC,
  },
  approver: {
    '/permits': allow,
    '/permit-forms': refused,
    '/permit-forms/8': refused,
    '/worker-profile': refused,
    '/permit-form-questions/new': to('/'),
    '/permit-form-questions/new/8': refused,
    '/permit-form-questions/edit/8': refused,
    '/permit/8/summary': allow,
    '/permits/board': allow,
    '/hierarchy-of-controls': refused,
    '/activity-masters': refused,
    '/equipment-master': refused,
    '/rescue-master': refused,
    ...PUBLIC,
  },
  setter: {
    // No Permit read: to the templates, with the path asked for in the query (spec 000 §2).
    '/permits': (p) => `/permit-forms?redirect=${encodeURIComponent(p)}`,
    '/permit-forms': allow,
    '/permit-forms/8': allow,
    '/worker-profile': allow,
    '/permit-form-questions/new': to('/'),
    '/permit-form-questions/new/8': refused,
    '/permit-form-questions/edit/8': refused,
    '/permit/8/summary': refused,
    '/permits/board': refused,
    '/hierarchy-of-controls': refused,
    '/activity-masters': refused,
    '/equipment-master': refused,
    '/rescue-master': refused,
    ...PUBLIC,
  },
  observer: {
    '/permits': (p) => `/permit-forms?redirect=${encodeURIComponent(p)}`,
    '/permit-forms': refused,
    '/permit-forms/8': refused,
    '/worker-profile': refused,
    '/permit-form-questions/new': to('/'),
    '/permit-form-questions/new/8': refused,
    '/permit-form-questions/edit/8': refused,
    '/permit/8/summary': refused,
    '/permits/board': refused,
    '/hierarchy-of-controls': refused,
    '/activity-masters': refused,
    '/equipment-master': refused,
    '/rescue-master': refused,
    ...PUBLIC,
  },
  nobody: {
    '/permits': (p) => `/permit-forms?redirect=${encodeURIComponent(p)}`,
    '/permit-forms': refused,
    '/permit-forms/8': refused,
    '/worker-profile': refused,
    '/permit-form-questions/new': to('/'),
    '/permit-form-questions/new/8': refused,
    '/permit-form-questions/edit/8': refused,
    '/permit/8/summary': refused,
    '/permits/board': refused,
    '/hierarchy-of-controls': refused,
    '/activity-masters': refused,
    '/equipment-master': refused,
    '/rescue-master': refused,
    ...PUBLIC,
  },
  // A cancelled subscription blocks Permit create and update (spec 000 §4): reading goes on.
  cancelledAdmin: {
    ...every(allow),
    '/permit-form-questions/new': to('/'),
    '/permit-form-questions/new/8': refused,
    '/permit-form-questions/edit/8': refused,
  },
};

const outcome = (path: string, p: Principal | null, want: string) => {
  const d = decideRoute(path, p, 'demo.bulwark.test');
  if (d.kind === 'allow') return 'allow';
  return want === 'refused' ? 'refused' : d.to;
};

describe('permit screens for every kind of user (spec 000 §2)', () => {
  for (const [name, principal] of Object.entries(USERS)) {
    it(`${name}`, () => {
      const want = Object.fromEntries(PATHS.map((p) => [p, EXPECTED[name]![p](p)]));
      const got = Object.fromEntries(PATHS.map((p) => [p, outcome(p, principal, want[p]!)]));
      expect(got).toEqual(want);
    });
  }
});
