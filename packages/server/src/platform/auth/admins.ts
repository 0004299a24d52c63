import { and, count, eq, ne, or, sql, type SQL } from 'drizzle-orm';
import type { Tx } from '../db/db.js';
import { organizations, roles, users } from '../db/schema.js';

/**
 * The organisation's active administrators, by the session's test (loadPrincipal): the user's own admin
 * flag, or a role that grants admin access. `except` leaves out a user about to be changed, or counts a
 * role as no longer granting admin access, so a change can ask "who would remain?".
 *
 * With `lock`, the organisation row is locked first: two concurrent demotions (two admins demoting each
 * other) then run one after the other, and the second sees that the first left nobody else.
 */
export async function activeAdminCount(tx: Tx, except: { userId?: string; roleId?: string } = {}, lock = false): Promise<number> {
  if (lock) {
    await tx
      .select({ id: organizations.id })
      .from(organizations)
      .where(eq(organizations.id, sql`app_current_org()`))
      .for('update');
  }
  const byRole: SQL = except.roleId ? and(eq(roles.grantsAdmin, true), ne(roles.id, except.roleId))! : eq(roles.grantsAdmin, true);
  const [row] = await tx
    .select({ n: count() })
    .from(users)
    .leftJoin(roles, and(eq(roles.organizationId, users.organizationId), eq(roles.id, users.roleId)))
    .where(
      and(
        eq(users.status, 'Active'),
        eq(users.isPlatformAdmin, false),
        except.userId ? ne(users.id, except.userId) : undefined,
        or(eq(users.isAdmin, true), byRole),
      ),
    );
  return Number(row?.n ?? 0);
}
