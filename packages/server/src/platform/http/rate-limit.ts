import { sql } from 'drizzle-orm';
import type { Db } from '../db/db.js';
import { sha256 } from '../auth/tokens.js';
import { AppError } from '../errors.js';

/**
 * A fixed-window counter in PostgreSQL, so every app node shares it. Keys are hashed: the table holds
 * no addresses or e-mails.
 */
export async function hit(db: Db, key: string, windowSeconds: number): Promise<number> {
  const result = await db.execute<{ count: number }>(sql`
    insert into rate_limits (key, window_start, count) values (${sha256(key)}, now(), 1)
    on conflict (key) do update set
      count = case when rate_limits.window_start < now() - make_interval(secs => ${windowSeconds}) then 1 else rate_limits.count + 1 end,
      window_start = case when rate_limits.window_start < now() - make_interval(secs => ${windowSeconds}) then now() else rate_limits.window_start end
    returning count`);
  return Number(result.rows[0]?.count ?? 0);
}

export async function clear(db: Db, key: string): Promise<void> {
  await db.execute(sql`delete from rate_limits where key = ${sha256(key)}`);
}

export async function limit(db: Db, key: string, max: number, windowSeconds: number): Promise<void> {
  if ((await hit(db, key, windowSeconds)) > max) throw new AppError('rate_limited');
}

/**
 * A budget of failures only: refused once `max` failures (counted with `hit`) fall in the window, while
 * successful calls cost nothing, so many honest users behind one address never run it down.
 */
export async function refuseAfterFailures(db: Db, key: string, max: number, windowSeconds: number): Promise<void> {
  const result = await db.execute<{ count: number }>(sql`
    select count from rate_limits where key = ${sha256(key)} and window_start >= now() - make_interval(secs => ${windowSeconds})`);
  if (Number(result.rows[0]?.count ?? 0) >= max) throw new AppError('rate_limited');
}

/** The e-mailed links (password reset, account and guest activation) share one token table and one budget per address. */
export const LINK_TOKEN_LIMIT = { max: 20, windowSeconds: 900 };

export function limitLinkTokens(db: Db, ip: string): Promise<void> {
  return limit(db, `link-token-ip:${ip}`, LINK_TOKEN_LIMIT.max, LINK_TOKEN_LIMIT.windowSeconds);
}

/**
 * Workbook imports are the heaviest thing a signed-in person can ask for: each person, and each
 * organisation as a whole, may start only so many in a window, counted before the file is read (so a
 * refused or failing import counts too). The person's budget is checked first and is smaller, so one
 * person alone cannot spend the whole organisation's.
 */
export const IMPORT_LIMITS = {
  perUser: { max: 10, windowSeconds: 600 },
  perOrganization: { max: 30, windowSeconds: 600 },
};

export async function limitImports(db: Db, who: { userId: string; organizationId: string }): Promise<void> {
  const budgets = [
    { key: `import-user:${who.userId}`, text: 'storage.importsPerUser', ...IMPORT_LIMITS.perUser },
    { key: `import-org:${who.organizationId}`, text: 'storage.importsPerOrganization', ...IMPORT_LIMITS.perOrganization },
  ];
  for (const b of budgets) {
    if ((await hit(db, b.key, b.windowSeconds)) > b.max) {
      throw new AppError('rate_limited', { messageKey: b.text, vars: { max: b.max, minutes: b.windowSeconds / 60 } });
    }
  }
}
