import { sql } from 'drizzle-orm';
import type { Db } from '../db/db.js';

export const PURGE_QUEUE = 'auth-purge-expired-tokens';

/**
 * Deletes spent or expired password-reset and refresh tokens of every organisation. It runs outside any
 * request, so it uses the owner connection: the explicit cross-tenant path.
 */
export async function purgeExpiredTokens(owner: Db): Promise<{ resets: number; refresh: number }> {
  const resets = await owner.execute(sql`delete from password_reset_tokens where expires_at < now() or used_at < now() - interval '1 day'`);
  const refresh = await owner.execute(sql`delete from refresh_tokens where expires_at < now()`);
  return { resets: resets.rowCount ?? 0, refresh: refresh.rowCount ?? 0 };
}
