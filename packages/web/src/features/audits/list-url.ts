import { AUDIT_FREQUENCIES, AUDIT_LIST_VIEWS, AUDIT_TYPES, type AuditListView } from '@bulwark/domain';

/**
 * Everything that decides which audits the list shows, besides the tab (the path's `{type}`). It lives
 * in the address, so reloading, going back from an audit or sharing the link keeps it.
 */
export type AuditListState = {
  view: AuditListView;
  frequency: string | null;
  site_id: string | null;
  type: string | null;
  from: string | null;
  to: string | null;
  search: string;
  page: number;
};

export const EMPTY_AUDIT_LIST: AuditListState = {
  view: 'audit',
  frequency: null,
  site_id: null,
  type: null,
  from: null,
  to: null,
  search: '',
  page: 1,
};

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const DATE = /^\d{4}-\d{2}-\d{2}$/;
const oneOf = (values: readonly string[], v: string | null) => (v !== null && values.includes(v) ? v : null);

/** Reads the list state; unknown or malformed values are dropped, so a hand-edited address shows the list without them. */
export function readAuditList(search: string): AuditListState {
  const q = new URLSearchParams(search);
  const date = (v: string | null) => (v && DATE.test(v) ? v : null);
  const page = Number(q.get('page'));
  const from = date(q.get('from'));
  const to = date(q.get('to'));
  return {
    view: (oneOf(AUDIT_LIST_VIEWS, q.get('view')) ?? 'audit') as AuditListView,
    frequency: oneOf(AUDIT_FREQUENCIES, q.get('frequency')),
    site_id: q.get('site_id') && UUID.test(q.get('site_id')!) ? q.get('site_id') : null,
    type: oneOf(AUDIT_TYPES, q.get('type')),
    from,
    // A range the wrong way round keeps its start; the filter says why its end went.
    to: from && to && to < from ? null : to,
    search: (q.get('search') ?? '').slice(0, 200),
    page: Number.isInteger(page) && page > 1 ? page : 1,
  };
}

/** The address's query for a state: defaults left out, so the plain list has a plain address. */
export function writeAuditList(s: AuditListState): string {
  const q = new URLSearchParams();
  if (s.view !== 'audit') q.set('view', s.view);
  for (const k of ['frequency', 'site_id', 'type', 'from', 'to'] as const) if (s[k]) q.set(k, s[k]!);
  if (s.search.trim()) q.set('search', s.search.trim());
  if (s.page > 1) q.set('page', String(s.page));
  const text = q.toString();
  return text ? `?${text}` : '';
}

/** The filters as the list, counts, by-site and export calls take them (no tab, view or page). */
export function filterQuery(s: AuditListState): Record<string, string> {
  const out: Record<string, string> = {};
  for (const k of ['frequency', 'site_id', 'type', 'from', 'to'] as const) if (s[k]) out[k] = s[k]!;
  if (s.search.trim()) out['search'] = s.search.trim();
  return out;
}

/** Whether any filter narrows the list (the empty state then says the filters found nothing). */
export function isFiltered(s: AuditListState): boolean {
  return Object.keys(filterQuery(s)).length > 0;
}
