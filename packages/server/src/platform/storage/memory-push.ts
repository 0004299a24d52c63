import type { Tx } from '../db/db.js';
import { deferUntilCommit } from '../db/after-commit.js';
import type { Push } from '../push/push.js';

/** An organisation's storage figures as a write left them. */
export type StorageFigures = { organizationId: string; used: number; quota: number; pending: number };

/** What `tenant_memory` carries: the same answer as the get_tenant_memory_details push request. */
export function tenantMemoryEvent(f: StorageFigures) {
  return {
    channel: 'tenant_memory' as const,
    change: 'updated' as const,
    id: f.organizationId,
    data: { mem_exhausted: f.used >= f.quota, used_bytes: f.used, quota_bytes: f.quota },
  };
}

const latest = new WeakMap<Tx, StorageFigures>();

/**
 * Tells the organisation's members, once the transaction has committed, that its storage figures
 * changed (the web reloads the profile, whose memory warning follows). Several changes in one
 * transaction send one event with the last figures; a rolled-back transaction sends none. Outside a
 * request's transaction (a job), the caller pushes after its own commit.
 */
export function announceAfterCommit(tx: Tx, push: Pick<Push, 'toOrganization'> | undefined, figures: StorageFigures): void {
  if (!push) return;
  const queued = latest.has(tx);
  latest.set(tx, figures);
  if (queued) return;
  deferUntilCommit(tx, () => {
    const last = latest.get(tx) ?? figures;
    push.toOrganization(last.organizationId, tenantMemoryEvent(last));
  });
}
