import { describe, expect, it } from 'vitest';
import { actionScreen, EMPTY_LIST_STATE, listAddress, listQuery, panelAddress, readAddress } from './list-url.js';

const ID = '0190a0a0-0000-7000-8000-000000000012';
const SITE = '0190a0a0-0000-7000-8000-000000000001';
const all = actionScreen('actionsAll');
const audits = actionScreen('actionsAudits');
const own = actionScreen('actions');

describe('action list addresses', () => {
  it('reads the panel mode, id and tab of every list', () => {
    expect(readAddress(own, '/actions/new', '').panel).toEqual({ mode: 'add' });
    expect(readAddress(audits, `/actions/audits/summary/${ID}`, '').panel).toEqual({ mode: 'summary', id: ID, tab: null });
    expect(readAddress(audits, `/actions/audits/edit/${ID}/history`, '').panel).toEqual({ mode: 'edit', id: ID, tab: 'history' });
    expect(readAddress(all, '/actions/all', '').panel).toBeNull();
    // Only /actions has an add mode (Action create); elsewhere "new" is no panel.
    expect(readAddress(audits, '/actions/audits/new', '').panel).toBeNull();
  });

  it('takes the status tab of /actions/all from the path, and of the other lists from the query', () => {
    expect(readAddress(all, '/actions/all/overdue', '').state.status).toBe('overdue');
    expect(readAddress(audits, '/actions/audits', '?status=completed').state.status).toBe('completed');
    expect(readAddress(all, '/actions/all/nonsense', '').state.status).toBe('all');
  });

  it('drops malformed filters instead of sending them', () => {
    const { state } = readAddress(
      all,
      '/actions/all',
      `?site_id=x&due_from=2026-13&control_type=ppe&source_type=audit&page=-3&responsible_id=${SITE}`,
    );
    expect(state).toMatchObject({
      site_id: null,
      due_from: null,
      control_type: 'ppe',
      source_type: 'audit',
      page: 1,
      responsible_id: SITE,
    });
    // A list of one source has no source filter.
    expect(readAddress(audits, '/actions/audits', '?source_type=incident').state.source_type).toBeNull();
  });

  it('keeps the filters when a panel opens, so closing it returns to the same rows', () => {
    const state = { ...EMPTY_LIST_STATE, status: 'overdue' as const, site_id: SITE, search: 'guard rail', page: 2 };
    const opened = panelAddress(all, state, { mode: 'summary', id: ID, tab: 'attachments' });
    expect(opened).toBe(`/actions/all/summary/${ID}/attachments?status=overdue&site_id=${SITE}&search=guard+rail&page=2`);
    const [path, query] = opened.split('?');
    const back = readAddress(all, path!, `?${query}`);
    expect(listAddress(all, back.state)).toBe(`/actions/all/overdue?site_id=${SITE}&search=guard+rail&page=2`);
  });

  it('closes the panel of /actions (which only forwards to new) on /actions/all showing the same actions raised on their own', () => {
    expect(listAddress(own, EMPTY_LIST_STATE)).toBe('/actions/all?source_type=other');
    expect(panelAddress(audits, EMPTY_LIST_STATE, { mode: 'add' })).toBe('/actions/new');
  });

  it('asks the server for the filters only, leaving a backwards due range to the field error', () => {
    const state = {
      ...EMPTY_LIST_STATE,
      status: 'open' as const,
      due_from: '2026-05-10',
      due_to: '2026-05-01',
      source_type: 'audit' as const,
    };
    expect(listQuery(all, state)).toEqual({ status: 'open', due_from: '2026-05-10', source_type: 'audit' });
    expect(listQuery(audits, { ...state, due_to: '2026-05-31' })).toEqual({ status: 'open', due_from: '2026-05-10', due_to: '2026-05-31' });
  });
});
