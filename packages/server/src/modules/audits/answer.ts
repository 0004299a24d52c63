import { randomUUID } from 'node:crypto';
import {
  auditAnswerProblems,
  auditFormQuestions,
  auditNoticeTriggered,
  auditShownQuestions,
  type AuditAnswerCell,
  type AuditAnswerResult,
  type AuditAnswerSave,
  type AuditForm,
  type AuditQuestion,
} from '@bulwark/domain';
import { and, eq } from 'drizzle-orm';
import type { Principal } from '../../platform/auth/principal.js';
import { recordAudit } from '../../platform/audit.js';
import type { Tx } from '../../platform/db/db.js';
import { AppError } from '../../platform/errors.js';
import { dispatchTemplatedMail, type QueuedTemplatedMail } from '../mailers/send.js';
import { announce, AUDIT_ENTITY, mailAboutAudit, refuse, sitesByIds, type AuditsDeps, type FieldErrors } from './common.js';
import { answerLines } from './answer-text.js';
import { refusedFiles, setLinkedFiles } from './files.js';
import { auditContext, refuseStep, type AuditRow } from './record.js';
import { auditAnswers, audits, auditTemplates } from './tables.js';
import { answersOf, answerViews, scoreOf } from './view.js';

/**
 * PATCH /api/modify_audits/{id}: one answer, saved as it is given. The same body twice leaves the same
 * answer and tells nobody twice; a hidden question takes no answer. What the answer changes is stored
 * at once (each answer's points and failure, the audit's score and counts), and a critical question
 * newly failed tells the site's head of safety while the audit still runs.
 */
export async function saveAnswer(tx: Tx, deps: AuditsDeps, actor: Principal, id: string, body: AuditAnswerSave, now = new Date()) {
  const ctx = await auditContext(tx, actor, id, true);
  refuseStep(ctx, 'answer');
  const a = ctx.row;
  let form = a.form!;
  let q = auditFormQuestions(form).find((x) => x.id === body.question_id);
  if (!q) throw new AppError('validation_failed', { fields: { question_id: 'audits.validation.questionUnknown' } });

  const fields: FieldErrors = {};
  if (body.add_option) {
    const added = addOption(form, q, body.add_option);
    if (!added) fields['add_option'] = 'audits.validation.addOptionNotAllowed';
    else if (added.form !== form) {
      form = added.form;
      q = added.question;
      await tx.update(audits).set({ form }).where(eq(audits.id, a.id));
    }
  }
  refuse(fields);

  const before = await answersOf(tx, a.id);
  if (
    !auditShownQuestions(
      form,
      before.map((x) => ({ question_id: x.questionId, cells: x.cells })),
    ).has(q.id)
  )
    throw new AppError('conflict', { messageKey: 'audits.validation.questionHidden' });
  const previous = scoreOf(form, before);
  const prevAnswer = before.find((x) => x.questionId === q.id);
  const owner = { auditId: a.id, kind: 'answer' as const, questionId: q.id };
  let purges: Array<() => Promise<void>> = [];

  if (body.cells === null) {
    await tx.delete(auditAnswers).where(and(eq(auditAnswers.auditId, a.id), eq(auditAnswers.questionId, q.id)));
    purges = await setLinkedFiles(tx, deps, owner, []);
  } else {
    const cells: AuditAnswerCell[] = body.cells.map((c) => ({ ...c, choice: c.choice.map((k) => keyOf(q!, k)) }));
    Object.assign(fields, auditAnswerProblems(q, cells));
    if (body.attachment_ids.length && !q.attachments) fields['attachment_ids'] = 'audits.validation.attachmentsNotAllowed';
    const cellFiles = cells.flatMap((c) => c.file_ids);
    if ((await refusedFiles(tx, actor.userId, owner, cellFiles, 'image/')).length) fields['cells'] = 'audits.validation.fileUnknown';
    if ((await refusedFiles(tx, actor.userId, owner, body.attachment_ids)).length)
      fields['attachment_ids'] = 'audits.validation.fileUnknown';
    refuse(fields);
    const values = { cells, remark: body.remark, answered: true, answeredBy: actor.userId, answeredAt: now };
    await tx
      .insert(auditAnswers)
      .values({ auditId: a.id, questionId: q.id, ...values })
      .onConflictDoUpdate({ target: [auditAnswers.organizationId, auditAnswers.auditId, auditAnswers.questionId], set: values });
    purges = await setLinkedFiles(tx, deps, owner, [...new Set([...cellFiles, ...body.attachment_ids])]);
  }

  const answers = await answersOf(tx, a.id);
  const next = scoreOf(form, answers);
  await storeResults(tx, a, answers, next);
  const result = next.results.find((r) => r.question_id === q.id)!;
  const wasCritical = previous.results.find((r) => r.question_id === q.id)?.critical_failed ?? false;
  const criticalNow = result.critical_failed && !wasCritical;
  const mail: QueuedTemplatedMail[] = [];
  const saved = answers.find((x) => x.questionId === q.id);
  if (saved) {
    if (criticalNow) mail.push(...(await tellCriticalFailure(tx, deps, actor, a, q, saved.cells)));
    const sameAsBefore = prevAnswer && JSON.stringify(prevAnswer.cells) === JSON.stringify(saved.cells);
    if (q.notify && auditNoticeTriggered(q, saved.cells) && !sameAsBefore)
      mail.push(...(await tellNotice(tx, deps, actor, a, q, saved.cells)));
  }
  await recordAudit(tx, {
    actorUserId: actor.userId,
    action: 'audit_answered',
    entity: AUDIT_ENTITY,
    entityId: a.id,
    changes: { question_id: q.id, cells: body.cells, remark: body.remark },
  });
  const view = saved ? (await answerViews(tx, a.id, [saved], next.results))[0]! : null;
  const answer: AuditAnswerResult = {
    answer: view,
    question_options: q.type === 'choice' ? q.options.map((o) => ({ key: o.key, label: o.label })) : null,
    shown_question_ids: next.shown,
    progress: next.progress,
    score: next.score,
    critical_failure: criticalNow,
  };
  return {
    answer,
    afterCommit: async () => {
      announce(deps, actor.organizationId, a.id);
      if (mail.length) await dispatchTemplatedMail(deps, mail);
      await Promise.allSettled(purges.map((p) => p()));
    },
  };
}

/** An option key, or the label of an option of the question (an option just added has no key the web knows). */
function keyOf(q: AuditQuestion, named: string): string {
  return q.options.find((o) => o.key === named)?.key ?? q.options.find((o) => o.label.toLowerCase() === named.toLowerCase())?.key ?? named;
}

/** "Add options" while answering: the audit's copy of the question takes the option (once: the same label twice is one option). */
function addOption(form: AuditForm, q: AuditQuestion, label: string): { form: AuditForm; question: AuditQuestion } | null {
  if (q.type !== 'choice' || !q.add_options) return null;
  if (q.options.some((o) => o.label.toLowerCase() === label.toLowerCase())) return { form, question: q };
  const question = { ...q, options: [...q.options, { key: randomUUID(), label, score: 0, failure: false, added: true }] };
  return {
    question,
    form: { ...form, sections: form.sections.map((s) => ({ ...s, questions: s.questions.map((x) => (x.id === q.id ? question : x)) })) },
  };
}

/** Each answer's points and failure as the form shows it now (a changed parent hides or shows children), and the audit's totals. */
export async function storeResults(tx: Tx, a: AuditRow, answers: Awaited<ReturnType<typeof answersOf>>, s: ReturnType<typeof scoreOf>) {
  const byQuestion = new Map(s.results.map((r) => [r.question_id, r]));
  for (const x of answers) {
    const r = byQuestion.get(x.questionId);
    const failed = r?.failed ?? false;
    const obtained = r?.obtained ?? null;
    const assigned = r?.assigned ?? null;
    if (x.failed !== failed || x.obtained !== obtained || x.assigned !== assigned || x.answered !== (r?.answered ?? false))
      await tx
        .update(auditAnswers)
        .set({ failed, obtained, assigned, answered: r?.answered ?? false })
        .where(and(eq(auditAnswers.auditId, a.id), eq(auditAnswers.questionId, x.questionId)));
  }
  await tx
    .update(audits)
    .set({
      scoreObtained: s.score.obtained,
      scoreAssigned: s.score.assigned,
      scorePercent: s.score.percent,
      failedCount: s.results.filter((r) => r.failed).length,
      criticalFailedCount: s.results.filter((r) => r.critical_failed).length,
      updatedAt: new Date(),
    })
    .where(eq(audits.id, a.id));
}

async function titleOf(tx: Tx, a: AuditRow) {
  const [t] = await tx.select({ name: auditTemplates.name }).from(auditTemplates).where(eq(auditTemplates.id, a.templateId));
  return t?.name ?? '';
}

/** A critical question failed: the site's head of safety hears it at once (in the app and by mail), unless they are the auditor. */
async function tellCriticalFailure(tx: Tx, deps: AuditsDeps, actor: Principal, a: AuditRow, q: AuditQuestion, cells: AuditAnswerCell[]) {
  const site = (await sitesByIds(tx, [a.siteId])).get(a.siteId)!;
  await recordAudit(tx, {
    actorUserId: actor.userId,
    action: 'audit_critical_failure',
    entity: AUDIT_ENTITY,
    entityId: a.id,
    changes: { question_id: q.id, comment: q.label },
  });
  if (!site.headOfSafetyId || site.headOfSafetyId === actor.userId) return [];
  const title = await titleOf(tx, a);
  const m = await mailAboutAudit(tx, deps, 'audit_critical_failure', site.headOfSafetyId, a, (lang) => ({
    audit_title: title,
    site_name: site.name,
    question: q.label,
    answer: answerLines(q, cells, lang).join('; '),
    auditor_name: actor.fullName,
  }));
  return m ? [m] : [];
}

/** A question's notice (spec isNotify): the people it names and the roles it names, but never the one answering. */
async function tellNotice(tx: Tx, deps: AuditsDeps, actor: Principal, a: AuditRow, q: AuditQuestion, cells: AuditAnswerCell[]) {
  const site = (await sitesByIds(tx, [a.siteId])).get(a.siteId)!;
  const roles = q.notify!.roles;
  const who = new Set([
    ...q.notify!.user_ids,
    ...(roles.includes('head_of_safety') && site.headOfSafetyId ? [site.headOfSafetyId] : []),
    ...(roles.includes('auditee') && a.auditeeId ? [a.auditeeId] : []),
    ...(roles.includes('auditor') ? [a.auditorId] : []),
  ]);
  who.delete(actor.userId);
  const title = await titleOf(tx, a);
  const out: QueuedTemplatedMail[] = [];
  for (const userId of who) {
    const m = await mailAboutAudit(tx, deps, 'audit_answer_notice', userId, a, (lang) => ({
      audit_title: title,
      site_name: site.name,
      question: q.label,
      answer: answerLines(q, cells, lang).join('; '),
      auditor_name: actor.fullName,
    }));
    if (m) out.push(m);
  }
  return out;
}
