import { decideRoute, type Principal } from '@bulwark/domain';

export type MenuGroup = {
  label: 'nav.general' | 'nav.modules' | 'nav.settings' | 'nav.platform';
  items: Array<{ path: string; screen: string }>;
};

const item = (path: string, screen: string) => ({ path, screen });

/** The side menu: entry points of each screen, grouped as spec 000 §2 groups them. */
export const MENU: readonly MenuGroup[] = [
  {
    label: 'nav.general',
    items: [
      item('/', 'dashboard'),
      item('/notification', 'notification'),
      item('/reports', 'reports'),
      item('/subscriptions', 'subscriptions'),
      item('/myaccount', 'myaccount'),
    ],
  },
  {
    label: 'nav.modules',
    items: [
      item('/observations', 'observations'),
      item('/incidents', 'incidents'),
      item('/permits', 'permits'),
      item('/audit-summary', 'auditSummary'),
      item('/actions/all', 'actionsAll'),
      item('/hira', 'hira'),
      item('/safety-interactions', 'safetyInteractions'),
      item('/si-dashboard', 'siDashboard'),
      item('/library', 'library'),
      item('/psrs-dashboard', 'psrsDashboard'),
      item('/msi-dashboard', 'msiDashboard'),
    ],
  },
  {
    label: 'nav.settings',
    items: [
      item('/sites', 'sites'),
      item('/users', 'users'),
      item('/roles', 'roles'),
      item('/workflows', 'workflows'),
      item('/categories', 'categories'),
      item('/whyanalysis', 'whyanalysis'),
      item('/permit-forms', 'permitForms'),
      item('/audit-forms', 'auditForms'),
      item('/worker-profile', 'workerProfile'),
      item('/mailers', 'mailers'),
      item('/manpower', 'manpower'),
      item('/ehs-ocp', 'ehsOcp'),
      item('/kpi_settings', 'kpiSettings'),
      item('/hierarchy-of-controls', 'hierarchyOfControls'),
      item('/activity-masters', 'activityMasters'),
      item('/equipment-master', 'equipmentMaster'),
      item('/rescue-master', 'rescueMaster'),
      item('/psrs-settings', 'psrsSettings'),
      item('/msi-settings', 'msiSettings'),
    ],
  },
  {
    label: 'nav.platform',
    items: [
      item('/organizations', 'organizations'),
      item('/domains_control', 'domainsControl'),
      item('/extend_requests', 'extendRequests'),
      item('/paymentsettings', 'paymentsettings'),
      item('/clone', 'clone'),
      item('/code_releases', 'codeReleases'),
    ],
  },
];

/** A menu entry shows when the guard admits it, or only forwards deeper into the same screen (/observations -> /observations/new). */
export function canOpen(path: string, principal: Principal, host: string): boolean {
  const decision = decideRoute(path, principal, host);
  if (decision.kind === 'allow') return true;
  return decision.to.startsWith(`${path}/`);
}

export function visibleMenu(principal: Principal, host: string): MenuGroup[] {
  return MENU.map((group) => ({ ...group, items: group.items.filter((i) => canOpen(i.path, principal, host)) })).filter(
    (group) => group.items.length > 0,
  );
}
