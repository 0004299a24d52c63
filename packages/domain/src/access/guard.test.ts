import { describe, expect, it } from 'vitest';
import { ACTION_SOURCE_ACCESS } from '../actions/api.js';
import type { Access } from '../api/contract.js';
import type { AccessContext } from './can.js';
import { decideRoute, findRoute, isAppHost, landingPage, resolveRoute, type Principal, type RouteDecision } from './guard.js';
import { PUBLIC_PATHS, ROUTES, SCREEN_IDS } from './routes.js';
import { ACTIONS, ROLE_SUBJECTS, type Rule, type Subject } from './subjects.js';

// ---------------------------------------------------------------------------------------------
// Principals
// ---------------------------------------------------------------------------------------------

const access = (rules: readonly Rule[], over: Partial<AccessContext> = {}): AccessContext => ({
  rules,
  isPlatformAdmin: false,
  memExhausted: false,
  subscriptionType: null,
  ...over,
});

const principal = (rules: readonly Rule[], over: Partial<Principal> = {}, acc: Partial<AccessContext> = {}): Principal => ({
  access: access(rules, acc),
  isAdmin: false,
  canIssuePermit: false,
  onboardingPending: false,
  hiraV2Allowed: false,
  ...over,
});

const readOnly = (...subjects: Subject[]): Rule[] => subjects.map((subject) => ({ subject, actions: ['read'] }));
const allRights: Rule[] = ROLE_SUBJECTS.map((subject) => ({ subject, actions: [...ACTIONS] }));
const allReadsExcept = (subject: Subject): Rule[] => readOnly(...ROLE_SUBJECTS.filter((s) => s !== subject));

const ADMIN = principal(allRights, { isAdmin: true });
const OBS_INC_READER = principal(readOnly('Observation', 'Incident'));
const NO_RIGHTS = principal([]);
const PLATFORM = principal([{ subject: 'Organization', actions: ['read', 'create', 'update', 'delete'] }], {}, { isPlatformAdmin: true });
const ONBOARDING = principal(allRights, { onboardingPending: true });
const HIRA_V2_WITH_READ = principal(readOnly('HIRA'), { hiraV2Allowed: true });
const HIRA_V2_WITHOUT_READ = principal(readOnly('Observation', 'Incident'), { hiraV2Allowed: true });
const PERMIT_ISSUER = principal([{ subject: 'Permit', actions: ['read', 'create'] }], { canIssuePermit: true });
const PERMIT_FORM_SETTING_READER = principal(readOnly('Permit Form Setting'));
const SIGNED_OUT = null;

const APP_HOST = 'app.bulwark.test';
const TENANT_HOST = 'demo.bulwark.test';

const decide = (path: string, who: Principal | null, host = TENANT_HOST): RouteDecision => decideRoute(path, who, host);
const redirectTarget = (d: RouteDecision): string | null => (d.kind === 'redirect' ? d.to : null);
const pathOf = (url: string): string => url.split('?')[0] ?? url;
/** The decoded query parameters of a redirect target (the domain lib has no URLSearchParams). */
const queryOf = (url: string): Map<string, string> =>
  new Map(
    (url.split('?')[1] ?? '')
      .split('&')
      .filter((pair) => pair.length > 0)
      .map((pair): [string, string] => {
        const [k = '', v = ''] = pair.split('=');
        return [decodeURIComponent(k), decodeURIComponent(v)];
      }),
  );

function expectAllowed(path: string, who: Principal | null, host = TENANT_HOST): void {
  const d = decide(path, who, host);
  expect(d, `${path} should be allowed`).toMatchObject({ kind: 'allow' });
}

function expectRedirect(path: string, who: Principal | null, to: string, host = TENANT_HOST): void {
  expect(redirectTarget(decide(path, who, host)), `${path} should redirect to ${to}`).toBe(to);
}

/** A concrete, deep path of each kind of module screen, for the "everything else" checks. */
const SIGNED_IN_SAMPLES = [
  '/',
  '/logout',
  '/reset-session',
  '/sso_configs',
  '/success',
  '/newusers',
  '/myaccount',
  '/pricing_upgrade',
  '/emailsubscription',
  '/notification',
  '/reports',
  '/subscriptions',
  '/not_found',
  '/no_permissions',
  '/permits',
  '/organizations',
  '/domains_control',
  '/mailers/observation/4/scenario/9',
  '/sites/edit/3',
  '/users/7/permission',
  '/categories/new',
  '/whyanalysis/2/list',
  '/library/view/5',
  '/permit-forms/8',
  '/permit-form-questions/new',
  '/observations/summary/12/actions',
  '/incidents/12/steps/step5',
  '/actions/all/summary/3/details',
  '/audits/5/audit/2',
  '/audit-forms/1',
  '/hira/edit/4',
  '/hira_v2/new',
  '/psrs-settings',
  '/msi-settings/3',
  '/safety-interactions/new',
  '/si-dashboard',
];

// ---------------------------------------------------------------------------------------------
// Signed out
// ---------------------------------------------------------------------------------------------

describe('signed out (spec 000 §2 "Reachable when signed out")', () => {
  const SPEC_PUBLIC = [
    '/by_pass_client_admin',
    '/password-reset',
    '/login',
    '/thankyou',
    '/observation',
    '/incident',
    '/sso',
    '/get-started',
    '/buynow',
    '/registration',
    '/web',
    '/sessionexpire',
    '/organization_verify',
    '/guest_user_creation',
  ];

  it('every public path has a route that admits anyone', () => {
    for (const path of PUBLIC_PATHS.filter((p) => p !== '/organization_verify')) {
      expect(ROUTES.find((r) => r.path === path)?.guard.kind, path).toBe('public');
    }
  });

  it('every screen id names the screen of at least one route', () => {
    const used = new Set(ROUTES.map((r) => r.screen));
    expect(SCREEN_IDS.filter((id) => !used.has(id))).toEqual([]);
  });

  it('the exported public list is exactly the spec list', () => {
    expect([...PUBLIC_PATHS].sort()).toEqual([...SPEC_PUBLIC].sort());
  });

  it.each(SPEC_PUBLIC.filter((p) => p !== '/organization_verify'))('%s is reachable signed out', (path) => {
    expectAllowed(path, SIGNED_OUT);
    expect(resolveRoute(path, SIGNED_OUT, TENANT_HOST)).toBe(path);
  });

  it('/logout opens signed out too, so signing out works from any state (its page ends at /login)', () => {
    expect(decide('/logout', SIGNED_OUT).kind).toBe('allow');
  });

  it.each(SIGNED_IN_SAMPLES.filter((p) => p !== '/logout'))('%s redirects to /login', (path) => {
    const to = redirectTarget(decide(path, SIGNED_OUT));
    expect(to).not.toBeNull();
    expect(pathOf(to ?? '')).toBe('/login');
    expect(pathOf(resolveRoute(path, SIGNED_OUT, TENANT_HOST))).toBe('/login');
  });

  it.each(['/no-such-page', '/incidents/1/2/3/4/5', '/observationz'])('unknown path %s redirects to /login', (path) => {
    expect(pathOf(redirectTarget(decide(path, SIGNED_OUT)) ?? '')).toBe('/login');
  });
});

describe('/organization_verify opens only on the app, lvh and 192 hosts (spec 000 §2)', () => {
  const OK_HOSTS = ['app.bulwark.test', 'app.bulwark.test:8443', 'lvh.me', 'lvh.me:3000', '192.168.1.20', '192.168.1.20:5173'];
  const OTHER_HOSTS = ['demo.bulwark.test', 'bulwark.test', 'localhost', 'localhost:5173', '10.0.0.5', 'www.bulwark.test'];

  it.each(OK_HOSTS)('%s: reachable signed out and signed in', (host) => {
    expect(isAppHost(host)).toBe(true);
    expectAllowed('/organization_verify', SIGNED_OUT, host);
    expectAllowed('/organization_verify', ADMIN, host);
  });

  it.each(OTHER_HOSTS)('%s: goes to /', (host) => {
    expect(isAppHost(host)).toBe(false);
    expectRedirect('/organization_verify', SIGNED_OUT, '/', host);
    expectRedirect('/organization_verify', ADMIN, '/', host);
  });
});

// ---------------------------------------------------------------------------------------------
// General signed-in rules
// ---------------------------------------------------------------------------------------------

describe('onboarding (spec 000 §2 General)', () => {
  it.each(SIGNED_IN_SAMPLES.filter((p) => p !== '/logout'))('%s is forced to /onboarding while onboarding is pending', (path) => {
    expectRedirect(path, ONBOARDING, '/onboarding');
  });

  it.each(['/some-unknown-page', ...PUBLIC_PATHS.filter((p) => p !== '/login')])(
    '%s ends on /onboarding while onboarding is pending',
    (path) => {
      expect(resolveRoute(path, ONBOARDING, APP_HOST)).toBe('/onboarding');
    },
  );

  it('/logout and /onboarding stay reachable while onboarding is pending', () => {
    expectAllowed('/logout', ONBOARDING);
    expectAllowed('/onboarding', ONBOARDING);
  });

  it('/login is not forced: it sends the signed-in user to the landing page, which is /onboarding', () => {
    const to = redirectTarget(decide('/login', ONBOARDING));
    expect(to).toBe('/onboarding');
  });

  it.each([ADMIN, OBS_INC_READER, NO_RIGHTS])('/onboarding without onboarding pending goes to /', (who) => {
    expectRedirect('/onboarding', who, '/');
  });

  it('a user without onboarding pending is not forced anywhere', () => {
    expectAllowed('/sites', ADMIN);
    expectAllowed('/incidents', OBS_INC_READER);
  });
});

describe('/not_found, /no_permissions and /login (spec 000 §2)', () => {
  it.each(['/no-such-page', '/incidents/1/2/3/4/5', '/sites/edit', '/hira/summary', '/reportz'])(
    'unknown signed-in path %s redirects to /not_found',
    (path) => {
      expectRedirect(path, ADMIN, '/not_found');
      expectRedirect(path, NO_RIGHTS, '/not_found');
    },
  );

  it('/not_found itself is allowed signed in', () => {
    expectAllowed('/not_found', ADMIN);
    expectAllowed('/not_found', NO_RIGHTS);
  });

  it('/no_permissions is allowed signed in and sends a signed-out visitor to /login', () => {
    expectAllowed('/no_permissions', NO_RIGHTS);
    expectAllowed('/no_permissions', ADMIN);
    expect(pathOf(redirectTarget(decide('/no_permissions', SIGNED_OUT)) ?? '')).toBe('/login');
  });

  it.each([
    ['admin', ADMIN, '/'],
    ['Observation+Incident reader', OBS_INC_READER, '/'],
    ['user without rights', NO_RIGHTS, '/no_permissions'],
    ['platform admin', PLATFORM, '/organizations'],
    ['Permit Form Setting reader', PERMIT_FORM_SETTING_READER, '/'],
    ['HIRA reader', HIRA_V2_WITH_READ, '/'],
  ] as const)('/login while signed in as %s goes to the landing page %s', (_, who, landing) => {
    expectRedirect('/login', who, landing);
    expect(landingPage(who)).toBe(landing);
  });

  it.each([['/actions', '/actions/new']])('%s redirects to %s', (from, to) => {
    expectRedirect(from, ADMIN, to);
    expect(resolveRoute(from, ADMIN, TENANT_HOST)).toBe(to);
  });

  it('/observations is the list itself (issue 15: the form opens on demand), for a reader too', () => {
    expectAllowed('/observations', ADMIN);
    expectAllowed('/observations', OBS_INC_READER);
  });
});

describe('the home / : every user who may read anything (issue 15; spec 000 §6 gated it on Incident, Permit or Audit)', () => {
  it.each(['Incident', 'Permit', 'Audit', 'Observation', 'Permit Form Setting', 'User', 'Action'] as const)(
    'read on %s passes',
    (subject) => {
      expectAllowed('/', principal(readOnly(subject)));
    },
  );

  it('any right at all passes, a create without read too', () => {
    expectAllowed('/', principal([{ subject: 'Observation', actions: ['create'] }]));
  });

  it('a user without rights ends on /no_permissions', () => {
    expect(resolveRoute('/', NO_RIGHTS, TENANT_HOST)).toBe('/no_permissions');
  });

  it('the platform admin is sent to /organizations', () => {
    expectRedirect('/', PLATFORM, '/organizations');
  });
});

// ---------------------------------------------------------------------------------------------
// Admin-only and platform-only
// ---------------------------------------------------------------------------------------------

describe('admin-only screens (spec 000 §2, §6)', () => {
  const ADMIN_ONLY: Array<[string, string]> = [
    ['/reports', '/'],
    ['/subscriptions', '/'],
    ['/storage', '/'],
    ['/integrations', '/'],
    ['/integrations/webhooks', '/'],
    ['/mailers', '/'],
    ['/mailers/observation/4', '/'],
    ['/mailers/observation/4/scenario/9', '/'],
    ['/manpower', '/'],
    ['/ehs-ocp', '/'],
    ['/kpi_settings', '/'],
    ['/hierarchy-of-controls', '/'],
    ['/activity-masters', '/'],
    ['/equipment-master', '/'],
    ['/rescue-master', '/'],
    ['/psrs-settings', '/psrs-dashboard'],
    ['/msi-settings/3', '/msi-dashboard'],
  ];
  /** Every right an organisation role can have, but not the admin flag. */
  const POWER_USER = principal(allRights, { isAdmin: false, canIssuePermit: true });

  it.each(ADMIN_ONLY)('%s is allowed for an admin', (path) => {
    expectAllowed(path, ADMIN);
  });

  it.each(ADMIN_ONLY)('%s sends a non-admin to %s', (path, fallback) => {
    const screen = findRoute(path)!.route.screen;
    // Refused by name on the no-permission page (issue 15), except the PSRS and MSI settings, which the
    // spec sends to their dashboards.
    const refused = fallback === '/' ? `/no_permissions?screen=${screen}` : fallback;
    expectRedirect(path, POWER_USER, refused);
    expectRedirect(path, OBS_INC_READER, refused);
    expectRedirect(path, NO_RIGHTS, fallback === '/' ? '/no_permissions' : fallback);
  });

  it('the MSI settings list itself is not admin-only', () => {
    expectAllowed('/msi-settings', OBS_INC_READER);
  });
});

describe('platform-only screens (spec 000 §2)', () => {
  const PLATFORM_ONLY = ['/organizations', '/domains_control', '/extend_requests', '/paymentsettings', '/clone', '/code_releases'];

  it.each(PLATFORM_ONLY)('%s is allowed for the platform admin', (path) => {
    expectAllowed(path, PLATFORM);
  });

  it.each(PLATFORM_ONLY)('%s is refused to an organisation admin and to ordinary users', (path) => {
    for (const who of [ADMIN, OBS_INC_READER, NO_RIGHTS]) {
      const d = decide(path, who);
      expect(d.kind).toBe('redirect');
      expect(resolveRoute(path, who, TENANT_HOST)).not.toBe(path);
    }
  });

  it('the platform admin is not let into organisation module screens', () => {
    for (const path of ['/sites', '/incidents', '/observations/new', '/hira', '/library']) {
      expect(decide(path, PLATFORM).kind).toBe('redirect');
    }
  });
});

// ---------------------------------------------------------------------------------------------
// Permits
// ---------------------------------------------------------------------------------------------

describe('/permits (spec 000 §2)', () => {
  it('the platform admin is sent to /organizations', () => {
    expectRedirect('/permits', PLATFORM, '/organizations');
  });

  it('a user with Permit read gets in', () => {
    expectAllowed('/permits', principal(readOnly('Permit')));
    expectAllowed('/permits', ADMIN);
  });

  it.each([
    ['Observation+Incident reader', OBS_INC_READER],
    ['Permit Form Setting reader', PERMIT_FORM_SETTING_READER],
    ['user without rights', NO_RIGHTS],
  ] as const)('a %s without Permit read is sent to /permit-forms with the original path in the query', (_, who) => {
    const to = redirectTarget(decide('/permits', who)) ?? '';
    expect(pathOf(to)).toBe('/permit-forms');
    expect([...queryOf(to).values()]).toContain('/permits');
  });

  it('a Permit Form Setting reader lands on that /permit-forms page', () => {
    const end = resolveRoute('/permits', PERMIT_FORM_SETTING_READER, TENANT_HOST);
    expect(pathOf(end)).toBe('/permit-forms');
    expect([...queryOf(end).values()]).toContain('/permits');
  });
});

describe('new-permit type selection /permit-form-questions/new (spec 000 §2)', () => {
  const PATH = '/permit-form-questions/new';
  const permitCreate: Rule[] = [{ subject: 'Permit', actions: ['read', 'create'] }];

  it.each([
    ['can_issue_permit + Permit create', PERMIT_ISSUER],
    ['is_admin + Permit create', principal(permitCreate, { isAdmin: true })],
    ['admin with all rights', ADMIN],
    // Full storage is said by the server (memory_exhausted) and a banner, not by hiding the screen.
    ['can_issue_permit + Permit create with storage used up', principal(permitCreate, { canIssuePermit: true }, { memExhausted: true })],
  ] as const)('allowed for %s', (_, who) => {
    expectAllowed(PATH, who);
  });

  it.each([
    ['Permit create but neither can_issue_permit nor is_admin', principal(permitCreate)],
    ['can_issue_permit without Permit create', principal(readOnly('Permit'), { canIssuePermit: true })],
    ['is_admin without Permit create', principal(readOnly('Permit'), { isAdmin: true })],
    [
      'can_issue_permit + Permit create but a cancelled subscription',
      principal(permitCreate, { canIssuePermit: true }, { subscriptionType: 'cancelled' }),
    ],
    ['a user without rights', NO_RIGHTS],
  ] as const)('redirects to / for %s', (_, who) => {
    expectRedirect(PATH, who, '/');
  });
});

// ---------------------------------------------------------------------------------------------
// HIRA v2
// ---------------------------------------------------------------------------------------------

describe('/hira_v2 and children (spec 000 §2 HIRA)', () => {
  const PATHS = ['/hira_v2', '/hira_v2/new', '/hira_v2/summary/4', '/hira_v2/edit/4'];

  it.each(PATHS)('%s is allowed for the allow-listed user with HIRA read', (path) => {
    expectAllowed(path, HIRA_V2_WITH_READ);
  });

  it.each(PATHS)('%s goes to / for the allow-listed user without HIRA read', (path) => {
    expectRedirect(path, HIRA_V2_WITHOUT_READ, '/');
  });

  it.each(PATHS)('%s goes to / for a user with HIRA read who is not on the allow-list', (path) => {
    expectRedirect(path, principal(readOnly('HIRA')), '/');
    expectRedirect(path, ADMIN, '/');
  });
});

// ---------------------------------------------------------------------------------------------
// Per-module read guards
// ---------------------------------------------------------------------------------------------

describe('per-module read guards (spec 000 §2)', () => {
  const READ_GUARDS: Array<[string, Subject]> = [
    // Settings and masters
    ['/sites', 'Site'],
    ['/sites/new', 'Site'],
    ['/sites/edit/3', 'Site'],
    ['/roles', 'Role'],
    ['/users', 'User'],
    ['/users/7/permission', 'User'],
    ['/categories', 'Category'],
    ['/categories/new', 'Category'],
    ['/categories/edit/3', 'Category'],
    ['/whyanalysis', 'RC Master'],
    ['/whyanalysis/2/list', 'RC Master'],
    ['/worker-profile', 'Permit Form Setting'],
    ['/workflows', 'WorkFlow'],
    ['/library', 'Library'],
    ['/library/view/5', 'Library'],
    ['/permit-forms', 'Permit Form Setting'],
    ['/permit-forms/8', 'Permit Form Setting'],
    // Observations and incidents
    ['/observations/new', 'Observation'],
    ['/observations/summary/12', 'Observation'],
    ['/observations/summary/12/actions', 'Observation'],
    ['/observations/edit/12', 'Observation'],
    ['/observations/edit/12/details', 'Observation'],
    ['/incidents', 'Incident'],
    ['/incidents/new', 'Incident'],
    ['/incidents/12/report', 'Incident'],
    ...['step1', 'step2', 'step3', 'step4', 'step5', 'step6', 'step7'].map((s): [string, Subject] => [
      `/incidents/12/steps/${s}`,
      'Incident',
    ]),
    // Actions table
    ['/actions/new', 'Action'],
    ['/actions/summary/3', 'Action'],
    ['/actions/edit/3/details', 'Action'],
    ['/actions/audits', 'Audit'],
    ['/actions/audits/summary/3/details', 'Audit'],
    ['/actions/audits/edit/3', 'Audit'],
    ['/actions/observations', 'Observation'],
    ['/actions/observations/summary/3', 'Observation'],
    ['/actions/observations/edit/3/details', 'Observation'],
    ['/actions/all', 'Action'],
    ['/actions/all/open', 'Action'],
    ['/actions/all/summary/3/details', 'Action'],
    ['/actions/all/edit/3', 'Action'],
    ['/actions/incidents', 'Incident'],
    ['/actions/incidents/summary/3', 'Incident'],
    ['/actions/incidents/edit/3/details', 'Incident'],
    // Audits
    ['/audits/scheduled', 'Audit'],
    ['/audits/5/report', 'Audit'],
    ['/audits/5/summary', 'Audit'],
    ['/audits/5/audit/2', 'Audit'],
    ['/audits/5/keyfindings', 'Audit'],
    ['/audits/5/actionitems', 'Audit'],
    ['/audit-summary', 'Audit'],
    ['/audit-forms', 'Audit Template'],
    ['/audit-forms/1', 'Audit Template'],
    ['/audit-schedules', 'Audit'],
    ['/audit-calendar', 'Audit'],
    ['/audit-trends', 'Audit'],
    // HIRA
    ['/hira', 'HIRA'],
    ['/hira/new', 'HIRA'],
    ['/hira/summary/4', 'HIRA'],
    ['/hira/edit/4', 'HIRA'],
  ];

  it.each(READ_GUARDS)('%s is allowed with %s read alone', (path, subject) => {
    expectAllowed(path, principal(readOnly(subject)));
  });

  it.each(READ_GUARDS)('%s is refused without %s read, even with every other read', (path, subject) => {
    const who = principal(allReadsExcept(subject));
    expect(decide(path, who).kind).toBe('redirect');
    expect(pathOf(resolveRoute(path, who, TENANT_HOST))).not.toBe(path);
  });

  it.each(READ_GUARDS)('%s is refused with %s create/update/delete but no read', (path, subject) => {
    const writesOnly: Rule = { subject, actions: ['create', 'update', 'delete'] };
    const who = principal(subject === 'Incident' ? [writesOnly] : [writesOnly, ...readOnly('Incident')]);
    expect(decide(path, who).kind).toBe('redirect');
  });

  it("/actions/observations is guarded by Observation read, not Incident read (DECISIONS.md: the spec's table slipped)", () => {
    expect(decide('/actions/observations', principal(readOnly('Incident'))).kind).toBe('redirect');
    expectAllowed('/actions/observations', principal(readOnly('Observation')));
  });

  it("each actions list is guarded as its source's list call is (ACTION_SOURCE_ACCESS)", () => {
    const lists = [
      ['/actions/all', 'other'],
      ['/actions/audits', 'audit'],
      ['/actions/observations', 'observation'],
      ['/actions/incidents', 'incident'],
      ['/actions/safety_interaction', 'safety_interaction'],
    ] as const;
    for (const [path, source] of lists) {
      const call: Access = ACTION_SOURCE_ACCESS[source];
      const guard = findRoute(path)!.route.guard;
      expect(guard, path).toEqual('session' in call ? { kind: 'signedIn' } : { kind: 'read', subject: 'subject' in call && call.subject });
    }
  });

  it.each([
    ['/sites', 'sites'],
    ['/users', 'users'],
    ['/roles', 'roles'],
    ['/categories', 'categories'],
    ['/users/7/permission', 'userPermission'],
  ])('a refused user typing %s is shown the no-permission page naming the screen (issue 15)', (path, screen) => {
    const to = redirectTarget(decide(path, OBS_INC_READER)) ?? '';
    expect(pathOf(to)).toBe('/no_permissions');
    expect(queryOf(to).get('screen')).toBe(screen);
    expect(queryOf(to).has('redirected')).toBe(false);
    expectAllowed(to.split('?')[0]!, OBS_INC_READER);
  });

  it('the Observation+Incident reader reaches exactly its modules', () => {
    for (const path of ['/observations/new', '/incidents', '/incidents/3/steps/step2', '/actions/incidents', '/actions/observations']) {
      expectAllowed(path, OBS_INC_READER);
    }
    for (const path of ['/sites', '/users', '/audits/scheduled', '/hira', '/library', '/actions/new', '/actions/audits']) {
      expect(decide(path, OBS_INC_READER).kind, path).toBe('redirect');
    }
  });
});

describe('routes that need only sign-in (spec 000 §2)', () => {
  const SAFETY_INTERACTIONS = [
    '/si-dashboard',
    '/safety-interactions',
    '/safety-interactions/new',
    '/safety-interactions/edit/3',
    '/safety-interactions/3/report',
    '/safety-interactions/summary',
    '/safety-interactions/scheduling',
    // Their agreed actions too: safety interactions have no right of their own (docs/modules.md).
    '/actions/safety_interaction',
    '/actions/safety_interaction/summary/3/details',
    '/actions/safety_interaction/edit/3',
  ];
  const GENERAL = [
    '/logout',
    '/reset-session',
    '/sso_configs',
    '/success',
    '/newusers',
    '/myaccount',
    '/pricing_upgrade',
    '/emailsubscription',
    '/notification',
    '/buynow',
  ];

  it.each(SAFETY_INTERACTIONS)('%s is open to a signed-in user without any right', (path) => {
    expectAllowed(path, NO_RIGHTS);
    expectAllowed(path, OBS_INC_READER);
  });

  it.each(SAFETY_INTERACTIONS)('%s still needs sign-in', (path) => {
    expect(pathOf(redirectTarget(decide(path, SIGNED_OUT)) ?? '')).toBe('/login');
  });

  it.each(GENERAL)('%s is open to a signed-in user without any right', (path) => {
    expectAllowed(path, NO_RIGHTS);
  });
});

describe('the route table', () => {
  it('has no duplicate patterns', () => {
    const paths = ROUTES.map((r) => r.path);
    expect(new Set(paths).size).toBe(paths.length);
  });

  it('every concrete sample path resolves to a known route for the admin', () => {
    for (const path of SIGNED_IN_SAMPLES) expect(redirectTarget(decide(path, ADMIN)), path).not.toBe('/not_found');
  });
});

// ---------------------------------------------------------------------------------------------
// Landing page
// ---------------------------------------------------------------------------------------------

describe('landingPage() (spec 000 §2 redirect targets, §6)', () => {
  it('platform admin -> /organizations', () => {
    expect(landingPage(PLATFORM)).toBe('/organizations');
  });

  it('no rights -> /no_permissions', () => {
    expect(landingPage(NO_RIGHTS)).toBe('/no_permissions');
    expect(landingPage(principal([{ subject: 'User', actions: [] }]))).toBe('/no_permissions');
  });

  it.each(['Incident', 'Permit', 'Audit'] as const)('read on %s -> /', (subject) => {
    expect(landingPage(principal(readOnly(subject)))).toBe('/');
    expect(landingPage(principal(readOnly('User', 'Library', subject)))).toBe('/');
  });

  it.each([
    'User',
    'Site',
    'Role',
    'WorkFlow',
    'Category',
    'RC Master',
    'Audit Template',
    'Permit Form Setting',
    'HIRA',
    'Library',
    'Observation',
    'Action',
  ] as const)('read on %s alone -> the home / (issue 15 replaces the landing order of spec 000 §6)', (subject) => {
    expect(landingPage(principal(readOnly(subject)))).toBe('/');
  });

  it('a right without read lands on the home too: it shows what the person may start', () => {
    expect(landingPage(principal([{ subject: 'Library', actions: ['create', 'update'] }]))).toBe('/');
  });

  it('the landing page is itself reachable for the user', () => {
    for (const subject of ['User', 'Library', 'Observation'] as const) {
      const who = principal(readOnly(subject));
      expectAllowed(landingPage(who), who);
    }
    expectAllowed(landingPage(PLATFORM), PLATFORM);
    expectAllowed(landingPage(NO_RIGHTS), NO_RIGHTS);
    expectAllowed(landingPage(ADMIN), ADMIN);
  });
});
