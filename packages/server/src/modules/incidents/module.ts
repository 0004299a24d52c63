import { can, formatIncidentSerial } from '@bulwark/domain';
import { eq, inArray } from 'drizzle-orm';
import { registerFileGate } from '../../platform/storage/gates.js';
import { registerFileLinks } from '../../platform/storage/links.js';
import { registerActionSource } from '../actions/service.js';
import type { ServerModule } from '../module.js';
import { registerReviewSubject } from '../workflows/review.js';
import { incidentPath } from './notify.js';
import { describeForReview, onReviewDecided } from './review.js';
import { incidentRoutes } from './routes.js';
import { INCIDENTS_SWEEP_QUEUE, sweepIncidents } from './sweep.js';
import { incidentAttachments, incidentReportSends, incidents } from './tables.js';

const describeIncidents = async (tx: Parameters<Parameters<typeof registerActionSource>[1]['onActionsChanged']>[0], ids: string[]) => {
  const rows = ids.length
    ? await tx.select({ id: incidents.id, serial: incidents.serial }).from(incidents).where(inArray(incidents.id, ids))
    : [];
  return new Map(rows.map((r) => [r.id, { serial: r.serial, label: formatIncidentSerial(r.serial) }]));
};

// CAPA actions are actions of source `incident`. The incident's status follows its target date, not its
// actions, so nothing changes here; the incident's screens still hear that its actions moved.
registerActionSource('incident', {
  onActionsChanged: async () => {},
  describe: describeIncidents,
  channel: 'incidents',
});

// The investigation goes through the site's review workflow (workflows/review.ts); a decision moves it on.
registerReviewSubject('incidents', {
  subject: 'Incident',
  describe: describeForReview,
  onDecided: onReviewDecided,
  channel: 'incidents',
});

// An incident's photos, evidence and sent reports are for whoever may read incidents; a guest's report
// files, for the guest that reported it.
registerFileGate(
  'incidents',
  async (tx, p, fileId) => {
    const linked = await tx
      .select({ reporterId: incidents.reporterId, kind: incidentAttachments.kind })
      .from(incidentAttachments)
      .innerJoin(incidents, eq(incidents.id, incidentAttachments.incidentId))
      .where(eq(incidentAttachments.fileId, fileId));
    const sent = await tx.select({ id: incidentReportSends.id }).from(incidentReportSends).where(eq(incidentReportSends.fileId, fileId));
    if (linked.length === 0 && sent.length === 0) return undefined;
    if (p.kind === 'guest') return linked.some((o) => o.kind === 'report' && o.reporterId === p.userId);
    return can(p.access, 'Incident', 'read');
  },
  { guests: true },
);

// An incident links its attachments and evidence, and the PDFs it sent: the storage screen names it.
registerFileLinks('incidents', {
  column: incidentAttachments.fileId,
  describe: async (tx, fileIds) =>
    (
      await tx
        .select({ fileId: incidentAttachments.fileId, id: incidents.id, serial: incidents.serial })
        .from(incidentAttachments)
        .innerJoin(incidents, eq(incidents.id, incidentAttachments.incidentId))
        .where(inArray(incidentAttachments.fileId, [...fileIds]))
    ).map((r) => ({ fileId: r.fileId, kind: 'incident' as const, label: formatIncidentSerial(r.serial), path: incidentPath(r.id) })),
});
registerFileLinks('incident-reports', {
  column: incidentReportSends.fileId,
  describe: async (tx, fileIds) =>
    (
      await tx
        .select({ fileId: incidentReportSends.fileId, id: incidents.id, serial: incidents.serial })
        .from(incidentReportSends)
        .innerJoin(incidents, eq(incidents.id, incidentReportSends.incidentId))
        .where(inArray(incidentReportSends.fileId, [...fileIds]))
    ).map((r) => ({ fileId: r.fileId!, kind: 'incident' as const, label: formatIncidentSerial(r.serial), path: incidentPath(r.id) })),
});

/**
 * Incidents (spec 000 §2, spec 001 §2–§7, issue 14): reports by staff and guests with victims, the
 * seven-step investigation with CAPA actions and the review workflow, closing, the PDF report and its
 * mailing, the list, the hourly overdue sweep and the OSHA 300, 300A and 301 forms.
 */
export const incidentsModule: ServerModule = {
  name: 'incidents',
  routes: incidentRoutes,
  jobs: (deps) => ({
    handlers: {
      [INCIDENTS_SWEEP_QUEUE]: async () => {
        await sweepIncidents(deps);
      },
    },
    schedules: [{ name: INCIDENTS_SWEEP_QUEUE, cron: '20 * * * *' }],
  }),
};
