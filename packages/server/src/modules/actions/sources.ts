import type { ActionSource, PushChannel } from '@bulwark/domain';
import type { Tx } from '../../platform/db/db.js';

/** What the actions module shows of a source record: its serial and a short label. */
export type SourceReference = { serial: number | null; label: string | null };

/**
 * What a source module (observations, safety interactions, later audits and incidents) tells the
 * actions module. Registered at import time of the source's module.ts.
 */
export type ActionSourceHooks = {
  /**
   * Called in the same transaction whenever actions of these source records are created or change
   * status (PATCH, the overdue sweep): the source updates its own status from its actions.
   */
  onActionsChanged: (tx: Tx, sourceIds: string[]) => Promise<void>;
  /** The serial and label of each source record, for lists, the detail and the export. */
  describe?: (tx: Tx, sourceIds: string[]) => Promise<Map<string, SourceReference>>;
  /**
   * The source's push channel: after the commit, screens showing the source records hear that they
   * changed (an observation's status follows its actions without its own write).
   */
  channel?: PushChannel;
};

/** A source record whose screens must hear of an action change once the transaction commits. */
export type SourceChange = { channel: PushChannel; id: string };

const hooks = new Map<ActionSource, ActionSourceHooks>();

export function registerActionSource(type: ActionSource, h: ActionSourceHooks): void {
  hooks.set(type, h);
}

export function sourceHooks(type: ActionSource): ActionSourceHooks | undefined {
  return hooks.get(type);
}

/** Runs the hooks for every source touched, grouped by type; answers what to push after the commit. */
export async function notifySources(tx: Tx, touched: ReadonlyArray<{ type: ActionSource; id: string | null }>): Promise<SourceChange[]> {
  const byType = new Map<ActionSource, Set<string>>();
  for (const t of touched) {
    if (!t.id) continue;
    const set = byType.get(t.type) ?? new Set<string>();
    set.add(t.id);
    byType.set(t.type, set);
  }
  const changes: SourceChange[] = [];
  for (const [type, ids] of byType) {
    const h = hooks.get(type);
    if (!h) continue;
    await h.onActionsChanged(tx, [...ids]);
    if (h.channel) for (const id of ids) changes.push({ channel: h.channel, id });
  }
  return changes;
}

/** Serial and label of the source records of `refs`, by source id. */
export async function describeSources(
  tx: Tx,
  refs: ReadonlyArray<{ type: ActionSource; id: string | null }>,
): Promise<Map<string, SourceReference>> {
  const out = new Map<string, SourceReference>();
  const byType = new Map<ActionSource, Set<string>>();
  for (const r of refs) {
    if (!r.id) continue;
    const set = byType.get(r.type) ?? new Set<string>();
    set.add(r.id);
    byType.set(r.type, set);
  }
  for (const [type, ids] of byType) {
    const describe = hooks.get(type)?.describe;
    if (!describe) continue;
    for (const [id, ref] of await describe(tx, [...ids])) out.set(id, ref);
  }
  return out;
}
