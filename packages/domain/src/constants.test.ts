import { describe, expect, it } from 'vitest';
import {
  CHUNK_LOAD_TIMEOUT_MS,
  FAILURE_RESET_WINDOW_MS,
  FAILURE_THRESHOLD,
  PAGE_SIZES,
  PERMIT_DEFAULT_HOURS,
  PERMIT_EXTENSION_HOURS,
  POST_NAVIGATION_DELAY_MS,
  PROFILE_RELOAD_INTERVAL_MS,
  PUSH_SUBSCRIBE_DELAYS_MS,
  STATUS_CHECK_MS,
  SUCCESS_TOAST_MS,
} from './constants.js';

describe('business constants (spec 000 §9)', () => {
  it.each([
    ['profile reload interval', PROFILE_RELOAD_INTERVAL_MS, 60_000],
    ['failure threshold', FAILURE_THRESHOLD, 3],
    ['failure reset window', FAILURE_RESET_WINDOW_MS, 30_000],
    ['post-navigation delay', POST_NAVIGATION_DELAY_MS, 500],
    ['status check', STATUS_CHECK_MS, 3_000],
    ['success toast', SUCCESS_TOAST_MS, 10_000],
    ['chunk load timeout', CHUNK_LOAD_TIMEOUT_MS, 120_000],
    ['default permit duration (hours)', PERMIT_DEFAULT_HOURS, 8],
    ['permit extension (hours)', PERMIT_EXTENSION_HOURS, 4],
  ])('%s is %i', (_, actual, expected) => {
    expect(actual).toBe(expected);
  });

  it('push subscription delays are 50 ms and 500 ms', () => {
    expect([...PUSH_SUBSCRIBE_DELAYS_MS]).toEqual([50, 500]);
  });

  it('page sizes: observations 15, actions 50, incidents 50', () => {
    expect(PAGE_SIZES).toEqual({ observations: 15, actions: 50, incidents: 50 });
  });
});
