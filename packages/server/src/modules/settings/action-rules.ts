import type { ActionSettings } from '@bulwark/domain';
import { eq, sql } from 'drizzle-orm';
import { recordAudit } from '../../platform/audit.js';
import type { Tx } from '../../platform/db/db.js';
import { organizations } from '../../platform/db/schema.js';

const thisOrg = eq(organizations.id, sql`app_current_org()`);

/** The organisation's action rules (organizations.action_close_by_other, migration 0170). */
export async function getActionSettings(tx: Tx): Promise<ActionSettings> {
  const [org] = await tx.select({ closeByOther: organizations.actionCloseByOther }).from(organizations).where(thisOrg);
  return { close_by_other: org?.closeByOther ?? true };
}

export async function saveActionSettings(tx: Tx, actorUserId: string, input: ActionSettings): Promise<ActionSettings> {
  const before = await getActionSettings(tx);
  if (before.close_by_other !== input.close_by_other) {
    await tx.update(organizations).set({ actionCloseByOther: input.close_by_other, updatedAt: new Date() }).where(thisOrg);
    await recordAudit(tx, {
      actorUserId,
      action: 'update',
      entity: 'Organization',
      changes: { action_close_by_other: { from: before.close_by_other, to: input.close_by_other } },
    });
  }
  return getActionSettings(tx);
}
