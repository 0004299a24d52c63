import { auditPath, can, formatAuditSerial } from '@bulwark/domain';
import { eq, inArray } from 'drizzle-orm';
import type { Tx } from '../../platform/db/db.js';
import { registerFileGate } from '../../platform/storage/gates.js';
import { registerFileLinks } from '../../platform/storage/links.js';
import { registerActionSource } from '../actions/service.js';
import type { ServerModule } from '../module.js';
import { registerReviewSubject } from '../workflows/review.js';
import { describeForReview, onReviewDecided } from './run.js';
import { auditRoutes } from './routes.js';
import { AUDITS_SCHEDULE_QUEUE, runAuditSchedules } from './scheduler.js';
import { auditFiles, auditReportSends, auditReportSettings, audits } from './tables.js';
import { templateRoutes } from './template-routes.js';

const describeAudits = async (tx: Tx, ids: string[]) => {
  const rows = ids.length ? await tx.select({ id: audits.id, serial: audits.serial }).from(audits).where(inArray(audits.id, ids)) : [];
  return new Map(rows.map((r) => [r.id, { serial: r.serial, label: formatAuditSerial(r.serial) }]));
};

// Key findings are actions of source `audit` (listed at /actions/audits). An audit's status follows its
// run and review, not its actions; its screens still hear that its actions moved.
registerActionSource('audit', { onActionsChanged: async () => {}, describe: describeAudits, channel: 'audits' });

// A completed audit goes through its site's (or its template's) review workflow; the decision moves it on.
registerReviewSubject('audits', { subject: 'Audit', describe: describeForReview, onDecided: onReviewDecided, channel: 'audits' });

// An audit's photos, documents, signatures, pictures and sent reports are for whoever may read audits;
// the report logo is the organisation's, shown to its members.
registerFileGate('audits', async (tx, p, fileId) => {
  const [linked] = await tx.select({ id: auditFiles.fileId }).from(auditFiles).where(eq(auditFiles.fileId, fileId));
  if (linked) return can(p.access, 'Audit', 'read');
  const [logo] = await tx
    .select({ id: auditReportSettings.logoFileId })
    .from(auditReportSettings)
    .where(eq(auditReportSettings.logoFileId, fileId));
  return logo ? p.kind === 'member' : undefined;
});

const describeLinks = async (tx: Tx, fileIds: readonly string[], column: typeof auditFiles.fileId | typeof auditReportSends.fileId) => {
  const table = column === auditFiles.fileId ? auditFiles : auditReportSends;
  const rows = await tx
    .select({ fileId: column, id: audits.id, serial: audits.serial })
    .from(table)
    .innerJoin(audits, eq(audits.id, table.auditId))
    .where(inArray(column, [...fileIds]));
  return rows.map((r) => ({ fileId: r.fileId!, kind: 'audit' as const, label: formatAuditSerial(r.serial), path: auditPath(r.id) }));
};
registerFileLinks('audits', { column: auditFiles.fileId, describe: (tx, ids) => describeLinks(tx, ids, auditFiles.fileId) });
registerFileLinks('audit-reports', {
  column: auditReportSends.fileId,
  describe: (tx, ids) => describeLinks(tx, ids, auditReportSends.fileId),
});
registerFileLinks('audit-report-logo', {
  column: auditReportSettings.logoFileId,
  describe: async (tx, ids) =>
    (
      await tx
        .select({ fileId: auditReportSettings.logoFileId })
        .from(auditReportSettings)
        .where(inArray(auditReportSettings.logoFileId, [...ids]))
    ).map((r) => ({ fileId: r.fileId!, kind: 'audit_report_logo' as const, label: '', path: '/audit-forms' })),
});

/**
 * Audits (spec 000 §2, §7; spec 001 §2–§9; issue 17): templates with their sections and questions,
 * schedules and the hourly job that makes due audits once and marks overdue ones, running an audit
 * with its score and key findings, its review, the lists, summaries, calendar, trends and reports.
 */
export const auditsModule: ServerModule = {
  name: 'audits',
  routes: (r) => {
    templateRoutes(r);
    auditRoutes(r);
  },
  jobs: (deps) => ({
    handlers: {
      [AUDITS_SCHEDULE_QUEUE]: async () => {
        await runAuditSchedules(deps);
      },
    },
    schedules: [{ name: AUDITS_SCHEDULE_QUEUE, cron: '5 * * * *' }],
  }),
};
