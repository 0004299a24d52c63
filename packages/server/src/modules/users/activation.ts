import { and, eq, isNull, sql } from 'drizzle-orm';
import { hashPassword } from '../../platform/auth/passwords.js';
import { sha256 } from '../../platform/auth/tokens.js';
import { recordAudit } from '../../platform/audit.js';
import type { Tx } from '../../platform/db/db.js';
import { passwordResetTokens, users } from '../../platform/db/schema.js';
import { AppError } from '../../platform/errors.js';

/**
 * Activation through the e-mailed link: sets the password once. Expired, used or unknown links are
 * "link expired". The verified mark follows from the first password (migrations/0030_users.sql).
 */
export async function activateUser(tx: Tx, token: string, password: string): Promise<string> {
  const [row] = await tx
    .select()
    .from(passwordResetTokens)
    .where(
      and(
        eq(passwordResetTokens.tokenHash, sha256(token)),
        isNull(passwordResetTokens.usedAt),
        sql`${passwordResetTokens.expiresAt} > now()`,
      ),
    )
    .for('update');
  if (!row) throw new AppError('link_expired');
  const [user] = await tx.select({ status: users.status }).from(users).where(eq(users.id, row.userId));
  if (!user || user.status !== 'Active') throw new AppError('link_expired');
  await tx.update(passwordResetTokens).set({ usedAt: new Date() }).where(eq(passwordResetTokens.tokenHash, row.tokenHash));
  await tx
    .update(users)
    .set({ passwordHash: await hashPassword(password), updatedAt: new Date() })
    .where(eq(users.id, row.userId));
  await recordAudit(tx, { actorUserId: row.userId, action: 'activate', entity: 'User', entityId: row.userId });
  return row.userId;
}
