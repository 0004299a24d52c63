import { describe, expect, it } from 'vitest';
import { EMPTY_AUDIT_LIST, filterQuery, readAuditList, writeAuditList } from './list-url.js';

const SITE = '0190a7b2-1111-4222-8333-444455556666';

describe('the audit list in the address', () => {
  it('reads back what it wrote, defaults left out', () => {
    const state = {
      ...EMPTY_AUDIT_LIST,
      view: 'site' as const,
      frequency: 'monthly',
      site_id: SITE,
      type: 'fire',
      from: '2026-01-01',
      to: '2026-03-31',
      search: 'AUD-7',
      page: 3,
    };
    expect(readAuditList(writeAuditList(state))).toEqual(state);
    expect(writeAuditList(EMPTY_AUDIT_LIST)).toBe('');
  });

  it('drops what a hand-edited address got wrong instead of sending it', () => {
    expect(readAuditList('?view=grid&frequency=hourly&site_id=3&type=fire&from=2026-13&page=-2')).toEqual({
      ...EMPTY_AUDIT_LIST,
      type: 'fire',
    });
    expect(readAuditList('?from=2026-05-01&to=2026-04-01')).toMatchObject({ from: '2026-05-01', to: null });
  });

  it('gives the calls the filters only (tab, view and page are the list’s own)', () => {
    expect(filterQuery({ ...EMPTY_AUDIT_LIST, view: 'site', page: 4, site_id: SITE, search: '  boiler ' })).toEqual({
      site_id: SITE,
      search: 'boiler',
    });
  });
});
