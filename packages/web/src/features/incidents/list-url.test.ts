import { describe, expect, it } from 'vitest';
import { countsQuery, EMPTY_INCIDENT_LIST, incidentListSearch, isFiltered, listQuery, readIncidentList, withFilters } from './list-url.js';

const SITE = '0190a0a0-0000-7000-8000-000000000001';

describe('the incident list kept in the address', () => {
  it('reads back what it wrote', () => {
    const state = {
      ...EMPTY_INCIDENT_LIST,
      status: 'overdue' as const,
      site_id: SITE,
      severity: 'pending',
      from: '2026-01-01',
      search: 'INC-12',
      page: 3,
    };
    expect(readIncidentList(incidentListSearch(state))).toEqual(state);
  });

  it('leaves defaults out of the address', () => {
    expect(incidentListSearch(EMPTY_INCIDENT_LIST)).toBe('');
  });

  it('drops malformed values instead of sending them', () => {
    const state = readIncidentList(
      '?status=lost&site_id=nope&severity=huge&type=flood&from=yesterday&page=-2&investigation_state=approved',
    );
    expect(state).toEqual({ ...EMPTY_INCIDENT_LIST, investigation_state: 'approved' });
  });

  it('sends no end date before the start (said under the field instead)', () => {
    const state = { ...EMPTY_INCIDENT_LIST, from: '2026-05-10', to: '2026-05-01' };
    expect(countsQuery(state)).toEqual({ from: '2026-05-10' });
  });

  it('the counts leave out the tab and the page; the list has them', () => {
    const state = { ...EMPTY_INCIDENT_LIST, status: 'closed' as const, type: 'injury', page: 2 };
    expect(countsQuery(state)).toEqual({ type: 'injury' });
    expect(listQuery(state)).toEqual({ type: 'injury', status: 'closed', page: '2' });
  });

  it('a new filter goes back to page 1', () => {
    expect(withFilters({ ...EMPTY_INCIDENT_LIST, page: 4 }, { severity: 'major' })).toMatchObject({ severity: 'major', page: 1 });
  });

  it('the status tab alone is not a filter', () => {
    expect(isFiltered({ ...EMPTY_INCIDENT_LIST, status: 'open' })).toBe(false);
    expect(isFiltered({ ...EMPTY_INCIDENT_LIST, search: 'belt' })).toBe(true);
  });
});
