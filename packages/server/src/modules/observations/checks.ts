import { isFutureInZone, type ObservationType } from '@bulwark/domain';
import { and, eq, gt, inArray, isNull, sql } from 'drizzle-orm';
import type { Tx } from '../../platform/db/db.js';
import { files } from '../../platform/db/schema.js';
import { categories, subCategories } from '../categories/read.js';
import { siteNodes, sites } from '../sites/read.js';
import { observationAttachments } from './tables.js';

export type FieldErrors = Record<string, string>;

export type CheckedSite = { id: string; name: string; timeZone: string; headOfSafetyId: string | null };

/** The site if it is an active site of the organisation; records the field error otherwise. */
export async function checkSite(tx: Tx, siteId: string, fields: FieldErrors, field = 'site_id'): Promise<CheckedSite | null> {
  const [row] = await tx
    .select({ id: sites.id, name: sites.name, timeZone: sites.timeZone, headOfSafetyId: sites.headOfSafetyId })
    .from(sites)
    .where(and(eq(sites.id, siteId), eq(sites.isActive, true)));
  if (!row) fields[field] = 'observations.validation.siteUnknown';
  return row ?? null;
}

/** A division, department or unit of the site. */
export async function checkNode(tx: Tx, siteId: string, nodeId: string | null, fields: FieldErrors): Promise<void> {
  if (!nodeId) return;
  const [row] = await tx
    .select({ id: siteNodes.id })
    .from(siteNodes)
    .where(and(eq(siteNodes.id, nodeId), eq(siteNodes.siteId, siteId)));
  if (!row) fields['site_node_id'] = 'observations.validation.nodeUnknown';
}

/** An active observations category of the type, and an active sub-category of that category. */
export async function checkCategory(
  tx: Tx,
  type: ObservationType,
  categoryId: string | null,
  subCategoryId: string | null,
  fields: FieldErrors,
): Promise<void> {
  if (categoryId) {
    const [cat] = await tx
      .select({ id: categories.id })
      .from(categories)
      .where(
        and(eq(categories.id, categoryId), eq(categories.module, 'observations'), eq(categories.type, type), eq(categories.active, true)),
      );
    if (!cat) fields['category_id'] = 'observations.validation.categoryUnknown';
  }
  if (subCategoryId) {
    const [sub] = categoryId
      ? await tx
          .select({ id: subCategories.id })
          .from(subCategories)
          .where(and(eq(subCategories.id, subCategoryId), eq(subCategories.categoryId, categoryId), eq(subCategories.active, true)))
      : [];
    if (!sub)
      fields['sub_category_id'] = categoryId
        ? 'observations.validation.subCategoryUnknown'
        : 'observations.validation.subCategoryWithoutCategory';
  }
}

/** "No future time" in the site's own zone (spec 001 §5). */
export function checkObservedAt(local: string, timeZone: string, fields: FieldErrors, now = new Date()): void {
  if (isFutureInZone(local, timeZone, now)) fields['observed_at'] = 'observations.validation.futureTime';
}

/** How long an uploaded guest file may wait for the report it belongs to. */
const GUEST_FILE_TTL = '1 day';

/**
 * Files that may be linked now: uploaded as attachments by this person (a guest's have no uploader and
 * must be fresh), and not linked to any observation yet. Another person's file is "not found".
 */
export async function checkAttachments(tx: Tx, ids: readonly string[], uploader: string | null, fields: FieldErrors): Promise<void> {
  if (ids.length === 0) return;
  if (new Set(ids).size !== ids.length) {
    fields['attachment_ids'] = 'validation.invalid';
    return;
  }
  const rows = await tx
    .select({ id: files.id })
    .from(files)
    .leftJoin(observationAttachments, eq(observationAttachments.fileId, files.id))
    .where(
      and(
        inArray(files.id, [...ids]),
        eq(files.purpose, 'attachment'),
        isNull(observationAttachments.fileId),
        uploader
          ? eq(files.uploadedBy, uploader)
          : and(isNull(files.uploadedBy), gt(files.createdAt, sql`now() - ${GUEST_FILE_TTL}::interval`)),
      ),
    );
  if (rows.length !== ids.length) fields['attachment_ids'] = 'observations.validation.attachmentUnknown';
}
