import { auditsApi as api, pagination, translate, type AuditBySite, type AuditListItem, type Language } from '@bulwark/domain';
import { and, eq, inArray } from 'drizzle-orm';
import type { Principal } from '../../platform/auth/principal.js';
import type { Tx } from '../../platform/db/db.js';
import { files } from '../../platform/db/schema.js';
import { AppError } from '../../platform/errors.js';
import { workbookAnswer, type ExcelColumn } from '../../platform/export/excel.js';
import { FileAnswer } from '../../platform/http/answers.js';
import type { Upload } from '../../platform/http/upload.js';
import type { Router } from '../../platform/http/route.js';
import { saveAnswer } from './answer.js';
import { actionsOfSource } from '../actions/service.js';
import { AUDIT_UPLOAD_PURPOSES } from './files.js';
import { auditFormData } from './form-data.js';
import { allAudits, auditsBySite, listAudits, tabCounts } from './list.js';
import { addKeyFindings, deleteAudit, updateAudit } from './manage.js';
import { renderAuditPdf } from './pdf.js';
import { auditContext, auditTimeline, loadAudit } from './record.js';
import { auditReport, reportSettings, saveReportSettings } from './report.js';
import { completeAudit, decideAudit, resumeAudit, saveNotes, startAudit } from './run.js';
import { sendAuditReport } from './send-report.js';
import { sectionSummary, summaryInfo, totalSummary } from './summaries.js';
import { auditFiles } from './tables.js';
import { calendar, trends } from './trends.js';
import { auditView } from './view.js';

function listColumns(lang: Language): ExcelColumn<AuditListItem>[] {
  const t = (key: string) => translate(lang, key);
  return [
    { header: t('audits.fields.serial'), key: 'serial', value: (o) => o.serial_label },
    { header: t('audits.fields.template'), key: 'template', width: 28, value: (o) => o.template.name },
    { header: t('audits.fields.type'), key: 'type', value: (o) => t(`audits.types.${o.template.type}`) },
    { header: t('audits.fields.site'), key: 'site', width: 22, value: (o) => o.site.name },
    { header: t('audits.fields.area'), key: 'area', width: 18, value: (o) => o.site_node_name },
    { header: t('audits.fields.auditor'), key: 'auditor', width: 20, value: (o) => o.auditor.full_name },
    { header: t('audits.fields.auditee'), key: 'auditee', width: 20, value: (o) => o.auditee?.full_name },
    { header: t('audits.fields.frequency'), key: 'frequency', value: (o) => t(`audits.frequencies.${o.frequency}`) },
    { header: t('audits.fields.dueDate'), key: 'due', value: (o) => o.due_date },
    { header: t('audits.fields.windowEnd'), key: 'end', value: (o) => o.window_end },
    { header: t('audits.fields.status'), key: 'status', value: (o) => t(`audits.statuses.${o.status}`) },
    { header: t('audits.fields.late'), key: 'late', value: (o) => (o.late ? t('audits.fields.yes') : '') },
    { header: t('audits.fields.score'), key: 'score', value: (o) => o.score_percent },
    { header: t('audits.fields.failed'), key: 'failed', value: (o) => o.failed_count },
    { header: t('audits.fields.criticalFailed'), key: 'critical', value: (o) => o.critical_failed_count },
    { header: t('audits.fields.keyFindings'), key: 'findings', value: (o) => o.key_findings_count },
    { header: t('audits.fields.actions'), key: 'actions', value: (o) => `${o.actions_done}/${o.actions_total}` },
    { header: t('audits.fields.completedAt'), key: 'completed', width: 18, value: (o) => o.completed_at?.slice(0, 16).replace('T', ' ') },
  ];
}

function bySiteColumns(lang: Language): ExcelColumn<AuditBySite['sites'][number]>[] {
  const t = (key: string) => translate(lang, key);
  return [
    { header: t('audits.fields.site'), key: 'site', width: 24, value: (o) => o.site.name },
    ...(['scheduled', 'in_progress', 'overdue', 'completed', 'approved'] as const).map((tab) => ({
      header: t(`audits.tabs.${tab}`),
      key: tab,
      value: (o: AuditBySite['sites'][number]) => o.counts[tab],
    })),
    { header: t('audits.excel.total'), key: 'total', value: (o) => o.counts.total },
    { header: t('audits.excel.averageScore'), key: 'average', value: (o) => o.average_score },
  ];
}

/** The audits: list, one audit, running it, its review, summaries, reports and settings. */
export function auditRoutes(r: Router) {
  const { deps } = r;
  const view = async (tx: Tx, p: Principal, id: string) => ({ audit: await auditView(tx, p, id) });

  r.route(api.formData, ({ tx }) => auditFormData(tx));
  r.route(api.list, async ({ tx, query, lang }) => {
    if (query.export_to_excel)
      return workbookAnswer(
        translate(lang, 'audits.title'),
        translate(lang, 'audits.excel.sheet'),
        listColumns(lang),
        await allAudits(tx, query),
      );
    const page = await listAudits(tx, query);
    return { audits: page.audits, pagination: pagination(page.total, query.page, query.per_page) };
  });
  r.route(api.bySite, async ({ tx, query, lang }) => {
    const result = await auditsBySite(tx, query);
    if (query.export_to_excel)
      return workbookAnswer(
        translate(lang, 'audits.excel.bySite'),
        translate(lang, 'audits.excel.bySite'),
        bySiteColumns(lang),
        result.sites,
      );
    return result;
  });
  r.route(api.statusCounts, async ({ tx, query }) => ({ counts: await tabCounts(tx, query) }));
  r.route(api.get, ({ tx, principal, params }) => view(tx, principal, params.id));
  r.route(api.update, async ({ tx, principal, params, body, afterCommit }) => {
    afterCommit(await updateAudit(tx, deps, principal, params.id, body));
    return view(tx, principal, params.id);
  });
  r.route(api.remove, async ({ tx, principal, params, afterCommit }) => {
    afterCommit(await deleteAudit(tx, deps, principal, params.id));
    return { ok: true as const };
  });

  // --- Running ------------------------------------------------------------------------------------
  r.route(api.start, async ({ tx, principal, params, body, afterCommit }) => {
    afterCommit(await startAudit(tx, deps, principal, params.id, body.comment));
    return view(tx, principal, params.id);
  });
  r.route(api.resume, async ({ tx, principal, params, body, afterCommit }) => {
    afterCommit(await resumeAudit(tx, deps, principal, params.id, body.comment));
    return view(tx, principal, params.id);
  });
  r.route(api.answer, async ({ tx, principal, params, body, afterCommit }) => {
    const saved = await saveAnswer(tx, deps, principal, params.id, body);
    afterCommit(saved.afterCommit);
    return saved.answer;
  });
  r.route(api.notes, async ({ tx, principal, params, body, afterCommit }) => {
    afterCommit(await saveNotes(tx, deps, principal, params.id, body));
    return view(tx, principal, params.id);
  });
  // Only the auditor of a running audit uploads for it, refused before a byte of the file is read.
  const runningAuditor = async ({ tx, principal, params }: { tx: Tx; principal: Principal; params: { id: string } }) => {
    const ctx = await auditContext(tx, principal, params.id);
    if (ctx.abilities.answer) return;
    if (ctx.row.auditorId !== principal.userId) throw new AppError('forbidden', { messageKey: 'audits.validation.notYourAudit' });
    throw new AppError('conflict', { messageKey: 'audits.validation.notRunning' });
  };
  const store = (tx: Tx, purpose: (typeof AUDIT_UPLOAD_PURPOSES)[number], userId: string, upload: Pick<Upload, 'fileName' | 'file'>) =>
    deps.storage.store(tx, { purpose, fileName: upload.fileName, bytes: upload.file, uploadedBy: userId });
  r.route(api.uploadPhoto, async ({ tx, principal, upload }) => ({ file: await store(tx, 'auditImage', principal.userId, upload) }), {
    beforeUpload: runningAuditor,
  });
  r.route(api.uploadDocument, async ({ tx, principal, upload }) => ({ file: await store(tx, 'auditDocument', principal.userId, upload) }), {
    beforeUpload: runningAuditor,
  });
  r.route(api.removeUpload, async ({ tx, principal, params, afterCommit }) => {
    const [own] = await tx
      .select({ id: files.id, linked: auditFiles.fileId })
      .from(files)
      .leftJoin(auditFiles, and(eq(auditFiles.organizationId, files.organizationId), eq(auditFiles.fileId, files.id)))
      .where(and(eq(files.id, params.id), eq(files.uploadedBy, principal.userId), inArray(files.purpose, [...AUDIT_UPLOAD_PURPOSES])));
    if (!own || own.linked) throw new AppError('not_found');
    const removed = await deps.storage.remove(tx, own.id);
    if (removed) afterCommit(removed.purge);
    return { ok: true as const };
  });
  r.route(api.keyFindings, async ({ tx, principal, params, body, afterCommit }) => {
    afterCommit(await addKeyFindings(tx, deps, principal, params.id, body.findings));
    return view(tx, principal, params.id);
  });
  r.route(api.complete, async ({ tx, principal, params, body, afterCommit }) => {
    afterCommit(await completeAudit(tx, deps, principal, params.id, body));
    return view(tx, principal, params.id);
  });
  r.route(api.decide, async ({ tx, principal, params, body, afterCommit }) => {
    afterCommit(await decideAudit(tx, deps, principal, params.id, body));
    return view(tx, principal, params.id);
  });

  // --- Summaries and reports ----------------------------------------------------------------------
  r.route(api.sectionSummary, async ({ tx, params }) => ({ sections: await sectionSummary(tx, params.id) }));
  r.route(api.totalSummary, ({ tx, params }) => totalSummary(tx, params.id));
  r.route(api.actionList, async ({ tx, body }) => ({
    actions: await actionsOfSource(tx, 'audit', (await loadAudit(tx, body.audit_id)).id),
  }));
  r.route(api.timeline, async ({ tx, principal, body }) => {
    const ctx = await auditContext(tx, principal, body.audit_id);
    return { timeline: await auditTimeline(tx, ctx.row.id, ctx.review) };
  });
  r.route(api.summaryInfo, ({ tx, body }) => summaryInfo(tx, body));
  r.route(api.schedulesInfo, ({ tx, body }) => calendar(tx, body));
  r.route(api.trends, ({ tx, query }) => trends(tx, query));
  r.route(api.report, async ({ tx, principal, params, lang }) => ({ report: await auditReport(tx, principal, params.id, lang) }));
  r.route(api.reportPdf, async ({ tx, principal, params, lang }) => {
    const pdf = await renderAuditPdf(tx, deps, await auditReport(tx, principal, params.id, lang), lang);
    return new FileAnswer(pdf.bytes, 'application/pdf', pdf.fileName, { disposition: 'inline' });
  });
  r.route(api.sendReport, async ({ tx, principal, params, body, lang, afterCommit }) => {
    afterCommit(await sendAuditReport(tx, deps, principal, params.id, body, lang));
    return view(tx, principal, params.id);
  });
  r.route(api.reportSettings, async ({ tx }) => ({ settings: await reportSettings(tx) }));
  r.route(api.saveReportSettings, async ({ tx, principal, body }) => {
    await saveReportSettings(tx, principal, body);
    return { settings: await reportSettings(tx) };
  });
  r.route(api.uploadReportLogo, async ({ tx, principal, upload }) => ({
    file: await deps.storage.store(tx, { purpose: 'logo', fileName: upload.fileName, bytes: upload.file, uploadedBy: principal.userId }),
  }));
}
