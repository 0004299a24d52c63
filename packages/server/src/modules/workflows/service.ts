import {
  workflowWholeSchema,
  type Workflow,
  type WorkflowCreate,
  type WorkflowListQuery,
  type WorkflowModule,
  type WorkflowUpdate,
} from '@bulwark/domain';
import { and, asc, count, eq, ilike, inArray, ne, sql, type SQL } from 'drizzle-orm';
import type { Principal } from '../../platform/auth/principal.js';
import { recordAudit } from '../../platform/audit.js';
import type { Tx } from '../../platform/db/db.js';
import { users } from '../../platform/db/schema.js';
import { AppError } from '../../platform/errors.js';
import { pageWindow, pagination, searchPattern } from '../../platform/http/list.js';
import { sites } from '../sites/read.js';
import { workflowReviewers, workflowSites, workflows } from './tables.js';

type WorkflowRow = typeof workflows.$inferSelect;
type Whole = {
  title: string;
  module: WorkflowModule;
  type: 'sequential' | 'parallel';
  reviewer_ids: string[];
  lead_time_hours: number;
  escalation_user_id: string | null;
  site_ids: string[];
  form_ids: string[];
};

/** Reviewers, escalation user and sites of these workflows, in one query each. */
async function toWorkflows(tx: Tx, rows: WorkflowRow[]): Promise<Workflow[]> {
  if (rows.length === 0) return [];
  const ids = rows.map((r) => r.id);
  const reviewers = await tx
    .select({
      workflowId: workflowReviewers.workflowId,
      position: workflowReviewers.position,
      id: users.id,
      fullName: users.fullName,
      email: users.email,
      status: users.status,
    })
    .from(workflowReviewers)
    .innerJoin(users, and(eq(users.organizationId, workflowReviewers.organizationId), eq(users.id, workflowReviewers.userId)))
    .where(inArray(workflowReviewers.workflowId, ids))
    .orderBy(asc(workflowReviewers.position));
  const escalationIds = [...new Set(rows.map((r) => r.escalationUserId).filter((x): x is string => x !== null))];
  const escalation =
    escalationIds.length === 0
      ? []
      : await tx
          .select({ id: users.id, fullName: users.fullName, email: users.email, status: users.status })
          .from(users)
          .where(inArray(users.id, escalationIds));
  const siteRows = await tx.select().from(workflowSites).where(inArray(workflowSites.workflowId, ids));
  const person = (u: { id: string; fullName: string; email: string; status: string }) => ({
    id: u.id,
    full_name: u.fullName,
    email: u.email,
    status: u.status,
  });
  return rows.map((r) => {
    const esc = escalation.find((u) => u.id === r.escalationUserId);
    return {
      id: r.id,
      title: r.title,
      module: r.module,
      type: r.type,
      lead_time_hours: r.leadTimeHours,
      reviewers: reviewers.filter((x) => x.workflowId === r.id).map((x) => ({ ...person(x), position: x.position })),
      escalation_user: esc ? person(esc) : null,
      site_ids: siteRows
        .filter((s) => s.workflowId === r.id)
        .map((s) => s.siteId)
        .sort(),
      form_ids: [...r.formIds],
      created_at: r.createdAt.toISOString(),
      updated_at: r.updatedAt.toISOString(),
    };
  });
}

/** GET /api/workflows. */
export async function listWorkflows(tx: Tx, q: WorkflowListQuery) {
  const where: SQL[] = [];
  if (q.module) where.push(eq(workflows.module, q.module));
  if (q.search) where.push(ilike(workflows.title, searchPattern(q.search)));
  const filter = where.length > 0 ? and(...where) : undefined;
  const { limit, offset } = pageWindow(q);
  const rows = await tx
    .select()
    .from(workflows)
    .where(filter)
    .orderBy(asc(workflows.module), sql`lower(${workflows.title})`, asc(workflows.id))
    .limit(limit)
    .offset(offset);
  const [total] = await tx.select({ n: count() }).from(workflows).where(filter);
  return { workflows: await toWorkflows(tx, rows), pagination: pagination(Number(total?.n ?? 0), q.page, q.per_page) };
}

async function findWorkflow(tx: Tx, id: string, lock = false): Promise<WorkflowRow> {
  const query = tx.select().from(workflows).where(eq(workflows.id, id));
  const [row] = lock ? await query.for('update') : await query;
  if (!row) throw new AppError('not_found');
  return row;
}

export async function getWorkflow(tx: Tx, id: string): Promise<Workflow> {
  const [w] = await toWorkflows(tx, [await findWorkflow(tx, id)]);
  return w!;
}

/** Who may be chosen, and which sites exist: the pickers of the workflow form. */
export async function workflowOptions(tx: Tx) {
  const people = await tx
    .select({ id: users.id, full_name: users.fullName, email: users.email })
    .from(users)
    .where(and(eq(users.status, 'Active'), eq(users.isPlatformAdmin, false)))
    .orderBy(sql`lower(${users.fullName})`, asc(users.id));
  const siteRows = await tx
    .select({ id: sites.id, name: sites.name })
    .from(sites)
    .where(eq(sites.isActive, true))
    .orderBy(sql`lower(${sites.name})`);
  return { users: people, sites: siteRows };
}

/** The references of a workflow must be this organisation's: active users, existing sites. */
async function checkReferences(tx: Tx, w: Whole, changed: { reviewers: boolean; escalation: boolean; sites: boolean }) {
  const fields: Record<string, string> = {};
  if (changed.reviewers) {
    const found = await tx
      .select({ id: users.id })
      .from(users)
      .where(and(inArray(users.id, w.reviewer_ids), eq(users.status, 'Active'), eq(users.isPlatformAdmin, false)));
    if (found.length !== w.reviewer_ids.length) fields['reviewer_ids'] = 'workflows.validation.reviewerUnknown';
  }
  if (changed.escalation && w.escalation_user_id) {
    const [found] = await tx
      .select({ id: users.id })
      .from(users)
      .where(and(eq(users.id, w.escalation_user_id), eq(users.status, 'Active'), eq(users.isPlatformAdmin, false)));
    if (!found) fields['escalation_user_id'] = 'workflows.validation.escalationUnknown';
  }
  if (changed.sites && w.site_ids.length > 0) {
    const found = await tx.select({ id: sites.id }).from(sites).where(inArray(sites.id, w.site_ids));
    if (found.length !== w.site_ids.length) fields['site_ids'] = 'workflows.validation.siteUnknown';
  }
  if (Object.keys(fields).length > 0) throw new AppError('validation_failed', { fields });
}

async function writeReviewers(tx: Tx, workflowId: string, reviewerIds: readonly string[]) {
  await tx.delete(workflowReviewers).where(eq(workflowReviewers.workflowId, workflowId));
  await tx.insert(workflowReviewers).values(reviewerIds.map((userId, i) => ({ workflowId, userId, position: i + 1 })));
}

async function writeSites(tx: Tx, workflowId: string, siteIds: readonly string[]) {
  await tx.delete(workflowSites).where(eq(workflowSites.workflowId, workflowId));
  if (siteIds.length > 0) await tx.insert(workflowSites).values(siteIds.map((siteId) => ({ workflowId, siteId })));
}

export async function createWorkflow(tx: Tx, p: Principal, body: WorkflowCreate): Promise<Workflow> {
  await checkReferences(tx, body, { reviewers: true, escalation: true, sites: true });
  const [row] = await tx
    .insert(workflows)
    .values({
      title: body.title,
      module: body.module,
      type: body.type,
      leadTimeHours: body.lead_time_hours,
      escalationUserId: body.escalation_user_id,
      formIds: body.form_ids,
      createdBy: p.userId,
    })
    .returning();
  await writeReviewers(tx, row!.id, body.reviewer_ids);
  await writeSites(tx, row!.id, body.site_ids);
  await recordAudit(tx, { actorUserId: p.userId, action: 'create', entity: 'WorkFlow', entityId: row!.id, changes: { ...body } });
  return getWorkflow(tx, row!.id);
}

/** PATCH: the change is merged with what is stored and the whole is held to the same rules as a new one. */
export async function updateWorkflow(tx: Tx, p: Principal, id: string, body: WorkflowUpdate): Promise<Workflow> {
  const current = await getWorkflow(tx, id);
  await findWorkflow(tx, id, true);
  const merged = {
    title: body.title ?? current.title,
    module: body.module ?? current.module,
    type: body.type ?? current.type,
    reviewer_ids: body.reviewer_ids ?? current.reviewers.map((r) => r.id),
    lead_time_hours: body.lead_time_hours ?? current.lead_time_hours,
    escalation_user_id: body.escalation_user_id === undefined ? (current.escalation_user?.id ?? null) : body.escalation_user_id,
    site_ids: body.site_ids ?? current.site_ids,
    form_ids: body.form_ids ?? current.form_ids,
  };
  const whole = workflowWholeSchema.safeParse(merged);
  if (!whole.success) {
    const fields: Record<string, string> = {};
    for (const issue of whole.error.issues) fields[String(issue.path[0] ?? 'body')] ??= issue.message;
    throw new AppError('validation_failed', { fields });
  }
  await checkReferences(tx, whole.data, {
    reviewers: body.reviewer_ids !== undefined,
    escalation: body.escalation_user_id !== undefined,
    sites: body.site_ids !== undefined,
  });
  await tx
    .update(workflows)
    .set({
      title: merged.title,
      module: merged.module,
      type: merged.type,
      leadTimeHours: merged.lead_time_hours,
      escalationUserId: merged.escalation_user_id,
      formIds: whole.data.form_ids,
      updatedAt: new Date(),
    })
    .where(eq(workflows.id, id));
  if (body.reviewer_ids) await writeReviewers(tx, id, whole.data.reviewer_ids);
  if (body.site_ids) await writeSites(tx, id, whole.data.site_ids);
  await recordAudit(tx, { actorUserId: p.userId, action: 'update', entity: 'WorkFlow', entityId: id, changes: { ...body } });
  return getWorkflow(tx, id);
}

export async function deleteWorkflow(tx: Tx, p: Principal, id: string): Promise<Workflow> {
  const current = await getWorkflow(tx, id);
  await tx.delete(workflows).where(eq(workflows.id, id));
  await recordAudit(tx, {
    actorUserId: p.userId,
    action: 'delete',
    entity: 'WorkFlow',
    entityId: id,
    changes: { title: current.title, module: current.module },
  });
  return current;
}

/**
 * Spec 001 §6: when a reviewer is removed (deactivated, status 'Deleted', or before the user row is deleted),
 * the account creator, i.e. the organisation's oldest active administrator, becomes the primary
 * (first) reviewer of each workflow that person reviewed; the others keep their order. A workflow that
 * escalated to that person escalates to the creator instead (or to nobody, when the creator now reviews it).
 * Call it inside the transaction that removes the user, in the user's organisation. Refuses (conflict)
 * when no administrator is left to take over a workflow whose only reviewer this was.
 */
export async function replaceRemovedReviewer(tx: Tx, userId: string): Promise<{ workflowIds: string[]; replacementUserId: string | null }> {
  const [creator] = await tx
    .select({ id: users.id })
    .from(users)
    // A deactivated administrator counts as removed too (DECISIONS.md): the creator is the oldest active one.
    .where(and(eq(users.isAdmin, true), eq(users.status, 'Active'), eq(users.isPlatformAdmin, false), ne(users.id, userId)))
    .orderBy(asc(users.createdAt), asc(users.id))
    .limit(1);
  const replacement = creator?.id ?? null;

  const reviewed = await tx
    .select({ workflowId: workflowReviewers.workflowId })
    .from(workflowReviewers)
    .where(eq(workflowReviewers.userId, userId));
  const escalating = await tx.select({ id: workflows.id }).from(workflows).where(eq(workflows.escalationUserId, userId));
  const workflowIds = [...new Set([...reviewed.map((r) => r.workflowId), ...escalating.map((w) => w.id)])].sort();
  if (workflowIds.length === 0) return { workflowIds, replacementUserId: replacement };
  // Lock the workflows so a concurrent edit cannot re-add the removed reviewer in between.
  await tx.select({ id: workflows.id }).from(workflows).where(inArray(workflows.id, workflowIds)).for('update');

  for (const workflowId of workflowIds) {
    const current = await tx
      .select({ userId: workflowReviewers.userId })
      .from(workflowReviewers)
      .where(eq(workflowReviewers.workflowId, workflowId))
      .orderBy(asc(workflowReviewers.position));
    const before = current.map((r) => r.userId);
    let after = before.filter((id) => id !== userId);
    if (before.includes(userId) && replacement) after = [replacement, ...after.filter((id) => id !== replacement)];
    if (after.length === 0) throw new AppError('conflict', { messageKey: 'workflows.validation.lastReviewer' });
    if (after.join() !== before.join()) await writeReviewers(tx, workflowId, after);

    const [w] = await tx.select({ escalationUserId: workflows.escalationUserId }).from(workflows).where(eq(workflows.id, workflowId));
    let escalationUserId = w!.escalationUserId === userId ? replacement : w!.escalationUserId;
    // The escalation user is never one of the reviewers.
    if (escalationUserId !== null && after.includes(escalationUserId)) escalationUserId = null;
    if (escalationUserId !== w!.escalationUserId) {
      await tx.update(workflows).set({ escalationUserId, updatedAt: new Date() }).where(eq(workflows.id, workflowId));
    }
    await recordAudit(tx, {
      actorUserId: null,
      action: 'update',
      entity: 'WorkFlow',
      entityId: workflowId,
      changes: { removedUserId: userId, reviewersBefore: before, reviewersAfter: after, escalationUserId },
    });
  }
  return { workflowIds, replacementUserId: replacement };
}
