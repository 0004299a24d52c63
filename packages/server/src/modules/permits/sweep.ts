import { PERMIT_CLOSURE_GRACE_HOURS, permitTimeStatus } from '@bulwark/domain';
import { and, eq, inArray, isNull, lte } from 'drizzle-orm';
import { recordAudit } from '../../platform/audit.js';
import { inTenant } from '../../platform/db/db.js';
import { organizations } from '../../platform/db/schema.js';
import { dispatchTemplatedMail, type QueuedTemplatedMail } from '../mailers/send.js';
import { fromPgTimestamp } from './checks.js';
import { peopleOf } from './lifecycle.js';
import { mailTime, tellAbout, type PermitsDeps } from './notify.js';
import { PERMIT_ENTITY } from './record.js';
import { permits } from './tables.js';

export const PERMITS_SWEEP_QUEUE = 'permits-time-sweep';

/** Issued permits the clock may move on: their end has passed and they are not closed. */
const SWEPT = ['approved', 'extended', 'pending_closure'] as const;

/**
 * The hourly job (docs/modules.md "Permits to work"): an issued permit whose end time has passed is
 * "pending closure" (the work time ended; the closure checklist is due), and PERMIT_CLOSURE_GRACE_HOURS
 * later, still not closed, "overdue". Each change is recorded and pushed; the requester, the issuing
 * officers and the site's head of safety are told once per end time and step (an approved extension
 * moves the end and arms both again). `now` is a parameter so tests can stand anywhere in time.
 */
export async function sweepPermits(deps: PermitsDeps, now: Date = new Date()): Promise<{ pendingClosure: string[]; overdue: string[] }> {
  const due = and(inArray(permits.status, [...SWEPT]), lte(permits.endAt, now));
  const orgs = await deps.db.owner
    .selectDistinct({ id: permits.organizationId })
    .from(permits)
    .innerJoin(organizations, eq(organizations.id, permits.organizationId))
    .where(and(due, isNull(organizations.deletedAt)));
  const out = { pendingClosure: [] as string[], overdue: [] as string[] };
  for (const org of orgs) {
    const { moved, mail } = await inTenant(deps.db.app, org.id, async (tx) => {
      const rows = await tx.select().from(permits).where(due).for('update');
      const moved: string[] = [];
      const mail: QueuedTemplatedMail[] = [];
      for (const row of rows) {
        const status = permitTimeStatus(row.status, row.endAt, now);
        if (status === row.status) continue;
        const overdue = status === 'overdue';
        const notify = overdue
          ? row.overdueNotifiedFor?.getTime() !== row.endAt!.getTime()
          : row.pendingNotifiedFor?.getTime() !== row.endAt!.getTime();
        await tx
          .update(permits)
          .set({ status, updatedAt: now, ...(overdue ? { overdueNotifiedFor: row.endAt } : { pendingNotifiedFor: row.endAt }) })
          .where(eq(permits.id, row.id));
        await recordAudit(tx, {
          actorUserId: null,
          action: 'permit_status_changed',
          entity: PERMIT_ENTITY,
          entityId: row.id,
          changes: { status: { from: row.status, to: status }, end_at: row.endAt, grace_hours: PERMIT_CLOSURE_GRACE_HOURS },
        });
        moved.push(row.id);
        (overdue ? out.overdue : out.pendingClosure).push(row.id);
        if (!notify) continue;
        const { ids, site } = await peopleOf(tx, row);
        const vars = () => ({ site_name: site.name, end_time: mailTime(fromPgTimestamp(row.endLocal), site.timeZone) });
        mail.push(...(await tellAbout(tx, deps, overdue ? 'permit_overdue' : 'permit_pending_closure', ids, null, row, vars)));
      }
      return { moved, mail };
    });
    for (const id of moved) deps.push.toOrganization(org.id, { channel: 'permits', change: 'updated', id });
    if (mail.length > 0) await dispatchTemplatedMail(deps, mail);
  }
  return out;
}
