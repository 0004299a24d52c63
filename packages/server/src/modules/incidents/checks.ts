import { isFutureInZone, siteFullName, type IncidentType, type SiteLevel } from '@bulwark/domain';
import { and, eq, gt, inArray, isNull, sql } from 'drizzle-orm';
import type { Tx } from '../../platform/db/db.js';
import { files, users } from '../../platform/db/schema.js';
import { AppError } from '../../platform/errors.js';
import { unlinkedCondition } from '../../platform/storage/links.js';
import { categories } from '../categories/read.js';
import { siteNodes, sites } from '../sites/read.js';

/** Checks of the references an incident holds; each records a field error (an i18n key) instead of throwing. */
export type FieldErrors = Record<string, string>;

export function refuse(fields: FieldErrors): void {
  if (Object.keys(fields).length > 0) throw new AppError('validation_failed', { fields });
}

/** PostgreSQL prints a timestamp as 'YYYY-MM-DD HH:mm:ss'; the API speaks 'YYYY-MM-DDTHH:mm'. */
export function toLocalText(pgTimestamp: string): string {
  return pgTimestamp.slice(0, 16).replace(' ', 'T');
}

/** The stored form of a local date-time. */
export function toPgTimestamp(local: string): string {
  return `${local.replace('T', ' ')}:00`;
}

export type CheckedSite = { id: string; name: string; timeZone: string; headOfSafetyId: string | null };

/** The site if it is an active site of the organisation. */
export async function checkSite(tx: Tx, siteId: string, fields: FieldErrors): Promise<CheckedSite | null> {
  const [row] = await tx
    .select({ id: sites.id, name: sites.name, timeZone: sites.timeZone, headOfSafetyId: sites.headOfSafetyId })
    .from(sites)
    .where(and(eq(sites.id, siteId), eq(sites.isActive, true)));
  if (!row) fields['site_id'] = 'incidents.validation.siteUnknown';
  return row ?? null;
}

/** The site of a stored incident, active or not (its time zone decides its dates). */
export async function siteOf(tx: Tx, siteId: string): Promise<CheckedSite> {
  const [row] = await tx
    .select({ id: sites.id, name: sites.name, timeZone: sites.timeZone, headOfSafetyId: sites.headOfSafetyId })
    .from(sites)
    .where(eq(sites.id, siteId));
  return row!;
}

/** A division, department or unit of the site. */
export async function checkNode(tx: Tx, siteId: string, nodeId: string | null, fields: FieldErrors): Promise<void> {
  if (!nodeId) return;
  const [row] = await tx
    .select({ id: siteNodes.id })
    .from(siteNodes)
    .where(and(eq(siteNodes.id, nodeId), eq(siteNodes.siteId, siteId)));
  if (!row) fields['site_node_id'] = 'incidents.validation.nodeUnknown';
}

/** An active category of the incidents module, of the incident's type. */
export async function checkCategory(tx: Tx, type: IncidentType, categoryId: string | null, fields: FieldErrors): Promise<void> {
  if (!categoryId) return;
  const [cat] = await tx
    .select({ id: categories.id })
    .from(categories)
    .where(and(eq(categories.id, categoryId), eq(categories.module, 'incidents'), eq(categories.type, type), eq(categories.active, true)));
  if (!cat) fields['category_id'] = 'incidents.validation.categoryUnknown';
}

/** "No future time" in the site's own zone (spec 001 §5). */
export function checkNotFuture(local: string, timeZone: string, field: string, fields: FieldErrors, now: Date, key: string): void {
  if (isFutureInZone(local, timeZone, now)) fields[field] = key;
}

/** How long a guest's upload may wait for the report it belongs to (platform: UNLINKED_FILE_TTL_HOURS). */
const GUEST_FILE_TTL = '1 day';

/**
 * Files that may be linked now: attachments this person uploaded (a guest's have no uploader and must
 * be fresh) that no record links yet. Another person's file reads "not found".
 */
export async function checkFiles(
  tx: Tx,
  ids: readonly string[],
  uploader: string | null,
  field: string,
  fields: FieldErrors,
): Promise<void> {
  if (ids.length === 0) return;
  const rows = await tx
    .select({ id: files.id })
    .from(files)
    .where(
      and(
        inArray(files.id, [...ids]),
        eq(files.purpose, 'attachment'),
        await unlinkedCondition(tx),
        uploader
          ? eq(files.uploadedBy, uploader)
          : and(isNull(files.uploadedBy), gt(files.createdAt, sql`now() - ${GUEST_FILE_TTL}::interval`)),
      ),
    );
  if (rows.length !== new Set(ids).size) fields[field] = 'incidents.validation.attachmentUnknown';
}

/** Active, non-guest members among `ids` (team, witnesses, report recipients). */
export async function activeMembers(
  tx: Tx,
  ids: readonly string[],
): Promise<Map<string, { id: string; fullName: string; email: string; locale: string }>> {
  if (ids.length === 0) return new Map();
  const rows = await tx
    .select({ id: users.id, fullName: users.fullName, email: users.email, locale: users.locale })
    .from(users)
    .where(
      and(inArray(users.id, [...new Set(ids)]), eq(users.status, 'Active'), eq(users.isGuest, false), eq(users.isPlatformAdmin, false)),
    );
  return new Map(rows.map((r) => [r.id, r]));
}

/** The area's full name "Site / Division / …" and its level. */
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
  return { id: node.id, level: node.level as Exclude<SiteLevel, 'site'>, full_name: siteFullName([siteName, ...names]) };
}
