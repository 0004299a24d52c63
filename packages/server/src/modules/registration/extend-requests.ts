import type { ExtendRequest, ExtendRequestStatus, PlatformExtendRequest } from '@bulwark/domain';
import { and, desc, eq, sql } from 'drizzle-orm';
import type { Principal } from '../../platform/auth/principal.js';
import { recordAudit } from '../../platform/audit.js';
import type { Tx } from '../../platform/db/db.js';
import { organizations, users } from '../../platform/db/schema.js';
import type { AppDeps } from '../../platform/deps.js';
import { AppError } from '../../platform/errors.js';
import { MAIL_QUEUE } from '../../platform/mail/mail.js';
import { seeEveryOrganization } from '../organizations/service.js';
import { extendRequests } from './tables.js';
import { planChanged, tellAdmins } from './trial.js';

type Deps = Pick<AppDeps, 'mail' | 'jobs' | 'push'>;
type Row = typeof extendRequests.$inferSelect;
type Requester = { id: string; fullName: string; email: string } | null;

function toDto(r: Row, by: Requester): ExtendRequest {
  return {
    id: r.id,
    organization_id: r.organizationId,
    reason: r.reason,
    status: r.status,
    requested_by: by ? { id: by.id, full_name: by.fullName, email: by.email } : null,
    days_granted: r.daysGranted,
    decision_reason: r.decisionReason,
    decided_at: r.decidedAt?.toISOString() ?? null,
    created_at: r.createdAt.toISOString(),
  };
}

const requester = { id: users.id, fullName: users.fullName, email: users.email };

/** A platform admin's decision, and what must wait for its commit (push, mail). */
export type Decided = { request: PlatformExtendRequest; afterCommit: () => Promise<void> };

/**
 * Free-trial extension requests: an organisation's admin asks (one waiting at a time) and sees their
 * own; the platform admin sees every organisation's and approves (+N days) or rejects with a reason.
 * Each call runs in the request's transaction; the platform admin's calls open it to every
 * organisation first (the explicit platform path).
 */
export function createExtendRequestService(deps: Deps) {
  /** The caller's own organisation only; any other id is "not found", like a missing one. */
  function ownOrganization(p: Principal, organizationId: string) {
    if (organizationId !== p.organizationId || p.isPlatformAdmin) throw new AppError('not_found');
  }

  async function listOwn(tx: Tx, p: Principal, organizationId: string): Promise<ExtendRequest[]> {
    ownOrganization(p, organizationId);
    const rows = await tx
      .select({ r: extendRequests, by: requester })
      .from(extendRequests)
      .leftJoin(users, and(eq(users.organizationId, extendRequests.organizationId), eq(users.id, extendRequests.requestedBy)))
      .orderBy(desc(extendRequests.createdAt));
    return rows.map(({ r, by }) => toDto(r, by));
  }

  /** Records the request; the caller tells the organisation's screens (`planChanged`) once it has committed. */
  async function create(tx: Tx, p: Principal, organizationId: string, reason: string): Promise<ExtendRequest> {
    ownOrganization(p, organizationId);
    const [pending] = await tx.select({ id: extendRequests.id }).from(extendRequests).where(eq(extendRequests.status, 'pending')).limit(1);
    if (pending) throw new AppError('conflict', { messageKey: 'registration.validation.alreadyPending' });
    const [inserted] = await tx.insert(extendRequests).values({ requestedBy: p.userId, reason }).onConflictDoNothing().returning();
    // A request made at the same moment by another admin won the unique index.
    if (!inserted) throw new AppError('conflict', { messageKey: 'registration.validation.alreadyPending' });
    await recordAudit(tx, {
      actorUserId: p.userId,
      action: 'create',
      entity: 'OrgFreeTrialExtendRequest',
      entityId: inserted.id,
      changes: { reason },
    });
    return toDto(inserted, { id: p.userId, fullName: p.fullName, email: p.email });
  }

  async function listAll(tx: Tx, status: ExtendRequestStatus | undefined): Promise<PlatformExtendRequest[]> {
    // The explicit platform path: the requests table's platform policy and the organisations' both open here.
    await seeEveryOrganization(tx);
    const rows = await tx
      .select({ r: extendRequests, org: organizations })
      .from(extendRequests)
      .innerJoin(organizations, eq(organizations.id, extendRequests.organizationId))
      .where(and(status ? eq(extendRequests.status, status) : undefined, sql`${organizations.deletedAt} is null`))
      .orderBy(desc(extendRequests.createdAt))
      .limit(500);
    // Requesters live behind each organisation's wall: read them organisation by organisation.
    const byOrg = new Map<string, Map<string, Requester>>();
    for (const orgId of new Set(rows.map((x) => x.r.organizationId))) {
      await tx.execute(sql`select set_config('app.organization_id', ${orgId}, true)`);
      const people = await tx.select(requester).from(users);
      byOrg.set(orgId, new Map(people.map((u) => [u.id, u])));
    }
    return rows.map(({ r, org }) => ({
      ...toDto(r, (r.requestedBy && byOrg.get(r.organizationId)?.get(r.requestedBy)) || null),
      organization: {
        name: org.name,
        sub_domain_name: org.subDomainName,
        subscription_type: org.subscriptionType,
        trial_ends_at: org.trialEndsAt?.toISOString() ?? null,
      },
    }));
  }

  /** Locks a pending request (on the platform path) and acts for its organisation from then on. */
  async function lockPending(tx: Tx, id: string) {
    const [row] = await tx.select().from(extendRequests).where(eq(extendRequests.id, id)).for('update');
    if (!row) throw new AppError('not_found');
    const [org] = await tx.select().from(organizations).where(eq(organizations.id, row.organizationId));
    if (!org || org.deletedAt) throw new AppError('not_found');
    if (row.status !== 'pending') throw new AppError('conflict', { messageKey: 'registration.validation.notPending' });
    await tx.execute(sql`select set_config('app.organization_id', ${row.organizationId}, true)`);
    return { row, org };
  }

  /** Once the decision has committed: the organisation's screens hear of it and the admins' mail goes out. */
  function afterDecision(organizationId: string, mailIds: string[]) {
    return async () => {
      planChanged(deps, organizationId);
      deps.push.toOrganization(organizationId, { channel: 'notification', change: 'created' });
      if (deps.mail.smtpEnabled) for (const id of mailIds) await deps.jobs?.send(MAIL_QUEUE, { organizationId, id });
    };
  }

  async function approve(tx: Tx, p: Principal, id: string, days: number): Promise<Decided> {
    await seeEveryOrganization(tx);
    const { row, org } = await lockPending(tx, id);
    // An extension counts from the later of now and the current end, so days are never lost.
    const base = Math.max(Date.now(), org.trialEndsAt?.getTime() ?? 0);
    const endsAt = new Date(base + days * 86_400_000);
    const [orgAfter] = await tx
      .update(organizations)
      .set({ trialEndsAt: endsAt, updatedAt: new Date() })
      .where(eq(organizations.id, org.id))
      .returning();
    const [updated] = await tx
      .update(extendRequests)
      .set({ status: 'approved', daysGranted: days, decidedBy: p.userId, decidedAt: new Date() })
      .where(and(eq(extendRequests.organizationId, row.organizationId), eq(extendRequests.id, row.id)))
      .returning();
    await recordAudit(tx, {
      actorUserId: null,
      action: 'approve',
      entity: 'OrgFreeTrialExtendRequest',
      entityId: row.id,
      changes: { days, trialEndsAt: endsAt.toISOString(), platformAdmin: p.userId },
    });
    const ids = await tellAdmins(tx, deps, {
      titleKey: 'registration.notifications.approvedTitle',
      bodyKey: 'registration.notifications.approvedBody',
      mailSubjectKey: 'registration.mail.approvedSubject',
      mailBodyKey: 'registration.mail.approvedBody',
      vars: { organization: org.name, days, date: endsAt.toISOString().slice(0, 10) },
      link: '/',
    });
    const [by] = row.requestedBy ? await tx.select(requester).from(users).where(eq(users.id, row.requestedBy)) : [];
    return {
      request: {
        ...toDto(updated!, by ?? null),
        organization: {
          name: org.name,
          sub_domain_name: org.subDomainName,
          subscription_type: orgAfter!.subscriptionType,
          trial_ends_at: endsAt.toISOString(),
        },
      },
      afterCommit: afterDecision(org.id, ids),
    };
  }

  async function reject(tx: Tx, p: Principal, id: string, reason: string): Promise<Decided> {
    await seeEveryOrganization(tx);
    const { row, org } = await lockPending(tx, id);
    const [updated] = await tx
      .update(extendRequests)
      .set({ status: 'rejected', decisionReason: reason, decidedBy: p.userId, decidedAt: new Date() })
      .where(and(eq(extendRequests.organizationId, row.organizationId), eq(extendRequests.id, row.id)))
      .returning();
    await recordAudit(tx, {
      actorUserId: null,
      action: 'reject',
      entity: 'OrgFreeTrialExtendRequest',
      entityId: row.id,
      changes: { reason, platformAdmin: p.userId },
    });
    const ids = await tellAdmins(tx, deps, {
      titleKey: 'registration.notifications.rejectedTitle',
      bodyKey: 'registration.notifications.rejectedBody',
      mailSubjectKey: 'registration.mail.rejectedSubject',
      mailBodyKey: 'registration.mail.rejectedBody',
      vars: { organization: org.name, reason },
      link: '/',
    });
    const [by] = row.requestedBy ? await tx.select(requester).from(users).where(eq(users.id, row.requestedBy)) : [];
    return {
      request: {
        ...toDto(updated!, by ?? null),
        organization: {
          name: org.name,
          sub_domain_name: org.subDomainName,
          subscription_type: org.subscriptionType,
          trial_ends_at: org.trialEndsAt?.toISOString() ?? null,
        },
      },
      afterCommit: afterDecision(org.id, ids),
    };
  }

  return { listOwn, create, listAll, approve, reject };
}
