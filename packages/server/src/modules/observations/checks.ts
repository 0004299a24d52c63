import { isFutureInZone, type ObservationType } from '@bulwark/domain';
import { and, eq, gt, inArray, isNull, sql, type SQL } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';
import type { Tx } from '../../platform/db/db.js';
import { files, organizations, users } from '../../platform/db/schema.js';
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

/** A division, department or unit of the site (`siteId`: an id or the site's column of the statement). */
const nodeOfSite = (siteId: string | SQL | PgColumn, nodeId: string) =>
  sql<boolean>`exists (select 1 from ${siteNodes} where ${siteNodes.id} = ${nodeId} and ${siteNodes.siteId} = ${siteId})`;

/** An active observations category of the type. */
const categoryOfType = (type: ObservationType, categoryId: string) =>
  sql<boolean>`exists (select 1 from ${categories} where ${categories.id} = ${categoryId} and ${categories.module} = 'observations'
    and ${categories.type} = ${type} and ${categories.active})`;

/** An active sub-category of that category. */
const subCategoryOf = (categoryId: string, subCategoryId: string) =>
  sql<boolean>`exists (select 1 from ${subCategories} where ${subCategories.id} = ${subCategoryId}
    and ${subCategories.categoryId} = ${categoryId} and ${subCategories.active})`;

const yes = sql<boolean>`true`;
const no = sql<boolean>`false`;

/** The field errors of the category and sub-category, given what the statement found. */
function categoryErrors(
  c: { categoryId: string | null; subCategoryId: string | null },
  found: { cat: boolean; sub: boolean },
  fields: FieldErrors,
) {
  if (c.categoryId && !found.cat) fields['category_id'] = 'observations.validation.categoryUnknown';
  if (c.subCategoryId && !found.sub)
    fields['sub_category_id'] = c.categoryId
      ? 'observations.validation.subCategoryUnknown'
      : 'observations.validation.subCategoryWithoutCategory';
}

/** A division, department or unit of the site. */
export async function checkNode(tx: Tx, siteId: string, nodeId: string | null, fields: FieldErrors): Promise<void> {
  if (!nodeId) return;
  const [row] = await tx.select({ ok: nodeOfSite(siteId, nodeId) }).from(sql`(select 1) as one`);
  if (!row?.ok) fields['site_node_id'] = 'observations.validation.nodeUnknown';
}

/** An active observations category of the type, and an active sub-category of that category. */
export async function checkCategory(
  tx: Tx,
  type: ObservationType,
  categoryId: string | null,
  subCategoryId: string | null,
  fields: FieldErrors,
): Promise<void> {
  // A sub-category without its category needs no statement to be refused.
  if (!categoryId) return categoryErrors({ categoryId, subCategoryId }, { cat: true, sub: !subCategoryId }, fields);
  const [found] = await tx
    .select({ cat: categoryOfType(type, categoryId), sub: subCategoryId ? subCategoryOf(categoryId, subCategoryId) : yes })
    .from(sql`(select 1) as one`);
  categoryErrors({ categoryId, subCategoryId }, found!, fields);
}

/** What a new report needs before anything is written: its checks and what its mail says, in one statement. */
export type ReportContext = CheckedSite & {
  /** The id the observation will have (uuid_generate_v7, the column's default): its links are written before it. */
  newId: string;
  /** The site's head of safety, when active. */
  head: { id: string; email: string; locale: string } | null;
  /** The organisation's own address label, for links. */
  subDomain: string;
};

/**
 * The checks of checkSite, checkNode and checkCategory for a new report, with the same field errors
 * (the area only of a known site), and the site's head of safety: one statement instead of up to five.
 * Null when the site is not an active site of the organisation.
 */
export async function checkNewReport(
  tx: Tx,
  v: { type: ObservationType; site_id: string; site_node_id: string | null; category_id: string | null; sub_category_id: string | null },
  fields: FieldErrors,
): Promise<ReportContext | null> {
  const [row] = await tx
    .select({
      id: sites.id,
      name: sites.name,
      timeZone: sites.timeZone,
      headOfSafetyId: sites.headOfSafetyId,
      headId: users.id,
      headEmail: users.email,
      headLocale: users.locale,
      subDomain: sql<string>`(select ${organizations.subDomainName} from ${organizations} where ${organizations.id} = app_current_org())`,
      newId: sql<string>`uuid_generate_v7()`,
      node: v.site_node_id ? nodeOfSite(sites.id, v.site_node_id) : yes,
      cat: v.category_id ? categoryOfType(v.type, v.category_id) : yes,
      sub: !v.sub_category_id ? yes : v.category_id ? subCategoryOf(v.category_id, v.sub_category_id) : no,
    })
    .from(sql`(select 1) as one`)
    .leftJoin(sites, and(eq(sites.id, v.site_id), eq(sites.isActive, true)))
    .leftJoin(users, and(eq(users.id, sites.headOfSafetyId), eq(users.status, 'Active')));
  const { headId, headEmail, headLocale, node, cat, sub, id, name, timeZone, headOfSafetyId, subDomain, newId } = row!;
  categoryErrors({ categoryId: v.category_id, subCategoryId: v.sub_category_id }, { cat, sub }, fields);
  if (!id || !name || !timeZone) {
    fields['site_id'] = 'observations.validation.siteUnknown';
    return null;
  }
  if (!node) fields['site_node_id'] = 'observations.validation.nodeUnknown';
  const head = headId && headEmail && headLocale ? { id: headId, email: headEmail, locale: headLocale } : null;
  return { id, name, timeZone, headOfSafetyId, subDomain, newId, head };
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
