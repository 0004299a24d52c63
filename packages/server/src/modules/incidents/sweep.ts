import { actionDateIn, actionDaysBetween } from '@bulwark/domain';
import { and, eq, isNull, isNotNull, lte } from 'drizzle-orm';
import { recordAudit } from '../../platform/audit.js';
import { inTenant } from '../../platform/db/db.js';
import { organizations } from '../../platform/db/schema.js';
import { dispatchTemplatedMail, type QueuedTemplatedMail } from '../mailers/send.js';
import { sites } from '../sites/read.js';
import { ENTITY } from './create.js';
import { mailMember, type IncidentsDeps } from './notify.js';
import { incidents } from './tables.js';

export const INCIDENTS_SWEEP_QUEUE = 'incidents-overdue-sweep';

/**
 * The hourly sweep (DECISIONS: overdue once the investigation's target date has passed at the site and
 * the incident is not closed). In each site's time zone, an open incident whose target date is before
 * today turns overdue (history, push), and its lead and the site's head of safety are told once per
 * target date, in the app and by mail. `now` is a parameter so tests can stand anywhere in time.
 */
export async function sweepIncidents(deps: IncidentsDeps, now: Date = new Date()): Promise<{ overdue: string[] }> {
  // A date one day past UTC's bounds every site's "today" (time zones reach UTC+14).
  const horizon = new Date(now.getTime() + 86_400_000).toISOString().slice(0, 10);
  const due = and(eq(incidents.status, 'open'), isNotNull(incidents.targetDate), lte(incidents.targetDate, horizon));
  // The owner connection finds the organisations with work; each is swept in its own tenant transaction.
  const orgs = await deps.db.owner
    .selectDistinct({ id: incidents.organizationId })
    .from(incidents)
    .innerJoin(organizations, eq(organizations.id, incidents.organizationId))
    .where(and(due, isNull(organizations.deletedAt)));
  const overdue: string[] = [];
  for (const org of orgs) {
    const { ids, mail } = await inTenant(deps.db.app, org.id, async (tx) => {
      const rows = await tx
        .select({ o: incidents, timeZone: sites.timeZone, siteName: sites.name, headOfSafetyId: sites.headOfSafetyId })
        .from(incidents)
        .innerJoin(sites, and(eq(sites.organizationId, incidents.organizationId), eq(sites.id, incidents.siteId)))
        .where(due)
        .for('update', { of: incidents });
      const ids: string[] = [];
      const mail: QueuedTemplatedMail[] = [];
      for (const { o, timeZone, siteName, headOfSafetyId } of rows) {
        const today = actionDateIn(timeZone, now);
        if (!o.targetDate || o.targetDate >= today) continue;
        const notify = o.overdueNotifiedFor !== o.targetDate;
        await tx
          .update(incidents)
          .set({ status: 'overdue', overdueNotifiedFor: o.targetDate, updatedAt: now })
          .where(eq(incidents.id, o.id));
        await recordAudit(tx, {
          actorUserId: null,
          action: 'incident_status_changed',
          entity: ENTITY,
          entityId: o.id,
          changes: { diff: { status: { from: o.status, to: 'overdue' } }, target_date: o.targetDate },
        });
        ids.push(o.id);
        if (!notify) continue;
        const vars = () => ({
          site_name: siteName,
          target_date: o.targetDate!,
          days_overdue: String(actionDaysBetween(o.targetDate!, today)),
        });
        for (const userId of new Set([o.leadId, headOfSafetyId].filter((u): u is string => !!u))) {
          const m = await mailMember(tx, deps, 'investigation_overdue', userId, o, vars);
          if (m) mail.push(m);
        }
      }
      return { ids, mail };
    });
    for (const id of ids) deps.push.toOrganization(org.id, { channel: 'incidents', change: 'updated', id });
    if (mail.length > 0) await dispatchTemplatedMail(deps, mail);
    overdue.push(...ids);
  }
  return { overdue };
}
