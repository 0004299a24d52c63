import { OBSERVATION_RISK_LEVELS, formatObservationSerial, type HomeReport, type ObservationRiskLevel } from '@bulwark/domain';
import { and, count, desc, eq, ne, sql } from 'drizzle-orm';
import type { Tx } from '../../platform/db/db.js';
import { sites } from '../sites/read.js';
import { observationPath } from './service.js';
import { observations } from './tables.js';

/**
 * What other modules may read of observations (the home, for now): small summaries, never the rows.
 * Every query runs in the caller's tenant transaction, so row-level security keeps it to one organisation.
 */

/** The newest observations a member reported, for "what I reported". */
export async function reportedBy(tx: Tx, userId: string, limit: number): Promise<HomeReport[]> {
  const rows = await tx
    .select({
      id: observations.id,
      serial: observations.serial,
      description: observations.description,
      status: observations.status,
      siteName: sites.name,
      createdAt: observations.createdAt,
    })
    .from(observations)
    .innerJoin(sites, and(eq(sites.organizationId, observations.organizationId), eq(sites.id, observations.siteId)))
    .where(eq(observations.reporterId, userId))
    .orderBy(desc(observations.createdAt), desc(observations.serial))
    .limit(limit);
  return rows.map((r) => ({
    id: r.id,
    kind: 'observation' as const,
    serial_label: formatObservationSerial(r.serial),
    description: r.description,
    status: r.status,
    site_name: r.siteName,
    reported_at: r.createdAt.toISOString(),
    path: observationPath(r.id),
  }));
}

/**
 * Observations not closed whose local date at their site falls in the month ('YYYY-MM'), by risk
 * potential: the organisation's open exposure of the month.
 */
export async function openByRiskInMonth(tx: Tx, month: string): Promise<Record<ObservationRiskLevel, number>> {
  const start = `${month}-01`;
  const rows = await tx
    .select({ risk: observations.riskLevel, n: count() })
    .from(observations)
    .where(
      and(
        ne(observations.status, 'closed'),
        sql`${observations.observedLocal} >= ${start}::timestamp`,
        sql`${observations.observedLocal} < ${start}::timestamp + interval '1 month'`,
      ),
    )
    .groupBy(observations.riskLevel);
  const out = Object.fromEntries(OBSERVATION_RISK_LEVELS.map((r) => [r, 0])) as Record<ObservationRiskLevel, number>;
  for (const r of rows) out[r.risk] = Number(r.n);
  return out;
}
