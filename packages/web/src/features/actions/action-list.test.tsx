import { catalogs, type ActionListResponse } from '@bulwark/domain';
import { screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { renderWithServices } from '../../../test/render-with-services.js';
import { ActionList } from './action-list.js';
import { ACTION_SCREENS, EMPTY_LIST_STATE } from './list-url.js';

const en = catalogs.en;

/** The list's answer to a search: `capped` when the server stopped counting at 1,000 matches. */
function answer(capped: boolean): ActionListResponse {
  const total = capped ? 1000 : 12;
  return {
    actions: [],
    pagination: { page: 1, per_page: 50, total, total_pages: capped ? 21 : 1, total_capped: capped },
    counts: capped
      ? { all: 1000, open: 19, in_progress: 31, overdue: 8, completed: 942, closed: 0 }
      : { all: 12, open: 2, in_progress: 1, overdue: 0, completed: 4, closed: 5 },
    counts_capped: capped,
  };
}

function renderList(capped: boolean) {
  const get = vi.fn(async (path: string) => {
    if (path.startsWith('/api/actions/all')) return answer(capped);
    if (path.includes('user_profile')) throw new Error('no profile in this test');
    return { sites: [], users: [], categories: [] };
  });
  const all = ACTION_SCREENS.find((s) => s.kind === 'all')!;
  renderWithServices(<ActionList screen={all} state={{ ...EMPTY_LIST_STATE, search: 'guard' }} onState={() => {}} />, { get }, '/actions');
}

describe('action list of a keyword search (issue 13)', () => {
  it('says "more than 1,000" and "1,000+" when the search stopped counting', async () => {
    renderList(true);
    expect(await screen.findByText('More than 1,000 results')).toBeDefined();
    expect(screen.getByText('1,000+')).toBeDefined();
    expect(screen.getByText(`${en.actions.status.open} (19+)`)).toBeDefined();
    // A capped zero says nothing: the tab shows no count rather than "0+".
    expect(screen.queryByText(`${en.actions.status.closed} (0+)`)).toBeNull();
    expect(screen.queryByText('0+')).toBeNull();
    // The pager offers the pages known to hold rows, the next one included.
    expect(screen.getByRole('button', { name: en.kit.pageOf.replace('{{page}}', '21').replace('{{pages}}', '21') })).toBeDefined();
  });

  it('shows exact counts without a cap', async () => {
    renderList(false);
    expect(await screen.findByText(en.kit.total.replace('{{count}}', '12'))).toBeDefined();
    expect(screen.queryByText('1,000+')).toBeNull();
    expect(screen.getByText(`${en.actions.status.open} (2)`)).toBeDefined();
  });
});
