import { can, isLiveStatus, localDateTimeIn, permitAbilities, type Permit, type PermitEvent } from '@bulwark/domain';
import { and, asc, eq, inArray, isNull } from 'drizzle-orm';
import type { Principal } from '../../platform/auth/principal.js';
import type { Tx } from '../../platform/db/db.js';
import { auditLog, files, users } from '../../platform/db/schema.js';
import type { AppDeps } from '../../platform/deps.js';
import { reviewOf } from '../workflows/review.js';
import { sites } from '../sites/read.js';
import { areasOf } from './areas.js';
import { fromPgTimestamp } from './checks.js';
import { clashesFor } from './clash.js';
import { organizationUrl, statusPath } from './notify.js';
import { PERMIT_ENTITY, issuersOf, loadPermit, numberOf, type PermitRow } from './record.js';
import { sectionsOf } from './template-read.js';
import { permitExtensions, permitFiles, permits, permitTemplates, permitWorkers, workProfiles } from './tables.js';
import { lastUsed, workerOf } from './workers.js';

/** The permit's own timeline, from its history (the review's steps are in `review.timeline`). */
const EVENTS: Record<string, PermitEvent['kind']> = {
  permit_created: 'created',
  permit_cloned: 'cloned',
  permit_updated: 'updated',
  permit_shared: 'shared',
  permit_unshared: 'unshared',
  permit_submitted: 'submitted',
  permit_approved: 'approved',
  permit_rejected: 'rejected',
  permit_extension_requested: 'extension_requested',
  permit_extension_approved: 'extension_approved',
  permit_extension_rejected: 'extension_rejected',
  permit_extension_withdrawn: 'extension_withdrawn',
  permit_revoked: 'revoked',
  permit_closed: 'closed',
};

type Change = { comment?: string | null; declaration?: string; status?: { to?: string } };

async function historyOf(tx: Tx, id: string) {
  return tx
    .select({ at: auditLog.createdAt, actorId: auditLog.actorUserId, action: auditLog.action, changes: auditLog.changes })
    .from(auditLog)
    .where(and(eq(auditLog.entity, PERMIT_ENTITY), eq(auditLog.entityId, id)))
    .orderBy(asc(auditLog.createdAt), asc(auditLog.id));
}

function eventOf(h: Awaited<ReturnType<typeof historyOf>>[number]): Omit<PermitEvent, 'actor'> | null {
  const c = h.changes as Change;
  const kind =
    h.action === 'permit_status_changed'
      ? c.status?.to === 'overdue'
        ? 'overdue'
        : c.status?.to === 'pending_closure'
          ? 'pending_closure'
          : null
      : EVENTS[h.action];
  return kind ? { at: h.at.toISOString(), kind, comment: c.comment ?? c.declaration ?? null } : null;
}

/**
 * One permit as the summary shows it to this viewer (spec 001 §2: requester, workers, location, time
 * of work, issuing officers, status and the actions they may take), with its answers, clashes, review
 * and timeline. A draft is seen by its authors only (loadPermit).
 */
export async function permitView(tx: Tx, deps: Pick<AppDeps, 'config'>, viewer: Principal, id: string): Promise<Permit> {
  const { row, sharedWith } = await loadPermit(tx, viewer, id);
  const [template] = await tx.select().from(permitTemplates).where(eq(permitTemplates.id, row.templateId));
  const [site] = row.siteId ? await tx.select().from(sites).where(eq(sites.id, row.siteId)) : [];
  const areas = await areasOf(tx, row.siteId ? [row.siteId] : []);
  const workers = await tx
    .select({ w: workProfiles, used: lastUsed })
    .from(permitWorkers)
    .innerJoin(
      workProfiles,
      and(eq(workProfiles.organizationId, permitWorkers.organizationId), eq(workProfiles.id, permitWorkers.workerId)),
    )
    .where(eq(permitWorkers.permitId, row.id))
    .orderBy(asc(permitWorkers.position));
  const attachments = await tx
    .select({ id: files.id, file_name: files.fileName })
    .from(permitFiles)
    .innerJoin(files, and(eq(files.organizationId, permitFiles.organizationId), eq(files.id, permitFiles.fileId)))
    .where(and(eq(permitFiles.permitId, row.id), isNull(permitFiles.questionId)));
  const extensions = await tx
    .select()
    .from(permitExtensions)
    .where(eq(permitExtensions.permitId, row.id))
    .orderBy(asc(permitExtensions.requestedAt));
  const issuers = (await issuersOf(tx, [row.id])).get(row.id) ?? [];
  const history = await historyOf(tx, row.id);
  const review = await reviewOf(tx, viewer, 'permits', row.id);

  const ids = new Set<string>([...sharedWith, ...issuers]);
  for (const x of [row.requesterId, row.revokedBy, row.closedBy, ...extensions.map((e) => e.requestedBy), ...history.map((h) => h.actorId)])
    if (x) ids.add(x);
  const people = ids.size
    ? await tx
        .select({ id: users.id, full_name: users.fullName })
        .from(users)
        .where(inArray(users.id, [...ids]))
    : [];
  const byId = new Map(people.map((u) => [u.id, u]));
  const person = (uid: string | null) => (uid ? (byId.get(uid) ?? { id: uid, full_name: '' }) : null);
  const zone = site?.timeZone ?? 'UTC';
  const local = (d: Date | null) => (d ? localDateTimeIn(zone, d) : null);
  const extensionPending = extensions.some((e) => e.state === 'pending');
  const [source] = row.clonedFrom
    ? await tx
        .select({ id: permits.id, prefix: permits.prefix, serial: permits.serial })
        .from(permits)
        .where(eq(permits.id, row.clonedFrom))
    : [];
  const clashing = row.status === 'draft' || row.status === 'requested' || isLiveStatus(row.status);

  return {
    id: row.id,
    number: numberOf(row),
    serial: row.serial,
    template: {
      id: row.templateId,
      name: template!.name,
      extension_hours: template!.extensionHours,
      extension_declaration: template!.extensionDeclaration,
    },
    status: row.status,
    requester: person(row.requesterId) ?? { id: '', full_name: '' },
    shared_with: sharedWith.map((u) => person(u)!),
    site: site ? { id: site.id, name: site.name, time_zone: site.timeZone } : null,
    area: row.siteNodeId
      ? { id: row.siteNodeId, level: areas.level(row.siteNodeId) ?? 'division', full_name: areas.fullName(row.siteNodeId) ?? '' }
      : null,
    start_at: fromPgTimestamp(row.startLocal),
    end_at: fromPgTimestamp(row.endLocal),
    start_instant: row.startAt?.toISOString() ?? null,
    end_instant: row.endAt?.toISOString() ?? null,
    description: row.description,
    workers: workers.map((w) => workerOf(w.w, w.used)),
    sections: row.status === 'draft' ? await sectionsOf(tx, row.templateId, true) : row.form,
    answers: row.answers,
    attachments,
    issuing_officers: issuers.map((u) => person(u)!),
    submitted_at: row.submittedAt?.toISOString() ?? null,
    approved_at: row.approvedAt?.toISOString() ?? null,
    revocation: row.revokedAt ? { by: person(row.revokedBy), at: row.revokedAt.toISOString(), comment: row.revokeComment ?? '' } : null,
    closure: row.closedAt
      ? { by: person(row.closedBy), at: row.closedAt.toISOString(), comment: row.closureComment, answers: row.closureAnswers ?? {} }
      : null,
    extensions: extensions.map((e) => ({
      id: e.id,
      state: e.state,
      declaration: e.declaration,
      hours: e.hours,
      requested_by: person(e.requestedBy),
      requested_at: e.requestedAt.toISOString(),
      end_before: local(e.endBefore)!,
      end_after: local(e.endAfter),
      decided_at: e.decidedAt?.toISOString() ?? null,
    })),
    extension_pending: extensionPending,
    clashes: clashing ? await clashesFor(tx, row) : [],
    review,
    timeline: history.flatMap((h) => {
      const e = eventOf(h);
      return e ? [{ ...e, actor: person(h.actorId) }] : [];
    }),
    abilities: permitAbilities(
      {
        status: row.status,
        requesterId: row.requesterId ?? '',
        sharedWith,
        extensionPending,
        reviewPending: review?.outcome === 'pending',
        reviewMode: review?.mode ?? null,
        viewerMayDecide: review?.may_decide ?? false,
      },
      { userId: viewer.userId, access: viewer.access, isGuest: viewer.kind === 'guest' },
    ),
    status_url: row.status === 'draft' ? null : await organizationUrl(tx, deps, statusPath(row.statusToken)),
    cloned_from: source ? { id: source.id, number: numberOf(source) } : null,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}

/** Whether the viewer may read permits at all (the read gate of their files). */
export function readsPermits(p: Principal): boolean {
  return p.kind !== 'guest' && can(p.access, 'Permit', 'read');
}

export type { PermitRow };
