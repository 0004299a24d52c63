import { INCIDENT_SEVERITIES, INCIDENT_STATUS_TABS, INCIDENT_TYPES, INVESTIGATION_STATES, type IncidentStatusTab } from '@bulwark/domain';

/**
 * Everything that decides which incidents the list shows. It lives in the address, so reloading,
 * going back from a record or sharing the link keeps it.
 */
export type IncidentListState = {
  status: IncidentStatusTab;
  site_id: string | null;
  /** A severity, or 'pending' for the incidents still to be rated. */
  severity: string | null;
  category_id: string | null;
  type: string | null;
  investigation_state: string | null;
  from: string | null;
  to: string | null;
  search: string;
  page: number;
};

export const EMPTY_INCIDENT_LIST: IncidentListState = {
  status: 'all',
  site_id: null,
  severity: null,
  category_id: null,
  type: null,
  investigation_state: null,
  from: null,
  to: null,
  search: '',
  page: 1,
};

const FILTER_KEYS = ['site_id', 'severity', 'category_id', 'type', 'investigation_state', 'from', 'to'] as const;
type FilterKey = (typeof FILTER_KEYS)[number];

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const DATE = /^\d{4}-\d{2}-\d{2}$/;

function oneOf(values: readonly string[], v: string | null): string | null {
  return v !== null && values.includes(v) ? v : null;
}

/**
 * Reads the list state from a query string. Unknown or malformed values are dropped, not sent: a
 * hand-edited address shows the list without that filter instead of an error.
 */
export function readIncidentList(search: string): IncidentListState {
  const q = new URLSearchParams(search);
  const uuid = (v: string | null) => (v && UUID.test(v) ? v : null);
  const date = (v: string | null) => (v && DATE.test(v) ? v : null);
  const page = Number(q.get('page'));
  return {
    status: (oneOf(INCIDENT_STATUS_TABS, q.get('status')) ?? 'all') as IncidentStatusTab,
    site_id: uuid(q.get('site_id')),
    severity: oneOf([...INCIDENT_SEVERITIES, 'pending'], q.get('severity')),
    category_id: uuid(q.get('category_id')),
    type: oneOf(INCIDENT_TYPES, q.get('type')),
    investigation_state: oneOf(INVESTIGATION_STATES, q.get('investigation_state')),
    from: date(q.get('from')),
    to: date(q.get('to')),
    search: (q.get('search') ?? '').trim().slice(0, 200),
    page: Number.isInteger(page) && page > 1 ? page : 1,
  };
}

/** The query string of a list state, without its defaults ('' when everything is default). */
export function incidentListSearch(state: IncidentListState): string {
  const q = new URLSearchParams();
  if (state.status !== 'all') q.set('status', state.status);
  for (const key of FILTER_KEYS) {
    const v = state[key];
    if (v) q.set(key, v);
  }
  if (state.search) q.set('search', state.search);
  if (state.page > 1) q.set('page', String(state.page));
  const text = q.toString();
  return text ? `?${text}` : '';
}

/** A reversed date range is said under the field and not sent: the server would refuse the whole list. */
export function rangeReversed(state: IncidentListState): boolean {
  return state.from !== null && state.to !== null && state.from > state.to;
}

/** The filters as the counts call takes them (no status, page or sort). */
export function countsQuery(state: IncidentListState): Record<string, string> {
  const q: Record<string, string> = {};
  for (const key of FILTER_KEYS) {
    const v = state[key];
    if (v) q[key] = v;
  }
  if (rangeReversed(state)) delete q.to;
  if (state.search) q.search = state.search;
  return q;
}

/** The list call's query: the counts' filters with the status tab and the page (50 a page, the server's default). */
export function listQuery(state: IncidentListState): Record<string, string> {
  const q = countsQuery(state);
  if (state.status !== 'all') q.status = state.status;
  if (state.page > 1) q.page = String(state.page);
  return q;
}

/** A change of filters goes back to page 1; a change of page keeps the filters. */
export function withFilters(state: IncidentListState, change: Partial<Omit<IncidentListState, 'page'>>): IncidentListState {
  return { ...state, ...change, page: 1 };
}

/** Whether any filter beyond the status tab is set (the "clear filters" button shows then). */
export function isFiltered(state: IncidentListState): boolean {
  return state.search !== '' || FILTER_KEYS.some((k: FilterKey) => state[k] !== null);
}
