import { can, formatObservationSerial } from '@bulwark/domain';
import { eq, inArray } from 'drizzle-orm';
import { registerFileGate } from '../../platform/storage/gates.js';
import { registerFileLinks } from '../../platform/storage/links.js';
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

// An observation's photos and documents are for whoever may read observations; a guest's, for the
// guest that reported it.
registerFileGate(
  'observations',
  async (tx, p, fileId) => {
    const linked = await tx
      .select({ reporterId: observations.reporterId })
      .from(observationAttachments)
      .innerJoin(observations, eq(observations.id, observationAttachments.observationId))
      .where(eq(observationAttachments.fileId, fileId));
    if (linked.length === 0) return undefined;
    if (p.kind === 'guest') return linked.some((o) => o.reporterId === p.userId);
    return can(p.access, 'Observation', 'read');
  },
  { guests: true },
);

// An observation links its attachments: the storage screen names it, and the sweep leaves them.
registerFileLinks('observations', {
  column: observationAttachments.fileId,
  describe: async (tx, fileIds) =>
    (
      await tx
        .select({ fileId: observationAttachments.fileId, id: observations.id, serial: observations.serial })
        .from(observationAttachments)
        .innerJoin(observations, eq(observations.id, observationAttachments.observationId))
        .where(inArray(observationAttachments.fileId, [...fileIds]))
    ).map((r) => ({
      fileId: r.fileId,
      kind: 'observation' as const,
      label: formatObservationSerial(r.serial),
      path: `/observations/summary/${r.id}`,
    })),
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
