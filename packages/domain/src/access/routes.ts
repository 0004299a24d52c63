import type { Subject } from './subjects.js';

/**
 * Every screen route of spec 000 §2 with the guard that admits it. The web router is built from this
 * table and `decideRoute` (./guard.ts) enforces it, so the spec's guard table lives in one place.
 */
export type Guard =
  | { kind: 'public' } // reachable signed out (and signed in)
  | { kind: 'signedIn' }
  | { kind: 'onboarding' } // only while onboarding is pending
  | { kind: 'admin'; fallback: string }
  | { kind: 'platform' }
  | { kind: 'read'; subject: Subject }
  | { kind: 'dashboard' } // general gate: read on Incident, Permit or Audit
  | { kind: 'permits' } // super admin -> /organizations, others need Permit read
  | { kind: 'newPermitType' } // can_issue_permit or is_admin, then Permit create
  | { kind: 'permitWrite'; action: 'create' | 'update' }
  | { kind: 'hiraV2' } // configured allow-list of user ids and HIRA read
  | { kind: 'appHostOnly' }; // /organization_verify: only on app, lvh or 192 hosts

/**
 * Every screen id of the route table. A screen id names the page title key `screen.<id>` and the web
 * component that renders it; typing it keeps a typo in either place from compiling.
 */
export const SCREEN_IDS = [
  'thankyou',
  'observation',
  'incident',
  'sso',
  'getStarted',
  'buynow',
  'registration',
  'web',
  'sessionexpire',
  'guestUserCreation',
  'login',
  'byPassClientAdmin',
  'passwordReset',
  'organizationVerify',
  'dashboard',
  'logout',
  'resetSession',
  'onboarding',
  'ssoConfigs',
  'success',
  'newusers',
  'myaccount',
  'pricingUpgrade',
  'emailsubscription',
  'notification',
  'pricing',
  'reports',
  'subscriptions',
  'notFound',
  'noPermissions',
  'permits',
  'organizations',
  'domainsControl',
  'extendRequests',
  'paymentsettings',
  'clone',
  'codeReleases',
  'mailers',
  'storage',
  'integrations',
  'sites',
  'divisions',
  'roles',
  'users',
  'userProfile',
  'userPermission',
  'manpower',
  'ehsOcp',
  'kpiSettings',
  'categories',
  'subCategories',
  'whyanalysis',
  'workerProfile',
  'workflows',
  'library',
  'permitForms',
  'permitTypeSelect',
  'permitRequest',
  'permitSummary',
  'permitBoard',
  'permitBoardLive',
  'permitStatus',
  'hierarchyOfControls',
  'activityMasters',
  'equipmentMaster',
  'rescueMaster',
  'observations',
  'observationReport',
  'incidents',
  'incidentReport',
  'incidentSteps',
  'incidentsOsha',
  'siDashboard',
  'safetyInteractions',
  'audits',
  'auditReport',
  'auditSummary',
  'auditForms',
  'auditSchedules',
  'auditCalendar',
  'auditTrends',
  'hira',
  'psrsDashboard',
  'psrsSettings',
  'psrsAssessment',
  'psrsScore',
  'psrsReports',
  'msiDashboard',
  'msiSettings',
  'msiSchedule',
  'msiAssessment',
  'actions',
  'actionsAudits',
  'actionsObservations',
  'actionsAll',
  'actionsIncidents',
  'actionsSafetyInteraction',
] as const;
export type ScreenId = (typeof SCREEN_IDS)[number];

export type RouteDef = {
  path: string;
  /** Screen id: names the page title key `screen.<id>` and the component that renders it. */
  screen: ScreenId;
  guard: Guard;
  /** A route that only forwards somewhere else once admitted (e.g. /observations -> new). */
  redirectTo?: string;
};

const pub: Guard = { kind: 'public' };
const signedIn: Guard = { kind: 'signedIn' };
const read = (subject: Subject): Guard => ({ kind: 'read', subject });
const admin = (fallback = '/'): Guard => ({ kind: 'admin', fallback });

const r = (path: string, screen: ScreenId, guard: Guard, redirectTo?: string): RouteDef =>
  redirectTo ? { path, screen, guard, redirectTo } : { path, screen, guard };

/**
 * The list pages of actions with their guard: each is guarded by the read right of its own source
 * (DECISIONS.md; spec 000 §2 guards the observations and safety-interaction lists by Incident read, a
 * slip). Safety interactions have no right of their own and their screens need a session: so does their
 * list. The same rights guard the list calls (ACTION_SOURCE_ACCESS of actions/api.ts).
 */
const ACTION_LISTS: Array<[string, ScreenId, Guard]> = [
  ['/actions', 'actions', read('Action')],
  ['/actions/audits', 'actionsAudits', read('Audit')],
  ['/actions/observations', 'actionsObservations', read('Observation')],
  ['/actions/all', 'actionsAll', read('Action')],
  ['/actions/incidents', 'actionsIncidents', read('Incident')],
  ['/actions/safety_interaction', 'actionsSafetyInteraction', signedIn],
];

const actionRoutes: RouteDef[] = ACTION_LISTS.flatMap(([base, screen, guard]) => [
  r(base, screen, guard, base === '/actions' ? '/actions/new' : undefined),
  ...(base === '/actions' ? [r('/actions/new', screen, guard)] : []),
  ...(base === '/actions/all' ? [r('/actions/all/:tab', screen, guard)] : []),
  r(`${base}/summary/:id/:tab?`, screen, guard),
  r(`${base}/edit/:id/:tab?`, screen, guard),
]);

const INCIDENT_STEPS = ['step1', 'step2', 'step3', 'step4', 'step5', 'step6', 'step7'];

export const PUBLIC_PATHS = [
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
] as const;

export const ROUTES: readonly RouteDef[] = [
  // Signed out (spec §2 "Reachable when signed out").
  r('/by_pass_client_admin', 'byPassClientAdmin', pub),
  r('/password-reset', 'passwordReset', pub),
  r('/password-reset/:token', 'passwordReset', pub),
  r('/login', 'login', pub),
  r('/thankyou', 'thankyou', pub),
  r('/observation', 'observation', pub),
  r('/incident', 'incident', pub),
  r('/sso', 'sso', pub),
  r('/get-started', 'getStarted', pub),
  r('/buynow', 'buynow', pub),
  r('/registration', 'registration', pub),
  r('/web', 'web', pub),
  r('/sessionexpire', 'sessionexpire', pub),
  r('/guest_user_creation', 'guestUserCreation', pub),
  r('/organization_verify', 'organizationVerify', { kind: 'appHostOnly' }),
  // Beyond the spec (issue 16), by an unguessable token: a wall screen's read-only board link, and the
  // public status page a printed permit's QR code opens (number, type, place, validity, status only).
  r('/permit-board/live/:token', 'permitBoardLive', pub),
  r('/permit-status/:token', 'permitStatus', pub),

  // General.
  r('/', 'dashboard', { kind: 'dashboard' }),
  r('/logout', 'logout', signedIn),
  r('/reset-session', 'resetSession', signedIn),
  r('/onboarding', 'onboarding', { kind: 'onboarding' }),
  r('/sso_configs', 'ssoConfigs', signedIn),
  r('/success', 'success', signedIn),
  r('/newusers', 'newusers', signedIn),
  r('/myaccount', 'myaccount', signedIn),
  r('/pricing_upgrade', 'pricingUpgrade', signedIn),
  r('/emailsubscription', 'emailsubscription', signedIn),
  r('/notification', 'notification', signedIn),
  r('/pricing', 'pricing', signedIn),
  r('/reports', 'reports', admin()),
  r('/subscriptions', 'subscriptions', admin()),
  r('/not_found', 'notFound', signedIn),
  r('/no_permissions', 'noPermissions', signedIn),
  r('/permits', 'permits', { kind: 'permits' }),

  // Platform admin only.
  r('/organizations', 'organizations', { kind: 'platform' }),
  r('/domains_control', 'domainsControl', { kind: 'platform' }),
  r('/extend_requests', 'extendRequests', { kind: 'platform' }),
  r('/paymentsettings', 'paymentsettings', { kind: 'platform' }),
  r('/clone', 'clone', { kind: 'platform' }),
  r('/code_releases', 'codeReleases', { kind: 'platform' }),

  // Settings and masters.
  r('/mailers', 'mailers', admin()),
  r('/mailers/:module/:module_id', 'mailers', admin()),
  r('/mailers/:module/:module_id/scenario/:scenario_id', 'mailers', admin()),
  r('/storage', 'storage', admin()),
  // Beyond the spec (issue 19): API tokens, webhooks and the full export, for administrators.
  r('/integrations', 'integrations', admin()),
  r('/integrations/:tab', 'integrations', admin()),
  r('/integrations/webhooks/:id', 'integrations', admin()),
  r('/sites', 'sites', read('Site')),
  r('/sites/new', 'sites', read('Site')),
  r('/sites/edit/:id', 'sites', read('Site')),
  r('/sites/:id/divisions', 'divisions', read('Site')),
  r('/roles', 'roles', read('Role')),
  r('/users', 'users', read('User')),
  r('/users/:id/profile', 'userProfile', read('User')),
  r('/users/:id/permission', 'userPermission', read('User')),
  r('/manpower', 'manpower', admin()),
  r('/ehs-ocp', 'ehsOcp', admin()),
  r('/kpi_settings', 'kpiSettings', admin()),
  r('/categories', 'categories', read('Category')),
  r('/categories/new', 'categories', read('Category')),
  r('/categories/edit/:id', 'categories', read('Category')),
  r('/categories/:id', 'subCategories', read('Category')),
  r('/whyanalysis', 'whyanalysis', read('RC Master')),
  r('/whyanalysis/:id/list', 'whyanalysis', read('RC Master')),
  r('/worker-profile', 'workerProfile', read('Permit Form Setting')),
  r('/workflows', 'workflows', read('WorkFlow')),
  r('/library', 'library', read('Library')),
  r('/library/view/:id', 'library', read('Library')),
  r('/permit-forms', 'permitForms', read('Permit Form Setting')),
  r('/permit-forms/:id', 'permitForms', read('Permit Form Setting')),
  r('/permit-form-questions/new', 'permitTypeSelect', { kind: 'newPermitType' }),
  r('/permit-form-questions/new/:id', 'permitRequest', { kind: 'permitWrite', action: 'create' }),
  r('/permit-form-questions/edit/:id', 'permitRequest', { kind: 'permitWrite', action: 'update' }),
  r('/permit/:id/summary', 'permitSummary', read('Permit')),
  // Beyond the spec (issue 16): the live permit board of a site, for readers of permits.
  r('/permits/board', 'permitBoard', read('Permit')),
  r('/hierarchy-of-controls', 'hierarchyOfControls', admin()),
  r('/activity-masters', 'activityMasters', admin()),
  r('/equipment-master', 'equipmentMaster', admin()),
  r('/rescue-master', 'rescueMaster', admin()),

  // Observations and incidents.
  // The list (issue 15: the form opens on demand, "Report an observation", and the list gets the width).
  r('/observations', 'observations', read('Observation')),
  r('/observations/new', 'observations', read('Observation')),
  // The list alone: a guest's "my reports" (its own reports only, filtered by the server).
  r('/observations/mine', 'observations', read('Observation')),
  r('/observations/summary/:id/:tab?', 'observations', read('Observation')),
  r('/observations/edit/:id/:tab?', 'observations', read('Observation')),
  r('/observations/:id/report', 'observationReport', read('Observation')),
  r('/incidents', 'incidents', read('Incident')),
  r('/incidents/new', 'incidents', read('Incident')),
  r('/incidents/:id/report', 'incidentReport', read('Incident')),
  // Beyond the spec: the OSHA 300 log, 300A summary and 301 reports of the incidents recorded (docs/modules.md).
  r('/incidents/osha', 'incidentsOsha', read('Incident')),
  r('/incidents/:id/steps', 'incidentSteps', read('Incident'), '/incidents/:id/steps/step1'),
  ...INCIDENT_STEPS.map((s) => r(`/incidents/:id/steps/${s}`, 'incidentSteps', read('Incident'))),

  // Safety interactions: no guard beyond being signed in.
  r('/si-dashboard', 'siDashboard', signedIn),
  r('/safety-interactions', 'safetyInteractions', signedIn),
  r('/safety-interactions/new', 'safetyInteractions', signedIn),
  r('/safety-interactions/edit/:id', 'safetyInteractions', signedIn),
  r('/safety-interactions/summary', 'safetyInteractions', signedIn),
  r('/safety-interactions/scheduling', 'safetyInteractions', signedIn),
  r('/safety-interactions/:id/report', 'safetyInteractions', signedIn),

  ...actionRoutes,

  // Audits.
  r('/audits/:type', 'audits', read('Audit')),
  r('/audits/:id/report', 'auditReport', read('Audit')),
  r('/audits/:id/summary', 'audits', read('Audit')),
  r('/audits/:id/audit/:sectionindex', 'audits', read('Audit')),
  r('/audits/:id/keyfindings', 'audits', read('Audit')),
  r('/audits/:id/actionitems', 'audits', read('Audit')),
  r('/audit-summary', 'auditSummary', read('Audit')),
  r('/audit-forms', 'auditForms', read('Audit Template')),
  r('/audit-forms/:id', 'auditForms', read('Audit Template')),
  // Beyond the spec's screens (issue 17): the schedules, their month calendar, and the score trends.
  r('/audit-schedules', 'auditSchedules', read('Audit')),
  r('/audit-calendar', 'auditCalendar', read('Audit')),
  r('/audit-trends', 'auditTrends', read('Audit')),

  // HIRA.
  r('/hira', 'hira', read('HIRA')),
  r('/hira/new', 'hira', read('HIRA')),
  r('/hira/summary/:id', 'hira', read('HIRA')),
  r('/hira/edit/:id', 'hira', read('HIRA')),
  r('/hira_v2', 'hira', { kind: 'hiraV2' }),
  r('/hira_v2/new', 'hira', { kind: 'hiraV2' }),
  r('/hira_v2/summary/:id', 'hira', { kind: 'hiraV2' }),
  r('/hira_v2/edit/:id', 'hira', { kind: 'hiraV2' }),

  // PSRS.
  r('/psrs-dashboard', 'psrsDashboard', signedIn),
  r('/psrs-settings', 'psrsSettings', admin('/psrs-dashboard')),
  r('/psrs-assessment', 'psrsAssessment', signedIn),
  r('/psrs-score', 'psrsScore', signedIn),
  r('/psrs-reports', 'psrsReports', signedIn),

  // MSI.
  r('/msi-dashboard', 'msiDashboard', signedIn),
  r('/msi-settings', 'msiSettings', signedIn),
  r('/msi-settings/:id', 'msiSettings', admin('/msi-dashboard')),
  r('/msi-schedule', 'msiSchedule', signedIn),
  r('/msi-assessment/:id', 'msiAssessment', signedIn),
];

/** Screen ids of every route, for the title catalogue check. */
export const SCREENS: readonly ScreenId[] = SCREEN_IDS;
