import type { Tx } from './db/db.js';
import { auditLog } from './db/schema.js';

/** Records who changed what, in the same transaction as the change. */
export async function recordAudit(
  tx: Tx,
  entry: { actorUserId: string | null; action: string; entity: string; entityId?: string; changes?: Record<string, unknown> },
): Promise<void> {
  await tx.insert(auditLog).values({
    actorUserId: entry.actorUserId,
    action: entry.action,
    entity: entry.entity,
    entityId: entry.entityId ?? null,
    changes: entry.changes ?? {},
  });
}
