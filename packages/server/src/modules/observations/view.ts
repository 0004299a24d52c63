import {
  can,
  formatObservationSerial,
  observationCloseBlocker,
  siteFullName,
  type Observation,
  type ObservationHistoryEntry,
  type SiteLevel,
} from '@bulwark/domain';
import { and, asc, eq, inArray } from 'drizzle-orm';
import { refuseUnlessOwnReport } from '../../platform/auth/guests.js';
import type { Principal } from '../../platform/auth/principal.js';
import type { Tx } from '../../platform/db/db.js';
import { auditLog, files, users } from '../../platform/db/schema.js';
import { AppError } from '../../platform/errors.js';
import { fileUrl } from '../../platform/storage/storage.js';
import { actionsOfSource } from '../actions/service.js';
import { categories, subCategories } from '../categories/read.js';
import { siteNodes, sites } from '../sites/read.js';
import { observationAttachments, observations } from './tables.js';

export type ObservationRow = typeof observations.$inferSelect;

/** PostgreSQL prints a timestamp as 'YYYY-MM-DD HH:mm:ss'; the API speaks 'YYYY-MM-DDTHH:mm'. */
export function toLocalText(pgTimestamp: string): string {
  return pgTimestamp.slice(0, 16).replace(' ', 'T');
}

/** The stored form of a local date-time. */
export function toPgTimestamp(local: string): string {
  return `${local.replace('T', ' ')}:00`;
}

/** The area's full name "Site / Division / Department / Unit" and its level. */
export async function nodeOf(tx: Tx, siteName: string, siteId: string, nodeId: string | null) {
  if (!nodeId) return null;
  const rows = await tx
    .select({ id: siteNodes.id, parentId: siteNodes.parentId, name: siteNodes.name, level: siteNodes.level })
    .from(siteNodes)
    .where(eq(siteNodes.siteId, siteId));
  const byId = new Map(rows.map((r) => [r.id, r]));
  const node = byId.get(nodeId);
  if (!node) return null;
  const names: string[] = [];
  for (let n: typeof node | undefined = node; n; n = n.parentId ? byId.get(n.parentId) : undefined) names.unshift(n.name);
  return { id: node.id, level: node.level as SiteLevel, full_name: siteFullName([siteName, ...names]) };
}

/** Loads one observation of the transaction's organisation, or "not found". */
export async function loadObservation(tx: Tx, id: string, forUpdate = false): Promise<ObservationRow> {
  const q = tx.select().from(observations).where(eq(observations.id, id));
  const [row] = forUpdate ? await q.for('update') : await q;
  if (!row) throw new AppError('not_found');
  return row;
}

export async function attachmentsOf(tx: Tx, observationIds: readonly string[]) {
  if (observationIds.length === 0) return [];
  return tx
    .select({
      observationId: observationAttachments.observationId,
      id: files.id,
      fileName: files.fileName,
      mimeType: files.mimeType,
      sizeBytes: files.sizeBytes,
      storageKey: files.storageKey,
    })
    .from(observationAttachments)
    .innerJoin(files, eq(files.id, observationAttachments.fileId))
    .where(inArray(observationAttachments.observationId, [...observationIds]))
    .orderBy(asc(observationAttachments.createdAt), asc(files.id));
}

async function historyOf(tx: Tx, id: string): Promise<ObservationHistoryEntry[]> {
  const rows = await tx
    .select({
      at: auditLog.createdAt,
      actorId: auditLog.actorUserId,
      actorName: users.fullName,
      action: auditLog.action,
      changes: auditLog.changes,
    })
    .from(auditLog)
    .leftJoin(users, eq(users.id, auditLog.actorUserId))
    .where(and(eq(auditLog.entity, 'Observation'), eq(auditLog.entityId, id)))
    .orderBy(asc(auditLog.createdAt), asc(auditLog.id));
  const diffs = rows.map(
    (r) => ((r.changes ?? {}) as Record<string, unknown>)['diff'] as Record<string, { from: unknown; to: unknown }> | undefined,
  );
  const names = await namesInDiffs(tx, diffs);
  // A changed site, area or category reads as its name (the reader knows no ids); an id no longer found stays.
  const shown = (field: string, v: unknown) => (field in ID_FIELDS && typeof v === 'string' ? (names.get(v) ?? v) : v);
  return rows.map((r, i) => {
    const diff = diffs[i];
    return {
      at: r.at.toISOString(),
      actor: r.actorId && r.actorName ? { id: r.actorId, full_name: r.actorName } : null,
      action: r.action.replace(/^observation_/, ''),
      changes: diff ? Object.entries(diff).map(([field, v]) => ({ field, from: shown(field, v.from), to: shown(field, v.to) })) : [],
    };
  });
}

/** History fields that hold ids: the table whose names they are. */
const ID_FIELDS = { site_id: 'site', site_node_id: 'node', category_id: 'category', sub_category_id: 'sub_category' } as const;

/** The names of the sites, areas and categories a history's changes name by id (all within the tenant, by RLS). */
async function namesInDiffs(tx: Tx, diffs: Array<Record<string, { from: unknown; to: unknown }> | undefined>) {
  const wanted: Record<(typeof ID_FIELDS)[keyof typeof ID_FIELDS], Set<string>> = {
    site: new Set(),
    node: new Set(),
    category: new Set(),
    sub_category: new Set(),
  };
  for (const diff of diffs)
    for (const [field, v] of Object.entries(diff ?? {})) {
      const kind = ID_FIELDS[field as keyof typeof ID_FIELDS];
      if (!kind) continue;
      for (const id of [v.from, v.to]) if (typeof id === 'string') wanted[kind].add(id);
    }
  const names = new Map<string, string>();
  const add = (rows: Array<{ id: string; name: string }>) => rows.forEach((r) => names.set(r.id, r.name));
  if (wanted.site.size)
    add(
      await tx
        .select({ id: sites.id, name: sites.name })
        .from(sites)
        .where(inArray(sites.id, [...wanted.site])),
    );
  if (wanted.node.size)
    add(
      await tx
        .select({ id: siteNodes.id, name: siteNodes.name })
        .from(siteNodes)
        .where(inArray(siteNodes.id, [...wanted.node])),
    );
  if (wanted.category.size)
    add(
      await tx
        .select({ id: categories.id, name: categories.name })
        .from(categories)
        .where(inArray(categories.id, [...wanted.category])),
    );
  if (wanted.sub_category.size)
    add(
      await tx
        .select({ id: subCategories.id, name: subCategories.name })
        .from(subCategories)
        .where(inArray(subCategories.id, [...wanted.sub_category])),
    );
  return names;
}

/**
 * The whole record as GET /api/observations/{id} answers it, seen by `viewer`. A guest sees only a
 * report it made, and in it no other person: no actions (their people), no other actor in the history.
 */
export async function observationView(tx: Tx, viewer: Principal, id: string): Promise<Observation> {
  const o = await loadObservation(tx, id);
  refuseUnlessOwnReport(viewer, o.reporterId);
  const guest = viewer.kind === 'guest';
  const [site] = await tx.select({ id: sites.id, name: sites.name, time_zone: sites.timeZone }).from(sites).where(eq(sites.id, o.siteId));
  const [category] = o.categoryId
    ? await tx.select({ id: categories.id, name: categories.name }).from(categories).where(eq(categories.id, o.categoryId))
    : [];
  const [sub] = o.subCategoryId
    ? await tx.select({ id: subCategories.id, name: subCategories.name }).from(subCategories).where(eq(subCategories.id, o.subCategoryId))
    : [];
  const people = [o.reporterId, o.closedBy].filter((x): x is string => !!x);
  const names = new Map(
    people.length
      ? (await tx.select({ id: users.id, fullName: users.fullName, email: users.email }).from(users).where(inArray(users.id, people))).map(
          (u) => [u.id, u],
        )
      : [],
  );
  const actionList = guest ? [] : await actionsOfSource(tx, 'observation', o.id);
  const attachments = await attachmentsOf(tx, [o.id]);
  const reporterUser = o.reporterId ? names.get(o.reporterId) : undefined;
  const closer = o.closedBy ? names.get(o.closedBy) : undefined;
  const canUpdate = can(viewer.access, 'Observation', 'update');
  const canClose = can(viewer.access, 'Observation', 'close');
  const open = o.status !== 'closed';
  return {
    id: o.id,
    serial: o.serial,
    serial_label: formatObservationSerial(o.serial),
    type: o.type,
    category: category ?? null,
    sub_category: sub ?? null,
    description: o.description,
    site: site!,
    site_node: await nodeOf(tx, site!.name, o.siteId, o.siteNodeId),
    observed_at: toLocalText(o.observedLocal),
    observed_at_utc: o.observedAt.toISOString(),
    risk_level: o.riskLevel,
    action_required: o.actionRequired,
    comment: o.comment,
    anonymous: o.anonymous,
    reporter: o.anonymous
      ? null
      : reporterUser
        ? { id: reporterUser.id, full_name: reporterUser.fullName, email: reporterUser.email, guest: o.source === 'guest' }
        : { id: null, full_name: o.reporterName ?? '', email: o.reporterEmail, guest: o.source === 'guest' },
    source: o.source,
    status: o.status,
    closing_remarks: o.closingRemarks,
    closed_at: o.closedAt?.toISOString() ?? null,
    closed_by: closer && !guest ? { id: closer.id, full_name: closer.fullName } : null,
    actions: actionList,
    attachments: attachments.map((a) => ({
      id: a.id,
      file_name: a.fileName,
      mime_type: a.mimeType,
      size_bytes: a.sizeBytes,
      url: fileUrl(a.id),
    })),
    history: (await historyOf(tx, o.id)).map((h) => (guest && h.actor?.id !== viewer.userId ? { ...h, actor: null } : h)),
    permissions: {
      update: open && canUpdate,
      delete: can(viewer.access, 'Observation', 'delete') && actionList.length === 0,
      close:
        open &&
        observationCloseBlocker(
          o.status,
          actionList.map((a) => a.status),
          canClose,
        ) === null,
      add_actions: open && canUpdate && can(viewer.access, 'Action', 'create'),
      close_blocked_by: open
        ? observationCloseBlocker(
            o.status,
            actionList.map((a) => a.status),
            canClose,
          )
        : null,
    },
    created_at: o.createdAt.toISOString(),
    updated_at: o.updatedAt.toISOString(),
  };
}
