import { localDateTimeIn, localDateTimeToInstant, type ObservationRiskLevel, type ObservationType } from '@bulwark/domain';
import { and, eq, sql } from 'drizzle-orm';
import { recordAudit } from '../../platform/audit.js';
import type { Tx } from '../../platform/db/db.js';
import { users } from '../../platform/db/schema.js';
import { categories } from '../categories/read.js';
import { sites } from '../sites/read.js';
import { observations, observationSerials } from './tables.js';
import { toPgTimestamp } from './view.js';

type Demo = {
  site: string;
  reporter: string | 'guest' | 'anonymous';
  daysAgo: number;
  type: ObservationType;
  category: string | null;
  risk: ObservationRiskLevel;
  description: string;
  comment: string;
  closedBy?: string;
  remarks?: string;
};

const DEMO: Demo[] = [
  {
    site: 'Riverside Manufacturing Plant',
    reporter: 'tomasz.kowalski@demo.test',
    daysAgo: 1,
    type: 'unsafe_condition',
    category: 'Housekeeping',
    risk: 'medium',
    description: 'Hydraulic oil leaking from press 4 onto the walkway next to the line.',
    comment: 'Area coned off; maintenance informed.',
  },
  {
    site: 'Riverside Manufacturing Plant',
    reporter: 'anonymous',
    daysAgo: 3,
    type: 'unsafe_act',
    category: 'PPE not used',
    risk: 'high',
    description: 'Operator grinding without eye protection at the fabrication bench.',
    comment: 'Happens mostly on the night shift.',
  },
  {
    site: 'Lakeside Distribution Centre',
    reporter: 'guest',
    daysAgo: 2,
    type: 'near_miss',
    category: null,
    risk: 'critical',
    description: 'A pallet fell from the second rack level while a forklift reversed; nobody was below.',
    comment: 'Seen from the visitor gallery.',
  },
  {
    site: 'Eastern Fabrication Yard',
    reporter: 'priya.nair@demo.test',
    daysAgo: 12,
    type: 'good_practice',
    category: 'Safety initiative',
    risk: 'low',
    description: 'Crew set up a dedicated exclusion zone with barriers before the crane lift.',
    comment: 'Shared at the morning toolbox talk.',
    closedBy: 'priya.nair@demo.test',
    remarks: 'Recognised at the monthly safety meeting.',
  },
  {
    site: 'Riverside Manufacturing Plant',
    reporter: 'priya.nair@demo.test',
    daysAgo: 20,
    type: 'unsafe_condition',
    category: 'Fire safety',
    risk: 'high',
    description: 'Fire exit at the paint shop blocked by empty drums.',
    comment: 'Drums moved on the spot.',
    closedBy: 'priya.nair@demo.test',
    remarks: 'Drum store relocated; exits checked on the weekly walk.',
  },
];

/** A few demo observations at the demo sites, open and closed (the demo sites, people and categories must exist). */
export async function seedDemoObservations(tx: Tx, now = new Date()): Promise<void> {
  const byEmail = async (email: string) => (await tx.select({ id: users.id }).from(users).where(eq(users.email, email)))[0]?.id ?? null;
  let serial = 0;
  for (const d of DEMO) {
    const [site] = await tx.select({ id: sites.id, tz: sites.timeZone }).from(sites).where(eq(sites.name, d.site));
    if (!site) continue;
    const [cat] = d.category
      ? await tx
          .select({ id: categories.id })
          .from(categories)
          .where(and(eq(categories.module, 'observations'), eq(categories.name, d.category)))
      : [];
    const local = localDateTimeIn(site.tz, new Date(now.getTime() - d.daysAgo * 86_400_000));
    const reporterId = d.reporter === 'guest' || d.reporter === 'anonymous' ? null : await byEmail(d.reporter);
    const closer = d.closedBy ? await byEmail(d.closedBy) : null;
    serial += 1;
    const [row] = await tx
      .insert(observations)
      .values({
        serial,
        type: d.type,
        categoryId: cat?.id ?? null,
        description: d.description,
        siteId: site.id,
        observedAt: localDateTimeToInstant(local, site.tz),
        observedLocal: toPgTimestamp(local),
        riskLevel: d.risk,
        actionRequired: false,
        comment: d.comment,
        anonymous: d.reporter === 'anonymous',
        reporterId,
        reporterName: d.reporter === 'guest' ? 'Sam Visitor' : null,
        reporterEmail: d.reporter === 'guest' ? 'sam.visitor@example.com' : null,
        source: d.reporter === 'guest' ? 'guest' : 'staff',
        createdBy: reporterId,
        ...(d.closedBy ? { status: 'closed' as const, closedAt: now, closedBy: closer, closingRemarks: d.remarks ?? '' } : {}),
      })
      .returning({ id: observations.id });
    await recordAudit(tx, {
      actorUserId: reporterId,
      action: 'observation_created',
      entity: 'Observation',
      entityId: row!.id,
      changes: { serial, source: 'seed' },
    });
  }
  if (serial > 0) {
    await tx
      .insert(observationSerials)
      .values({ lastSerial: serial })
      .onConflictDoUpdate({
        target: observationSerials.organizationId,
        set: { lastSerial: sql`greatest(${observationSerials.lastSerial}, ${serial})` },
      });
  }
}
