import { decideRoute, type Principal } from '@bulwark/domain';
import type { NavIconName } from './nav-icons.js';

export type MenuItem = {
  path: string;
  screen: string;
  /** An i18n key naming the entry when the screen's title does not (`screen.<screen>` otherwise). */
  label?: string;
  icon?: NavIconName;
  /** Work done on the floor (report, act, talk): listed first on a phone. */
  frontline?: boolean;
};

export type MenuGroup = {
  /** An i18n key: `nav.*` for the spec's groups. */
  label: string;
  items: MenuItem[];
};

const item = (path: string, screen: string, icon: NavIconName, frontline = false): MenuItem =>
  frontline ? { path, screen, icon, frontline } : { path, screen, icon };

/**
 * The side menu: entry points of each screen, grouped as spec 000 §2 groups them. An entry whose
 * screen is not built in this release is left out (`visibleMenu`'s `isBuilt`); its route keeps its guard.
 */
export const MENU: readonly MenuGroup[] = [
  {
    label: 'nav.general',
    items: [
      item('/', 'dashboard', 'home', true),
      item('/notification', 'notification', 'bell'),
      item('/reports', 'reports', 'chart'),
      item('/subscriptions', 'subscriptions', 'key'),
      item('/myaccount', 'myaccount', 'user'),
    ],
  },
  {
    label: 'nav.modules',
    items: [
      item('/observations', 'observations', 'eye', true),
      item('/incidents', 'incidents', 'alert', true),
      item('/permits', 'permits', 'key'),
      item('/audits/scheduled', 'audits', 'check'),
      item('/audit-summary', 'auditSummary', 'chart'),
      item('/actions/all', 'actionsAll', 'check', true),
      item('/hira', 'hira', 'alert'),
      item('/safety-interactions', 'safetyInteractions', 'chat', true),
      item('/si-dashboard', 'siDashboard', 'chart'),
      item('/library', 'library', 'list'),
      item('/psrs-dashboard', 'psrsDashboard', 'gauge'),
      item('/msi-dashboard', 'msiDashboard', 'gauge'),
    ],
  },
  {
    label: 'nav.settings',
    items: [
      item('/sites', 'sites', 'pin'),
      item('/users', 'users', 'users'),
      item('/roles', 'roles', 'shield'),
      item('/workflows', 'workflows', 'flow'),
      item('/categories', 'categories', 'tag'),
      item('/whyanalysis', 'whyanalysis', 'tree'),
      item('/permit-forms', 'permitForms', 'list'),
      item('/audit-forms', 'auditForms', 'list'),
      item('/worker-profile', 'workerProfile', 'user'),
      item('/mailers', 'mailers', 'mail'),
      item('/storage', 'storage', 'disk'),
      item('/integrations', 'integrations', 'key'),
      item('/manpower', 'manpower', 'calendar'),
      item('/ehs-ocp', 'ehsOcp', 'list'),
      item('/kpi_settings', 'kpiSettings', 'gauge'),
      item('/hierarchy-of-controls', 'hierarchyOfControls', 'list'),
      item('/activity-masters', 'activityMasters', 'list'),
      item('/equipment-master', 'equipmentMaster', 'list'),
      item('/rescue-master', 'rescueMaster', 'list'),
      item('/psrs-settings', 'psrsSettings', 'settings'),
      item('/msi-settings', 'msiSettings', 'settings'),
    ],
  },
  {
    label: 'nav.platform',
    items: [
      item('/organizations', 'organizations', 'users'),
      item('/domains_control', 'domainsControl', 'settings'),
      item('/extend_requests', 'extendRequests', 'calendar'),
      item('/paymentsettings', 'paymentsettings', 'key'),
      item('/clone', 'clone', 'list'),
      item('/code_releases', 'codeReleases', 'list'),
    ],
  },
];

/** A guest's whole menu (DECISIONS): report an observation, and follow its own reports. */
export const GUEST_MENU: readonly MenuGroup[] = [
  {
    label: 'nav.general',
    items: [
      { path: '/observations/new', screen: 'observations', label: 'observations.guest.menuReport' },
      { path: '/observations/mine', screen: 'observations', label: 'observations.guest.menuMine' },
    ],
  },
];

/** A menu entry shows when the guard admits it, or only forwards deeper into the same screen (/observations -> /observations/new). */
export function canOpen(path: string, principal: Principal, host: string): boolean {
  const decision = decideRoute(path, principal, host);
  if (decision.kind === 'allow') return true;
  return decision.to.startsWith(`${path}/`);
}

/**
 * The entries this person may open, of screens this release has built, in their groups. `isBuilt` is
 * the web's screen table (app/screens.ts); tests pass their own. Filters are plain array steps, so
 * another rule (e.g. a guest's) is one more `.filter`.
 */
export function visibleMenu(principal: Principal, host: string, isBuilt: (screen: string) => boolean = () => true): MenuGroup[] {
  return (principal.isGuest ? GUEST_MENU : MENU)
    .map((group) => ({ ...group, items: group.items.filter((i) => isBuilt(i.screen) && canOpen(i.path, principal, host)) }))
    .filter((group) => group.items.length > 0);
}

/** On a phone the frontline entries come first, in a group of their own; the rest keep their groups. */
export function frontlineFirst(groups: readonly MenuGroup[]): MenuGroup[] {
  const frontline = groups.flatMap((g) => g.items.filter((i) => i.frontline));
  if (frontline.length === 0) return [...groups];
  const rest = groups.map((g) => ({ ...g, items: g.items.filter((i) => !i.frontline) })).filter((g) => g.items.length > 0);
  return [{ label: 'home.menu.frontline', items: frontline }, ...rest];
}
