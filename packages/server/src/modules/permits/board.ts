import { randomBytes } from 'node:crypto';
import {
  PERMIT_BOARD_HORIZON_HOURS,
  PERMIT_BOARD_LINKS_MAX,
  PERMIT_BOARD_REFRESH_SECONDS,
  PERMIT_LIVE_STATUSES,
  isLiveStatus,
  type BoardLink,
  type PermitBoard,
  type PermitPublicStatus,
} from '@bulwark/domain';
import { and, asc, count, desc, eq, gt, inArray, isNull, lt, or } from 'drizzle-orm';
import type { Principal } from '../../platform/auth/principal.js';
import { sha256 } from '../../platform/auth/tokens.js';
import { recordAudit } from '../../platform/audit.js';
import type { Tx } from '../../platform/db/db.js';
import { users } from '../../platform/db/schema.js';
import type { AppDeps } from '../../platform/deps.js';
import { AppError } from '../../platform/errors.js';
import { sites } from '../sites/read.js';
import { areasOf } from './areas.js';
import { fromPgTimestamp } from './checks.js';
import { organizationUrl } from './notify.js';
import { issuersOf, numberOf } from './record.js';
import { permitBoardLinks, permitExtensions, permits, permitTemplates, permitWorkers, workProfiles } from './tables.js';

const HOUR = 3_600_000;
const BOARD_ENTITY = 'PermitBoardLink';

/**
 * The live board of one site (issue 16): every issued permit live now (approved or extended and not
 * ended, or ended and not yet closed: pending closure, overdue) or starting within the horizon, by
 * area (the whole site first), each with its type, workers, issuer and time left. `withIds`: the
 * signed-in board links to each permit; a board link's screen gets no ids.
 */
export async function boardOf(tx: Tx, siteId: string, now: Date, withIds: boolean): Promise<PermitBoard> {
  const [site] = await tx.select({ id: sites.id, name: sites.name, timeZone: sites.timeZone }).from(sites).where(eq(sites.id, siteId));
  if (!site) throw new AppError('not_found');
  const horizon = new Date(now.getTime() + PERMIT_BOARD_HORIZON_HOURS * HOUR);
  const rows = await tx
    .select({ o: permits, type: permitTemplates.name })
    .from(permits)
    .innerJoin(permitTemplates, eq(permitTemplates.id, permits.templateId))
    .where(
      and(
        eq(permits.siteId, siteId),
        inArray(permits.status, [...PERMIT_LIVE_STATUSES]),
        lt(permits.startAt, horizon),
        or(gt(permits.endAt, now), inArray(permits.status, ['pending_closure', 'overdue'])),
      ),
    )
    .orderBy(asc(permits.startAt), asc(permits.serial));
  const ids = rows.map((r) => r.o.id);
  const workers = ids.length
    ? await tx
        .select({ permitId: permitWorkers.permitId, name: workProfiles.name })
        .from(permitWorkers)
        .innerJoin(
          workProfiles,
          and(eq(workProfiles.organizationId, permitWorkers.organizationId), eq(workProfiles.id, permitWorkers.workerId)),
        )
        .where(inArray(permitWorkers.permitId, ids))
        .orderBy(asc(permitWorkers.position))
    : [];
  const pending = ids.length
    ? new Set(
        (
          await tx
            .select({ id: permitExtensions.permitId })
            .from(permitExtensions)
            .where(and(inArray(permitExtensions.permitId, ids), eq(permitExtensions.state, 'pending')))
        ).map((e) => e.id),
      )
    : new Set<string>();
  const issuers = await issuersOf(tx, ids);
  const lastIssuers = [...new Set([...issuers.values()].map((l) => l.at(-1)).filter((u): u is string => !!u))];
  const names = new Map(
    lastIssuers.length
      ? (await tx.select({ id: users.id, name: users.fullName }).from(users).where(inArray(users.id, lastIssuers))).map((u) => [
          u.id,
          u.name,
        ])
      : [],
  );
  const areas = await areasOf(tx, [siteId]);
  const groups = new Map<string, PermitBoard['areas'][number]>();
  for (const { o, type } of rows) {
    const key = o.siteNodeId ?? '';
    const group = groups.get(key) ?? {
      area: o.siteNodeId ? { id: o.siteNodeId, full_name: areas.fullName(o.siteNodeId) ?? '' } : null,
      permits: [],
    };
    const issuer = issuers.get(o.id)?.at(-1);
    group.permits.push({
      id: withIds ? o.id : null,
      number: numberOf(o),
      type,
      status: o.status,
      workers: workers.filter((w) => w.permitId === o.id).map((w) => w.name),
      issuer: issuer ? (names.get(issuer) ?? null) : null,
      start_at: fromPgTimestamp(o.startLocal)!,
      end_at: fromPgTimestamp(o.endLocal)!,
      starts_in_seconds: Math.max(0, Math.round((o.startAt!.getTime() - now.getTime()) / 1000)),
      time_left_seconds: Math.round((o.endAt!.getTime() - now.getTime()) / 1000),
      extension_pending: pending.has(o.id),
    });
    groups.set(key, group);
  }
  const ordered = [...groups.values()].sort((a, b) =>
    a.area === null ? -1 : b.area === null ? 1 : a.area.full_name.localeCompare(b.area.full_name),
  );
  return {
    site: { id: site.id, name: site.name, time_zone: site.timeZone },
    generated_at: now.toISOString(),
    refresh_seconds: PERMIT_BOARD_REFRESH_SECONDS,
    areas: ordered,
  };
}

/** A board link's board: refused (not found) once revoked; its use is noted. */
export async function linkBoard(tx: Tx, token: string, now: Date): Promise<PermitBoard> {
  const [link] = await tx
    .select()
    .from(permitBoardLinks)
    .where(and(eq(permitBoardLinks.tokenHash, sha256(token)), isNull(permitBoardLinks.revokedAt)));
  if (!link) throw new AppError('not_found');
  await tx.update(permitBoardLinks).set({ lastUsedAt: now }).where(eq(permitBoardLinks.id, link.id));
  return boardOf(tx, link.siteId, now, false);
}

function linkOf(r: typeof permitBoardLinks.$inferSelect, siteName: string, creator: string | null): BoardLink {
  return {
    id: r.id,
    site: { id: r.siteId, name: siteName },
    label: r.label,
    created_by: r.createdBy ? { id: r.createdBy, full_name: creator ?? '' } : null,
    created_at: r.createdAt.toISOString(),
    revoked_at: r.revokedAt?.toISOString() ?? null,
    last_used_at: r.lastUsedAt?.toISOString() ?? null,
  };
}

export async function boardLinks(tx: Tx): Promise<BoardLink[]> {
  const rows = await tx
    .select({ l: permitBoardLinks, siteName: sites.name, creator: users.fullName })
    .from(permitBoardLinks)
    .innerJoin(sites, eq(sites.id, permitBoardLinks.siteId))
    .leftJoin(users, eq(users.id, permitBoardLinks.createdBy))
    .orderBy(desc(permitBoardLinks.createdAt));
  return rows.map((r) => linkOf(r.l, r.siteName, r.creator));
}

/** A read-only board link for one active site; the token is in this answer only (its hash is kept). */
export async function createBoardLink(tx: Tx, deps: Pick<AppDeps, 'config'>, actor: Principal, body: { site_id: string; label: string }) {
  const [site] = await tx
    .select({ name: sites.name })
    .from(sites)
    .where(and(eq(sites.id, body.site_id), eq(sites.isActive, true)));
  if (!site) throw new AppError('validation_failed', { fields: { site_id: 'permits.validation.siteUnknown' } });
  const [live] = await tx.select({ n: count() }).from(permitBoardLinks).where(isNull(permitBoardLinks.revokedAt));
  if (Number(live?.n ?? 0) >= PERMIT_BOARD_LINKS_MAX) throw new AppError('conflict', { messageKey: 'permits.errors.boardLinksMax' });
  const token = randomBytes(32).toString('base64url');
  const [row] = await tx
    .insert(permitBoardLinks)
    .values({ siteId: body.site_id, label: body.label, tokenHash: sha256(token), createdBy: actor.userId })
    .returning();
  await recordAudit(tx, {
    actorUserId: actor.userId,
    action: 'permit_board_link_created',
    entity: BOARD_ENTITY,
    entityId: row!.id,
    changes: { site_id: body.site_id, label: body.label },
  });
  return { link: linkOf(row!, site.name, actor.fullName), token, url: await organizationUrl(tx, deps, `/permit-board/live/${token}`) };
}

export async function revokeBoardLink(tx: Tx, actor: Principal, id: string, now: Date): Promise<void> {
  const [row] = await tx
    .update(permitBoardLinks)
    .set({ revokedAt: now })
    .where(and(eq(permitBoardLinks.id, id), isNull(permitBoardLinks.revokedAt)))
    .returning();
  if (!row) {
    const [exists] = await tx.select({ id: permitBoardLinks.id }).from(permitBoardLinks).where(eq(permitBoardLinks.id, id));
    if (!exists) throw new AppError('not_found');
    return;
  }
  await recordAudit(tx, { actorUserId: actor.userId, action: 'permit_board_link_revoked', entity: BOARD_ENTITY, entityId: id });
}

/**
 * The public status of a permit (its printed QR code): only what the paper shows anyway. A draft has
 * no public status (not found), nor does a token of another organisation (the tenant's wall).
 */
export async function publicStatus(tx: Tx, token: string, now: Date): Promise<PermitPublicStatus> {
  const [row] = await tx
    .select({ o: permits, type: permitTemplates.name, siteName: sites.name, zone: sites.timeZone })
    .from(permits)
    .innerJoin(permitTemplates, eq(permitTemplates.id, permits.templateId))
    .innerJoin(sites, eq(sites.id, permits.siteId))
    .where(eq(permits.statusToken, token));
  if (!row || row.o.status === 'draft') throw new AppError('not_found');
  const areas = await areasOf(tx, [row.o.siteId!]);
  const o = row.o;
  const within = !!o.startAt && !!o.endAt && o.startAt <= now && now < o.endAt;
  return {
    number: numberOf(o),
    type: row.type,
    site_name: row.siteName,
    area_name: areas.fullName(o.siteNodeId),
    time_zone: row.zone,
    valid_from: fromPgTimestamp(o.startLocal),
    valid_until: fromPgTimestamp(o.endLocal),
    status: o.status,
    valid_now: (o.status === 'approved' || o.status === 'extended') && within && isLiveStatus(o.status),
    checked_at: now.toISOString(),
  };
}
