import type { PermitClash, PermitStatus } from '@bulwark/domain';
import { and, asc, eq, gt, inArray, lt, ne, or } from 'drizzle-orm';
import type { Tx } from '../../platform/db/db.js';
import { areasOf } from './areas.js';
import { fromPgTimestamp } from './checks.js';
import { numberOf, type PermitRow } from './record.js';
import { permits, permitTemplateConflicts, permitTemplates } from './tables.js';

/** The permits a new one may clash with: asked for, or issued and not ended (closed, revoked, rejected have stopped). */
const CLASHING: PermitStatus[] = ['requested', 'approved', 'extended', 'pending_closure', 'overdue'];

/** The templates whose work conflicts with this template's (the organisation marks the pairs). */
async function conflictingTemplates(tx: Tx, templateId: string): Promise<string[]> {
  const rows = await tx
    .select()
    .from(permitTemplateConflicts)
    .where(or(eq(permitTemplateConflicts.templateA, templateId), eq(permitTemplateConflicts.templateB, templateId)));
  return [...new Set(rows.map((r) => (r.templateA === templateId ? r.templateB : r.templateA)))];
}

/**
 * The clash warning (issue 16): other permits of a conflicting type at the same site, in an area that
 * overlaps this one's (the whole site, the same area, or one inside the other), whose time overlaps
 * this one's. Shown to the requester and the approver before approving; it does not block.
 */
export async function clashesFor(
  tx: Tx,
  p: Pick<PermitRow, 'id' | 'templateId' | 'siteId' | 'siteNodeId' | 'startAt' | 'endAt'>,
): Promise<PermitClash[]> {
  if (!p.siteId || !p.startAt || !p.endAt) return [];
  const others = await conflictingTemplates(tx, p.templateId);
  if (others.length === 0) return [];
  const rows = await tx
    .select({ o: permits, templateName: permitTemplates.name })
    .from(permits)
    .innerJoin(permitTemplates, eq(permitTemplates.id, permits.templateId))
    .where(
      and(
        eq(permits.siteId, p.siteId),
        ne(permits.id, p.id),
        inArray(permits.templateId, others),
        inArray(permits.status, CLASHING),
        lt(permits.startAt, p.endAt),
        gt(permits.endAt, p.startAt),
      ),
    )
    .orderBy(asc(permits.startAt), asc(permits.serial));
  const areas = await areasOf(tx, [p.siteId]);
  return rows
    .filter(({ o }) => areas.overlap(o.siteNodeId, p.siteNodeId))
    .map(({ o, templateName }) => ({
      permit_id: o.id,
      number: numberOf(o),
      template: { id: o.templateId, name: templateName },
      status: o.status,
      area_name: areas.fullName(o.siteNodeId),
      start_at: fromPgTimestamp(o.startLocal)!,
      end_at: fromPgTimestamp(o.endLocal)!,
    }));
}
