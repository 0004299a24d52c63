import { describe, expect, it } from 'vitest';
import { matchPath } from './match.js';

describe('matchPath()', () => {
  it.each([
    ['/', '/', {}],
    ['/users', '/users', {}],
    ['/users', '/users/', {}],
    ['/users/:id/profile', '/users/42/profile', { id: '42' }],
    [
      '/mailers/:module/:module_id/scenario/:scenario_id',
      '/mailers/permit/7/scenario/3',
      { module: 'permit', module_id: '7', scenario_id: '3' },
    ],
    ['/observations/summary/:id/:tab?', '/observations/summary/12', { id: '12' }],
    ['/observations/summary/:id/:tab?', '/observations/summary/12/actions', { id: '12', tab: 'actions' }],
    ['/library/view/:id', '/library/view/a%20b%2Fc', { id: 'a b/c' }],
  ])('%s matches %s with params %j', (pattern, path, params) => {
    expect(matchPath(pattern, path)).toEqual(params);
  });

  it.each([
    ['/users', '/users/42', 'longer path'],
    ['/users/:id/profile', '/users/42', 'missing segment'],
    ['/users/:id/profile', '/users/42/profile/extra', 'extra segment'],
    ['/users/:id', '/users', 'missing required param'],
    ['/users/:id/profile', '/users/42/permission', 'literal mismatch'],
    ['/users', '/user', 'prefix of a literal'],
    ['/user', '/users', 'literal is a prefix'],
    ['/observations/summary/:id/:tab?', '/observations/summary', 'optional does not stand in for a required param'],
    ['/observations/summary/:id/:tab?', '/observations/summary/1/2/3', 'only one optional segment'],
    ['/', '/users', 'root matches only root'],
    ['/sites/new', '/sites/edit', 'sibling literal'],
  ])('%s does not match %s (%s)', (pattern, path) => {
    expect(matchPath(pattern, path)).toBeNull();
  });

  it('an optional param absent is not present in the result', () => {
    const params = matchPath('/actions/edit/:id/:tab?', '/actions/edit/9');
    expect(params).not.toBeNull();
    expect(params && 'tab' in params).toBe(false);
  });
});
