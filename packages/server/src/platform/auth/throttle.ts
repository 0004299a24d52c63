import { sql } from 'drizzle-orm';
import type { Db } from '../db/db.js';
import { sha256 } from './tokens.js';

/**
 * Growing waits after failures, instead of a lock: the first `free` failures cost nothing, then each
 * further attempt must wait `firstWaitSeconds`, doubled with every failure up to `maxWaitSeconds`,
 * counted from the last failure. A burst is forgotten `forgetSeconds` after its last failure.
 */
export type ThrottleRule = { free: number; firstWaitSeconds: number; maxWaitSeconds: number; forgetSeconds: number };

export type ThrottleState = { failures: number; waitSeconds: number };

/** The wait that `failures` failures impose, counted from the last of them. */
export function waitAfter(rule: ThrottleRule, failures: number): number {
  if (failures < rule.free) return 0;
  return Math.min(rule.firstWaitSeconds * 2 ** (failures - rule.free), rule.maxWaitSeconds);
}

/**
 * Failures are kept in `rate_limits` (shared by every app node, keys hashed) with `window_start` as
 * the time of the last failure and `count` as the failures of the burst.
 */
export async function throttleState(db: Db, key: string, rule: ThrottleRule): Promise<ThrottleState> {
  const result = await db.execute<{ count: number; age: number }>(sql`
    select count, extract(epoch from now() - window_start)::float8 as age from rate_limits where key = ${sha256(key)}`);
  const row = result.rows[0];
  if (!row || Number(row.age) >= rule.forgetSeconds) return { failures: 0, waitSeconds: 0 };
  const failures = Number(row.count);
  return { failures, waitSeconds: Math.max(0, Math.ceil(waitAfter(rule, failures) - Number(row.age))) };
}

/** Counts one failure; returns the failures of the burst, this one included. */
export async function recordFailure(db: Db, key: string, rule: ThrottleRule): Promise<number> {
  const result = await db.execute<{ count: number }>(sql`
    insert into rate_limits (key, window_start, count) values (${sha256(key)}, now(), 1)
    on conflict (key) do update set
      count = case when rate_limits.window_start < now() - make_interval(secs => ${rule.forgetSeconds}) then 1 else rate_limits.count + 1 end,
      window_start = now()
    returning count`);
  return Number(result.rows[0]?.count ?? 1);
}

export async function forgetFailures(db: Db, key: string): Promise<void> {
  await db.execute(sql`delete from rate_limits where key = ${sha256(key)}`);
}
