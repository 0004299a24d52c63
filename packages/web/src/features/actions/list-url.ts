import {
  ACTION_SOURCES,
  ACTION_STATUS_TABS,
  CONTROL_TYPES,
  type ActionListKind,
  type ActionSource,
  type ActionStatusTab,
  type ControlType,
} from '@bulwark/domain';

/**
 * One action list screen of spec 000 §2: where it lives, which server list it reads, and which source
 * its records must have when one is opened (`actionable_type`).
 */
export type ActionScreen = {
  screen: string;
  base: string;
  kind: ActionListKind;
  /** The source every row has (null: the list mixes them). */
  source: ActionSource | null;
  titleKey: string;
};

export const ACTION_SCREENS: readonly ActionScreen[] = [
  { screen: 'actions', base: '/actions', kind: 'other_action_datas', source: 'other', titleKey: 'actions.lists.other_action_datas' },
  {
    screen: 'actionsAudits',
    base: '/actions/audits',
    kind: 'audit_action_datas',
    source: 'audit',
    titleKey: 'actions.lists.audit_action_datas',
  },
  {
    screen: 'actionsObservations',
    base: '/actions/observations',
    kind: 'observation_action_datas',
    source: 'observation',
    titleKey: 'actions.lists.observation_action_datas',
  },
  {
    screen: 'actionsIncidents',
    base: '/actions/incidents',
    kind: 'incident_action_datas',
    source: 'incident',
    titleKey: 'actions.lists.incident_action_datas',
  },
  {
    screen: 'actionsSafetyInteraction',
    base: '/actions/safety_interaction',
    kind: 'si_observation_action_datas',
    source: 'safety_interaction',
    titleKey: 'actions.lists.si_observation_action_datas',
  },
  { screen: 'actionsAll', base: '/actions/all', kind: 'all', source: null, titleKey: 'actions.lists.all' },
];

export function actionScreen(screen: string | null): ActionScreen {
  return ACTION_SCREENS.find((s) => s.screen === screen) ?? ACTION_SCREENS[ACTION_SCREENS.length - 1]!;
}

/** Everything that decides which rows a list shows. It lives in the address, so closing the panel or reloading keeps it. */
export type ListState = {
  status: ActionStatusTab;
  site_id: string | null;
  responsible_id: string | null;
  control_type: ControlType | null;
  source_type: ActionSource | null;
  due_from: string | null;
  due_to: string | null;
  search: string;
  page: number;
};

export const EMPTY_LIST_STATE: ListState = {
  status: 'all',
  site_id: null,
  responsible_id: null,
  control_type: null,
  source_type: null,
  due_from: null,
  due_to: null,
  search: '',
  page: 1,
};

export type PanelMode = 'add' | 'summary' | 'edit';
export type Panel = { mode: 'add' } | { mode: 'summary' | 'edit'; id: string; tab: string | null };

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const DATE = /^\d{4}-\d{2}-\d{2}$/;

function oneOf<T extends string>(values: readonly T[], v: string | null): T | null {
  return v !== null && (values as readonly string[]).includes(v) ? (v as T) : null;
}

/**
 * Reads the panel and the list filters from an address. Unknown or malformed values are dropped, not
 * sent: a hand-edited address shows the list without that filter instead of an error.
 */
export function readAddress(screen: ActionScreen, pathname: string, search: string): { panel: Panel | null; state: ListState } {
  const params = new URLSearchParams(search);
  const rest = pathname.replace(/\/+$/, '').slice(screen.base.length).split('/').filter(Boolean);
  let panel: Panel | null = null;
  let pathTab: string | null = null;
  if (rest[0] === 'new' && screen.screen === 'actions') panel = { mode: 'add' };
  else if ((rest[0] === 'summary' || rest[0] === 'edit') && rest[1]) panel = { mode: rest[0], id: rest[1], tab: rest[2] ?? null };
  else if (screen.screen === 'actionsAll' && rest[0]) pathTab = rest[0];

  const page = Number(params.get('page'));
  const date = (v: string | null) => (v && DATE.test(v) ? v : null);
  const uuid = (v: string | null) => (v && UUID.test(v) ? v : null);
  const state: ListState = {
    status: oneOf(ACTION_STATUS_TABS, pathTab ?? params.get('status')) ?? 'all',
    site_id: uuid(params.get('site_id')),
    responsible_id: uuid(params.get('responsible_id')),
    control_type: oneOf(CONTROL_TYPES, params.get('control_type')),
    source_type: screen.source === null ? oneOf(ACTION_SOURCES, params.get('source_type')) : null,
    due_from: date(params.get('due_from')),
    due_to: date(params.get('due_to')),
    search: (params.get('search') ?? '').trim().slice(0, 200),
    page: Number.isInteger(page) && page > 1 ? page : 1,
  };
  return { panel, state };
}

/** The query string of a list state, without its defaults. `withStatus` false leaves the status to the path. */
function queryOf(state: ListState, withStatus: boolean): string {
  const params = new URLSearchParams();
  if (withStatus && state.status !== 'all') params.set('status', state.status);
  for (const key of ['site_id', 'responsible_id', 'control_type', 'source_type', 'due_from', 'due_to'] as const) {
    const v = state[key];
    if (v) params.set(key, v);
  }
  if (state.search) params.set('search', state.search);
  if (state.page > 1) params.set('page', String(state.page));
  const text = params.toString();
  return text ? `?${text}` : '';
}

/**
 * The address of the list itself (what closing the panel returns to). /actions only forwards to
 * /actions/new, so the actions raised on their own are shown closed in /actions/all, filtered to them.
 */
export function listAddress(screen: ActionScreen, state: ListState): string {
  if (screen.screen === 'actions') {
    return listAddress(actionScreen('actionsAll'), { ...state, source_type: 'other' });
  }
  if (screen.screen === 'actionsAll') {
    return `${screen.base}${state.status === 'all' ? '' : `/${state.status}`}${queryOf(state, false)}`;
  }
  return `${screen.base}${queryOf(state, true)}`;
}

/** The address of the panel over a list; the list's filters ride along so closing comes back to them. */
export function panelAddress(screen: ActionScreen, state: ListState, panel: Panel): string {
  if (panel.mode === 'add') return `/actions/new${queryOf(state, true)}`;
  return `${screen.base}/${panel.mode}/${panel.id}${panel.tab ? `/${panel.tab}` : ''}${queryOf(state, true)}`;
}

/** Query values of the server list call (status, filters, search, page; the page size is the server's default of 50). */
export function listQuery(screen: ActionScreen, state: ListState): Record<string, string> {
  const q: Record<string, string> = {};
  if (state.status !== 'all') q.status = state.status;
  for (const key of ['site_id', 'responsible_id', 'control_type', 'due_from', 'due_to'] as const) {
    const v = state[key];
    if (v) q[key] = v;
  }
  // A range ending before it starts is shown as a mistake under the field, not sent to be refused.
  if (q.due_from && q.due_to && q.due_to < q.due_from) delete q.due_to;
  if (screen.source === null && state.source_type) q.source_type = state.source_type;
  if (state.search) q.search = state.search;
  if (state.page > 1) q.page = String(state.page);
  return q;
}

/** How many filters beyond the status tab and the search are set (shown on the filter button). */
export function activeFilterCount(state: ListState): number {
  return [state.site_id, state.responsible_id, state.control_type, state.source_type, state.due_from, state.due_to].filter(Boolean).length;
}
