import { formatObservationSerial } from '@bulwark/domain';
import { inArray } from 'drizzle-orm';
import { registerActionSource } from '../actions/service.js';
import type { ServerModule } from '../module.js';
import { observationRoutes } from './routes.js';
import { syncStatuses } from './service.js';
import { observations } from './tables.js';

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

/**
 * Observations (spec 001 §2, §3, §4, §5, §7): the list with status tabs and Excel export, the form
 * data, staff and guest reports with attachments, edits, actions and closing, the Excel import, the
 * PDF report. The overdue sweep is the actions module's; this module follows it through the hook.
 */
export const observationsModule: ServerModule = {
  name: 'observations',
  routes: observationRoutes,
};
