import {
  auditFormQuestions,
  type AuditFailedQuestion,
  type AuditSectionSummary,
  type AuditSummary,
  type AuditTotalSummary,
} from '@bulwark/domain';
import { and, count, desc, eq, inArray, sql, type SQL } from 'drizzle-orm';
import type { Tx } from '../../platform/db/db.js';
import { actionStatusesOf } from '../actions/service.js';
import { sites } from '../sites/read.js';
import { whereOf, type AuditFilters } from './list.js';
import { loadAudit } from './record.js';
import { auditAnswers, auditKeyFindings, audits, auditTemplateQuestions, auditTemplates, auditTemplateSections } from './tables.js';
import { answersOf, formOf, scoreOf } from './view.js';

/** The section-wise and total summaries of one audit, and the summary across audits. */

const percentOf = (obtained: number, assigned: number) => (assigned > 0 ? Math.round((obtained / assigned) * 1000) / 10 : null);

/** GET /api/audits/{id}/audit_section_wise_summary. */
export async function sectionSummary(tx: Tx, id: string): Promise<AuditSectionSummary[]> {
  const a = await loadAudit(tx, id);
  const form = await formOf(tx, a);
  const answers = await answersOf(tx, a.id);
  const { results } = scoreOf(form, answers);
  const byQuestion = new Map(results.map((r) => [r.question_id, r]));
  const cells = new Map(answers.map((x) => [x.questionId, x.cells]));
  return [...form.sections]
    .sort((x, y) => x.position - y.position)
    .map((s) => {
      const rs = s.questions.map((q) => ({ q, r: byQuestion.get(q.id)! }));
      const answered = rs.filter(({ r }) => r.shown && r.answered);
      const choiceCount = (key: string) =>
        answered
          .filter(({ q }) => q.type === 'yes_no')
          .reduce((n, { q }) => n + (cells.get(q.id) ?? []).filter((c) => !c.na && c.choice[0] === key).length, 0);
      const obtained = rs.reduce((n, { r }) => n + (r.obtained ?? 0), 0);
      const assigned = rs.reduce((n, { r }) => n + (r.assigned ?? 0), 0);
      return {
        id: s.id,
        name: s.name,
        questions: s.questions.length,
        shown: rs.filter(({ r }) => r.shown).length,
        answered: answered.length,
        yes: choiceCount('yes'),
        no: choiceCount('no'),
        na: answered.reduce((n, { q }) => n + (cells.get(q.id) ?? []).filter((c) => c.na).length, 0),
        failed: rs.filter(({ r }) => r.failed).length,
        obtained,
        assigned,
        percent: form.scoring ? percentOf(obtained, assigned) : null,
      };
    });
}

function actionCounts(statuses: string[]) {
  return {
    total: statuses.length,
    open: statuses.filter((s) => s === 'open' || s === 'in_progress').length,
    overdue: statuses.filter((s) => s === 'overdue').length,
    done: statuses.filter((s) => s === 'completed' || s === 'closed').length,
  };
}

/** GET /api/audits/{id}/audit_total_summary. */
export async function totalSummary(tx: Tx, id: string): Promise<AuditTotalSummary> {
  const a = await loadAudit(tx, id);
  const form = await formOf(tx, a);
  const { results, score } = scoreOf(form, await answersOf(tx, a.id));
  const [findings] = await tx.select({ n: count() }).from(auditKeyFindings).where(eq(auditKeyFindings.auditId, a.id));
  return {
    score,
    questions: {
      total: auditFormQuestions(form).length,
      shown: results.filter((r) => r.shown).length,
      answered: results.filter((r) => r.shown && r.answered).length,
      na: results.filter((r) => r.shown && r.na).length,
      failed: results.filter((r) => r.failed).length,
      critical_failed: results.filter((r) => r.critical_failed).length,
    },
    key_findings: findings!.n,
    actions: actionCounts((await actionStatusesOf(tx, 'audit', [a.id])).get(a.id) ?? []),
  };
}

/**
 * The questions failed most often among the audits `where` picks: how often each failed of how often it
 * was answered, with its label (the template's now, or the audit's copy once removed from the template).
 */
export async function mostFailed(tx: Tx, where: SQL | undefined, limit = 10): Promise<AuditFailedQuestion[]> {
  const rows = await tx
    .select({
      questionId: auditAnswers.questionId,
      templateId: audits.templateId,
      failures: sql<number>`(count(*) filter (where ${auditAnswers.failed}))::int`,
      answers: sql<number>`(count(*) filter (where ${auditAnswers.answered}))::int`,
    })
    .from(auditAnswers)
    .innerJoin(audits, and(eq(audits.organizationId, auditAnswers.organizationId), eq(audits.id, auditAnswers.auditId)))
    .where(where)
    .groupBy(auditAnswers.questionId, audits.templateId)
    .having(sql`count(*) filter (where ${auditAnswers.failed}) > 0`)
    .orderBy(desc(sql`count(*) filter (where ${auditAnswers.failed})`), auditAnswers.questionId)
    .limit(limit);
  if (rows.length === 0) return [];
  const labels = new Map(
    (
      await tx
        .select({
          id: auditTemplateQuestions.id,
          label: auditTemplateQuestions.label,
          critical: auditTemplateQuestions.critical,
          section: auditTemplateSections.name,
        })
        .from(auditTemplateQuestions)
        .innerJoin(auditTemplateSections, eq(auditTemplateSections.id, auditTemplateQuestions.sectionId))
        .where(
          inArray(
            auditTemplateQuestions.id,
            rows.map((r) => r.questionId),
          ),
        )
    ).map((r) => [r.id, r]),
  );
  const templates = new Map(
    (
      await tx
        .select({ id: auditTemplates.id, name: auditTemplates.name })
        .from(auditTemplates)
        .where(
          inArray(
            auditTemplates.id,
            rows.map((r) => r.templateId),
          ),
        )
    ).map((t) => [t.id, t]),
  );
  const out: AuditFailedQuestion[] = [];
  for (const r of rows) {
    let label = labels.get(r.questionId);
    if (!label) {
      const [copy] = await tx
        .select({ form: audits.form })
        .from(audits)
        .innerJoin(auditAnswers, and(eq(auditAnswers.organizationId, audits.organizationId), eq(auditAnswers.auditId, audits.id)))
        .where(eq(auditAnswers.questionId, r.questionId))
        .limit(1);
      const section = copy?.form?.sections.find((s) => s.questions.some((q) => q.id === r.questionId));
      const q = section?.questions.find((x) => x.id === r.questionId);
      label = { id: r.questionId, label: q?.label ?? '', critical: q?.critical ?? false, section: section?.name ?? '' };
    }
    out.push({
      question_id: r.questionId,
      label: label.label,
      section: label.section,
      template: templates.get(r.templateId) ?? { id: r.templateId, name: '' },
      critical: label.critical,
      failures: r.failures,
      answers: r.answers,
    });
  }
  return out;
}

const round = (v: number | null) => (v === null ? null : Math.round(Number(v) * 10) / 10);
const FINISHED = ['completed', 'approved'] as const;

/** POST /api/audits/auditSummaryInfo: across the audits the filters pick (`/audit-summary`). */
export async function summaryInfo(tx: Tx, f: AuditFilters): Promise<AuditSummary> {
  const where = whereOf({ ...f, tab: undefined });
  const byStatus = new Map(
    (await tx.select({ status: audits.status, n: count() }).from(audits).where(where).groupBy(audits.status)).map((r) => [r.status, r.n]),
  );
  const n = (s: string) => byStatus.get(s as never) ?? 0;
  const [timing] = await tx
    .select({
      onTime: sql<number>`(count(*) filter (where ${audits.completedAt} is not null and ${audits.overdueAt} is null))::int`,
      late: sql<number>`(count(*) filter (where ${audits.completedAt} is not null and ${audits.overdueAt} is not null))::int`,
      avg: sql<number | null>`avg(${audits.scorePercent}) filter (where ${audits.status} in ('completed', 'approved'))`,
    })
    .from(audits)
    .where(where);
  const ids = (await tx.select({ id: audits.id }).from(audits).where(where)).map((r) => r.id);
  const [findings] = ids.length
    ? await tx.select({ n: count() }).from(auditKeyFindings).where(inArray(auditKeyFindings.auditId, ids))
    : [{ n: 0 }];
  const statuses = [...(await actionStatusesOf(tx, 'audit', ids)).values()].flat();
  const templateName = sql<string>`(select t.name from ${auditTemplates} t where t.organization_id = ${audits.organizationId} and t.id = ${audits.templateId} limit 1)`;
  const siteName = sql<string>`(select s.name from ${sites} s where s.organization_id = ${audits.organizationId} and s.id = ${audits.siteId} limit 1)`;
  const byTemplate = await tx
    .select({
      id: audits.templateId,
      name: sql<string>`min(${templateName})`,
      audits: sql<number>`count(*)::int`,
      completed: sql<number>`(count(*) filter (where ${audits.status} in ('completed', 'approved')))::int`,
      avg: sql<number | null>`avg(${audits.scorePercent}) filter (where ${audits.status} in ('completed', 'approved'))`,
    })
    .from(audits)
    .where(where)
    .groupBy(audits.templateId);
  const bySite = await tx
    .select({
      id: audits.siteId,
      name: sql<string>`min(${siteName})`,
      audits: sql<number>`count(*)::int`,
      completed: sql<number>`(count(*) filter (where ${audits.status} in ('completed', 'approved')))::int`,
      avg: sql<number | null>`avg(${audits.scorePercent}) filter (where ${audits.status} in ('completed', 'approved'))`,
    })
    .from(audits)
    .where(where)
    .groupBy(audits.siteId);
  const shape = (r: { id: string; name: string; audits: number; completed: number; avg: number | null }) => ({
    audits: r.audits,
    completed: r.completed,
    average_score: round(r.avg),
  });
  return {
    counts: {
      scheduled: n('scheduled'),
      in_progress: n('in_progress') + n('rejected'),
      overdue: n('overdue'),
      completed: n('completed'),
      approved: n('approved'),
      rejected: n('rejected'),
      total: [...byStatus.values()].reduce((x, y) => x + y, 0),
    },
    on_time: timing!.onTime,
    late: timing!.late,
    average_score: round(timing!.avg),
    key_findings: findings!.n,
    actions: actionCounts(statuses),
    by_template: byTemplate.map((r) => ({ template: { id: r.id, name: r.name }, ...shape(r) })).sort((a, b) => b.audits - a.audits),
    by_site: bySite.map((r) => ({ site: { id: r.id, name: r.name }, ...shape(r) })).sort((a, b) => b.audits - a.audits),
    most_failed: await mostFailed(tx, and(where, inArray(audits.status, [...FINISHED, 'rejected']))),
  };
}
