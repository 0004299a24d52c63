import {
  auditProgress,
  auditQuestionResults,
  auditScore,
  formatAuditSerial,
  type Audit,
  type AuditAnswer,
  type AuditForm,
  type AuditQuestionResult,
} from '@bulwark/domain';
import { asc, eq } from 'drizzle-orm';
import type { Principal } from '../../platform/auth/principal.js';
import type { Tx } from '../../platform/db/db.js';
import { actionsOfSource } from '../actions/service.js';
import { siteFullNames } from '../sites/service.js';
import { namesOf, personOf, sitesByIds } from './common.js';
import { fileViews, filesOfAudit } from './files.js';
import { auditContext, auditTimeline, type AuditRow } from './record.js';
import { auditAnswers, auditKeyFindings, auditTemplates } from './tables.js';
import { currentForm } from './template-form.js';

type AnswerRow = typeof auditAnswers.$inferSelect;

/** The form an audit runs: its own copy once started, before that the template's as it is now. */
export async function formOf(tx: Tx, row: AuditRow): Promise<AuditForm> {
  return row.form ?? currentForm(tx, row.templateId);
}

export async function answersOf(tx: Tx, auditId: string): Promise<AnswerRow[]> {
  return tx.select().from(auditAnswers).where(eq(auditAnswers.auditId, auditId)).orderBy(asc(auditAnswers.answeredAt));
}

/** The results, score and progress of answers against a form. */
export function scoreOf(form: AuditForm, answers: readonly AnswerRow[]) {
  const results = auditQuestionResults(
    form,
    answers.map((a) => ({ question_id: a.questionId, cells: a.cells })),
  );
  return {
    results,
    score: auditScore(results, form.scoring),
    progress: auditProgress(form, results),
    shown: results.filter((r) => r.shown).map((r) => r.question_id),
  };
}

/** Answers as the API shows them, with their files and what they earned. */
export async function answerViews(
  tx: Tx,
  auditId: string,
  answers: readonly AnswerRow[],
  results: readonly AuditQuestionResult[],
): Promise<AuditAnswer[]> {
  const links = (await filesOfAudit(tx, auditId)).filter((l) => l.kind === 'answer');
  const views = await fileViews(
    tx,
    links.map((l) => l.fileId),
  );
  const names = await namesOf(
    tx,
    answers.map((a) => a.answeredBy),
  );
  const byQuestion = new Map(results.map((r) => [r.question_id, r]));
  return answers.map((a) => {
    const cellFiles = new Set(a.cells.flatMap((c) => c.file_ids));
    const own = links
      .filter((l) => l.questionId === a.questionId)
      .map((l) => views.get(l.fileId)!)
      .filter(Boolean);
    const r = byQuestion.get(a.questionId);
    return {
      question_id: a.questionId,
      cells: a.cells,
      remark: a.remark,
      attachments: own.filter((f) => !cellFiles.has(f.id)),
      cell_files: own.filter((f) => cellFiles.has(f.id)),
      answered: a.answered,
      failed: r?.failed ?? false,
      obtained: r?.obtained ?? null,
      assigned: r?.assigned ?? null,
      answered_by: personOf(names, a.answeredBy),
      answered_at: a.answeredAt.toISOString(),
    };
  });
}

/** The key findings with their pictures and the actions they became. */
export async function findingViews(tx: Tx, auditId: string): Promise<Audit['key_findings']> {
  const rows = await tx
    .select()
    .from(auditKeyFindings)
    .where(eq(auditKeyFindings.auditId, auditId))
    .orderBy(asc(auditKeyFindings.createdAt), asc(auditKeyFindings.id));
  const links = (await filesOfAudit(tx, auditId)).filter((l) => l.kind === 'finding');
  const views = await fileViews(
    tx,
    links.map((l) => l.fileId),
  );
  const actions = new Map((await actionsOfSource(tx, 'audit', auditId)).map((a) => [a.id, a]));
  const names = await namesOf(
    tx,
    rows.map((r) => r.createdBy),
  );
  return rows.map((f) => ({
    id: f.id,
    description: f.description,
    question_id: f.questionId,
    pictures: links.filter((l) => l.findingId === f.id).map((l) => views.get(l.fileId)!),
    action: f.actionId ? (actions.get(f.actionId) ?? null) : null,
    created_by: personOf(names, f.createdBy),
    created_at: f.createdAt.toISOString(),
  }));
}

/** GET /api/v2/audits/{id}: the audit as the requester sees it. */
export async function auditView(tx: Tx, viewer: Principal, id: string): Promise<Audit> {
  const ctx = await auditContext(tx, viewer, id);
  const a = ctx.row;
  const [t] = await tx.select().from(auditTemplates).where(eq(auditTemplates.id, a.templateId));
  const site = (await sitesByIds(tx, [a.siteId])).get(a.siteId)!;
  const node = a.siteNodeId ? (await siteFullNames(tx, false)).find((n) => n.id === a.siteNodeId) : undefined;
  const form = await formOf(tx, a);
  const answers = await answersOf(tx, a.id);
  const { results, score, progress, shown } = scoreOf(form, answers);
  const names = await namesOf(tx, [a.auditorId, a.auditeeId, a.startedBy, a.completedBy, a.decidedBy]);
  const audited = (await filesOfAudit(tx, a.id)).filter((l) => l.kind === 'audit');
  const auditFileViews = await fileViews(
    tx,
    audited.map((l) => l.fileId),
  );
  return {
    id: a.id,
    serial: a.serial,
    serial_label: formatAuditSerial(a.serial),
    template: { id: t!.id, name: t!.name, type: t!.type, icon: t!.icon, scoring: form.scoring, description: t!.description },
    schedule_id: a.scheduleId,
    frequency: a.frequency,
    site: { id: site.id, name: site.name, time_zone: site.timeZone },
    site_node: node ? { id: node.id, level: node.level as 'division' | 'department' | 'unit', full_name: node.full_name } : null,
    auditor: personOf(names, a.auditorId) ?? { id: a.auditorId, full_name: '' },
    auditee: personOf(names, a.auditeeId),
    due_date: a.dueDate,
    window_end: a.windowEnd,
    status: a.status,
    late: a.overdueAt !== null,
    started_at: a.startedAt?.toISOString() ?? null,
    started_by: personOf(names, a.startedBy),
    completed_at: a.completedAt?.toISOString() ?? null,
    completed_by: personOf(names, a.completedBy),
    completed_on: a.completedOn,
    decided_at: a.decidedAt?.toISOString() ?? null,
    decided_by: personOf(names, a.decidedBy),
    decision_comment: a.decisionComment,
    declaration_accepted: a.declarationAccepted,
    form,
    answers: await answerViews(tx, a.id, answers, results),
    shown_question_ids: shown,
    progress,
    score,
    failed_count: results.filter((r) => r.failed).length,
    critical_failed_count: results.filter((r) => r.critical_failed).length,
    notes: a.notes,
    attachments: audited.map((l) => auditFileViews.get(l.fileId)!),
    key_findings: await findingViews(tx, a.id),
    actions: await actionsOfSource(tx, 'audit', a.id),
    review: ctx.review,
    timeline: await auditTimeline(tx, a.id, ctx.review),
    permissions: ctx.abilities,
    created_at: a.createdAt.toISOString(),
    updated_at: a.updatedAt.toISOString(),
  };
}
