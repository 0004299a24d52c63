import { can, formatObservationSerial } from '@bulwark/domain';
import { eq, inArray } from 'drizzle-orm';
import { registerFileGate } from '../../platform/storage/gates.js';
import { registerActionSource } from '../actions/service.js';
import type { ServerModule } from '../module.js';
import { observationRoutes } from './routes.js';
import { syncStatuses } from './service.js';
import { observationAttachments, observations } from './tables.js';

// An observation's status follows its actions: the actions module calls this in the transaction of
// every action created or changed (the form, PATCH /api/actions/{id}, the hourly overdue sweep).
registerActionSource('observation', {
  onActionsChanged: async (tx, ids) => {
    await syncStatuses(tx, ids);
  },
  describe: async (tx, ids) => {
    const rows = ids.length
      ? await tx.select({ id: observations.id, serial: observations.serial }).from(observations).where(inArray(observations.id, ids))
      : [];
    return new Map(rows.map((r) => [r.id, { serial: r.serial, label: formatObservationSerial(r.serial) }]));
  },
  channel: 'observations',
});

// An observation's photos and documents are for whoever may read observations.
registerFileGate('observations', async (tx, p, fileId) => {
  const linked = await tx
    .select({ id: observationAttachments.observationId })
    .from(observationAttachments)
    .where(eq(observationAttachments.fileId, fileId))
    .limit(1);
  if (linked.length === 0) return undefined;
  return can(p.access, 'Observation', 'read');
});

/**
 * Observations (spec 001 §2, §3, §4, §5, §7): the list with status tabs and Excel export, the form
 * data, staff and guest reports with attachments, edits, actions and closing, the Excel import, the
 * PDF report. The overdue sweep is the actions module's; this module follows it through the hook.
 */
export const observationsModule: ServerModule = {
  name: 'observations',
  routes: observationRoutes,
};
