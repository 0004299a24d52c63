import {
  auditFormQuestions,
  type AuditTemplateCreate,
  type AuditTemplateDetail,
  type AuditType,
  type AuditTemplateSummary,
  type AuditTemplateUpdate,
} from '@bulwark/domain';
import { and, asc, count, eq, ilike, inArray, sql } from 'drizzle-orm';
import type { Principal } from '../../platform/auth/principal.js';
import { recordAudit } from '../../platform/audit.js';
import type { Tx } from '../../platform/db/db.js';
import { AppError } from '../../platform/errors.js';
import { freeLimits, refuseOverLimit, TEMPLATE_ENTITY } from './common.js';
import { auditSchedules, auditTemplateQuestions, audits, auditTemplates, auditTemplateSections } from './tables.js';
import { templateSections } from './template-form.js';

type TemplateRow = typeof auditTemplates.$inferSelect;

async function countsOf(tx: Tx, ids: string[]) {
  const by = async (table: typeof audits | typeof auditSchedules) =>
    new Map(
      (
        await tx.select({ id: table.templateId, n: count() }).from(table).where(inArray(table.templateId, ids)).groupBy(table.templateId)
      ).map((r) => [r.id, r.n]),
    );
  return ids.length ? { audits: await by(audits), schedules: await by(auditSchedules) } : { audits: new Map(), schedules: new Map() };
}

async function summaries(
  tx: Tx,
  rows: TemplateRow[],
): Promise<Array<AuditTemplateSummary & { sections: Awaited<ReturnType<typeof templateSections>> }>> {
  const counts = await countsOf(
    tx,
    rows.map((r) => r.id),
  );
  const out = [];
  for (const t of rows) {
    const sections = await templateSections(tx, t.id);
    const questions = auditFormQuestions({ sections: sections.filter((s) => s.active) });
    out.push({
      id: t.id,
      name: t.name,
      description: t.description,
      icon: t.icon,
      type: t.type,
      scoring: t.scoring,
      declaration: t.declaration,
      active: t.active,
      sections_count: sections.length,
      questions_count: sections.reduce((n, s) => n + s.questions.length, 0),
      max_score: t.scoring ? questions.reduce((n, q) => n + q.score * Math.max(1, q.row_headers.length), 0) : 0,
      audits_count: counts.audits.get(t.id) ?? 0,
      schedules_count: counts.schedules.get(t.id) ?? 0,
      created_at: t.createdAt.toISOString(),
      updated_at: t.updatedAt.toISOString(),
      sections,
    });
  }
  return out;
}

export async function loadTemplate(tx: Tx, id: string, lock = false): Promise<TemplateRow> {
  const q = tx.select().from(auditTemplates).where(eq(auditTemplates.id, id));
  const [row] = lock ? await q.for('update') : await q;
  if (!row) throw new AppError('not_found');
  return row;
}

export async function templateDetail(tx: Tx, id: string): Promise<AuditTemplateDetail> {
  return (await summaries(tx, [await loadTemplate(tx, id)]))[0]!;
}

/** GET /api/audits: the templates, with the free account's limit. */
export async function listTemplates(
  tx: Tx,
  q: { search?: string | undefined; type?: AuditType | undefined; active?: boolean | undefined },
) {
  const rows = await tx
    .select()
    .from(auditTemplates)
    .where(
      and(
        q.search ? ilike(auditTemplates.name, `%${q.search.replace(/[\\%_]/g, (c) => `\\${c}`)}%`) : undefined,
        q.type ? eq(auditTemplates.type, q.type) : undefined,
        q.active === undefined ? undefined : eq(auditTemplates.active, q.active),
      ),
    )
    .orderBy(asc(sql`lower(${auditTemplates.name})`), asc(auditTemplates.id));
  const limits = await freeLimits(tx);
  return { templates: (await summaries(tx, rows)).map(({ sections: _sections, ...t }) => t), limit: limits?.templates ?? null };
}

/** The free account keeps a limited number of templates (spec 001 §8 "no permission to add more audit templates"). */
async function checkTemplateLimit(tx: Tx) {
  const limits = await freeLimits(tx);
  if (!limits) return;
  const [row] = await tx.select({ n: count() }).from(auditTemplates);
  refuseOverLimit(row!.n, limits.templates, 'templates');
}

/** POST /api/audits: a template with one empty section, named after it. */
export async function createTemplate(tx: Tx, actor: Principal, body: AuditTemplateCreate): Promise<string> {
  await checkTemplateLimit(tx);
  const [t] = await tx
    .insert(auditTemplates)
    .values({
      name: body.name,
      description: body.description,
      icon: body.icon,
      type: body.type,
      scoring: body.scoring,
      declaration: body.declaration,
      active: body.active,
      createdBy: actor.userId,
    })
    .returning({ id: auditTemplates.id });
  await tx.insert(auditTemplateSections).values({ templateId: t!.id, name: body.name, position: 1 });
  await recordAudit(tx, {
    actorUserId: actor.userId,
    action: 'audit_template_created',
    entity: TEMPLATE_ENTITY,
    entityId: t!.id,
    changes: body,
  });
  return t!.id;
}

/** PATCH /api/audits/{id}. */
export async function updateTemplate(tx: Tx, actor: Principal, id: string, body: AuditTemplateUpdate): Promise<void> {
  const before = await loadTemplate(tx, id, true);
  const set = Object.fromEntries(Object.entries(body).filter(([, v]) => v !== undefined));
  if (Object.keys(set).length === 0) return;
  await tx
    .update(auditTemplates)
    .set({ ...set, updatedAt: new Date() })
    .where(eq(auditTemplates.id, id));
  const diff = Object.fromEntries(
    Object.entries(set).map(([k, v]) => [k, { from: (before as Record<string, unknown>)[k === 'active' ? 'active' : k] ?? null, to: v }]),
  );
  await recordAudit(tx, {
    actorUserId: actor.userId,
    action: 'audit_template_updated',
    entity: TEMPLATE_ENTITY,
    entityId: id,
    changes: { diff },
  });
}

/** DELETE /api/audits/{id}: only a template nothing was made from (switch it off otherwise). */
export async function deleteTemplate(tx: Tx, actor: Principal, id: string): Promise<void> {
  const t = await loadTemplate(tx, id, true);
  const counts = await countsOf(tx, [id]);
  if ((counts.audits.get(id) ?? 0) > 0 || (counts.schedules.get(id) ?? 0) > 0)
    throw new AppError('conflict', { messageKey: 'audits.validation.templateInUse' });
  // Children point at parents inside the template: clear the links before the rows go.
  await tx
    .update(auditTemplateQuestions)
    .set({ parentQuestionId: null, parentOptionKey: null })
    .where(eq(auditTemplateQuestions.templateId, id));
  await tx.delete(auditTemplates).where(eq(auditTemplates.id, id));
  await recordAudit(tx, {
    actorUserId: actor.userId,
    action: 'audit_template_deleted',
    entity: TEMPLATE_ENTITY,
    entityId: id,
    changes: { name: t.name },
  });
}

/** POST /api/audits/{id}/clone: the template, its sections and questions with new ids; conditions follow the copies. */
export async function cloneTemplate(tx: Tx, actor: Principal, id: string, name: string | null): Promise<string> {
  await checkTemplateLimit(tx);
  const t = await loadTemplate(tx, id);
  const [copy] = await tx
    .insert(auditTemplates)
    .values({
      name: (name ?? `${t.name} (copy)`).slice(0, 150),
      description: t.description,
      icon: t.icon,
      type: t.type,
      scoring: t.scoring,
      declaration: t.declaration,
      active: t.active,
      createdBy: actor.userId,
    })
    .returning({ id: auditTemplates.id });
  const sections = await tx.select().from(auditTemplateSections).where(eq(auditTemplateSections.templateId, id));
  const questions = await tx
    .select()
    .from(auditTemplateQuestions)
    .where(eq(auditTemplateQuestions.templateId, id))
    .orderBy(asc(auditTemplateQuestions.position));
  const sectionIds = new Map<string, string>();
  for (const s of sections) {
    const [row] = await tx
      .insert(auditTemplateSections)
      .values({ templateId: copy!.id, name: s.name, position: s.position, active: s.active })
      .returning({ id: auditTemplateSections.id });
    sectionIds.set(s.id, row!.id);
  }
  const questionIds = new Map<string, string>();
  for (const q of questions) {
    const { organizationId: _o, id: oldId, createdAt: _c, updatedAt: _u, parentQuestionId: _p, parentOptionKey: _k, ...rest } = q;
    const [row] = await tx
      .insert(auditTemplateQuestions)
      .values({ ...rest, templateId: copy!.id, sectionId: sectionIds.get(q.sectionId)! })
      .returning({ id: auditTemplateQuestions.id });
    questionIds.set(oldId, row!.id);
  }
  for (const q of questions.filter((x) => x.parentQuestionId)) {
    await tx
      .update(auditTemplateQuestions)
      .set({ parentQuestionId: questionIds.get(q.parentQuestionId!)!, parentOptionKey: q.parentOptionKey })
      .where(eq(auditTemplateQuestions.id, questionIds.get(q.id)!));
  }
  await recordAudit(tx, {
    actorUserId: actor.userId,
    action: 'audit_template_cloned',
    entity: TEMPLATE_ENTITY,
    entityId: copy!.id,
    changes: { from: id },
  });
  return copy!.id;
}
