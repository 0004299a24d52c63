/** What the sites service shares between its areas: errors, people and the site row. */
import type { SiteUserSummary } from '@bulwark/domain';
import { and, eq, inArray } from 'drizzle-orm';
import type { Tx } from '../../platform/db/db.js';
import { users } from '../../platform/db/schema.js';
import { AppError } from '../../platform/errors.js';
import { sites } from './tables.js';

export type SiteRow = typeof sites.$inferSelect;
/** Who makes a change (recorded in the audit log). */
export type Actor = { userId: string };

/** The PostgreSQL error under a driver or ORM wrapper: code and constraint. */
export function pgError(err: unknown): { code?: string; constraint?: string } {
  let e: unknown = err;
  for (let i = 0; i < 3 && e && typeof e === 'object'; i += 1) {
    const rec = e as { code?: unknown; constraint?: unknown; cause?: unknown };
    if (typeof rec.code === 'string')
      return { code: rec.code, constraint: typeof rec.constraint === 'string' ? rec.constraint : undefined };
    e = rec.cause;
  }
  return {};
}

export function summary(u: { id: string | null; fullName: string | null; email: string | null } | null): SiteUserSummary | null {
  if (!u || !u.id) return null;
  return { id: u.id, full_name: u.fullName ?? '', email: u.email ?? '' };
}

/** Refuses user ids that are not active users of this organisation (row-level security hides the others). */
export async function checkUsers(tx: Tx, refs: Record<string, string | null | undefined>): Promise<void> {
  const ids = [...new Set(Object.values(refs).filter((v): v is string => !!v))];
  if (ids.length === 0) return;
  const found = await tx
    .select({ id: users.id })
    .from(users)
    .where(and(inArray(users.id, ids), eq(users.status, 'Active'), eq(users.isPlatformAdmin, false)));
  const ok = new Set(found.map((r) => r.id));
  const fields: Record<string, string> = {};
  for (const [field, value] of Object.entries(refs)) {
    if (value && !ok.has(value)) fields[field] = 'sites.validation.userUnknown';
  }
  if (Object.keys(fields).length > 0) throw new AppError('validation_failed', { fields });
}

/** A site of the organisation (row-level security hides the others), locked for a change when asked. */
export async function siteRow(tx: Tx, id: string, lock = false): Promise<SiteRow> {
  const q = tx.select().from(sites).where(eq(sites.id, id));
  const [row] = lock ? await q.for('update') : await q;
  if (!row) throw new AppError('not_found');
  return row;
}
