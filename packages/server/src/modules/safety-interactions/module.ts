import { inArray } from 'drizzle-orm';
import { registerActionSource, type SourceReference } from '../actions/service.js';
import type { ServerModule } from '../module.js';
import { safetyInteractionRoutes } from './routes.js';
import { siteRefs } from './sites.js';
import { safetyInteractions } from './tables.js';

/**
 * Agreed actions are actions of source 'safety_interaction'. An interaction's own status (draft,
 * completed) is about the conversation, not the follow-up, so it does not move with its actions:
 * the hook tells the actions module how to name an interaction (serial, "site, date"), and the
 * channel lets the dashboard and the record hear when an agreed action moves.
 */
registerActionSource('safety_interaction', {
  channel: 'safety_interactions',
  onActionsChanged: async () => {},
  describe: async (tx, ids) => {
    const rows = await tx
      .select({
        id: safetyInteractions.id,
        serial: safetyInteractions.serial,
        siteId: safetyInteractions.siteId,
        heldOn: safetyInteractions.heldOn,
      })
      .from(safetyInteractions)
      .where(inArray(safetyInteractions.id, ids));
    const sites = await siteRefs(
      tx,
      rows.map((r) => r.siteId),
    );
    return new Map<string, SourceReference>(
      rows.map((r) => [r.id, { serial: r.serial, label: `${sites.get(r.siteId)?.name ?? ''}, ${r.heldOn}` }]),
    );
  },
});

/** Safety interactions: the conversations, their people and behaviours, the plans, the summary and the dashboard. */
export const safetyInteractionsModule: ServerModule = {
  name: 'safety-interactions',
  routes: safetyInteractionRoutes,
};
