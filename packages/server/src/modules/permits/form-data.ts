import type { PermitForm } from '@bulwark/domain';
import { asc, eq, sql } from 'drizzle-orm';
import type { Tx } from '../../platform/db/db.js';
import { sites } from '../sites/read.js';
import { areasOf } from './areas.js';

/** The active sites with their areas and full area names: the location questions of the request form. */
export async function sitesWithAreas(tx: Tx): Promise<PermitForm['sites']> {
  const rows = await tx
    .select({ id: sites.id, name: sites.name, timeZone: sites.timeZone })
    .from(sites)
    .where(eq(sites.isActive, true))
    .orderBy(asc(sql`lower(${sites.name})`));
  const areas = await areasOf(
    tx,
    rows.map((s) => s.id),
  );
  return rows.map((s) => ({
    id: s.id,
    name: s.name,
    time_zone: s.timeZone,
    areas: areas.rows
      .filter((a) => a.siteId === s.id)
      .map((a) => ({
        id: a.id,
        parent_id: a.parentId,
        level: a.level as 'division' | 'department' | 'unit',
        name: a.name,
        full_name: areas.fullName(a.id) ?? a.name,
      }))
      .sort((a, b) => a.full_name.localeCompare(b.full_name)),
  }));
}
