import { formatOshaCaseNumber, oshaClassification, oshaPrivacyCase, oshaRecordable, type Victim, type VictimView } from '@bulwark/domain';
import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import type { Tx } from '../../platform/db/db.js';
import type { FieldErrors } from './checks.js';
import { incidentVictims } from './tables.js';

export type VictimRow = typeof incidentVictims.$inferSelect;

/** What the victims' rules read of their incident. */
export type VictimsIncident = { id: string; siteId: string; occurredLocal: string; oshaWorkRelated: boolean | null };

export async function victimsOf(tx: Tx, incidentIds: readonly string[]): Promise<VictimRow[]> {
  if (incidentIds.length === 0) return [];
  return tx
    .select()
    .from(incidentVictims)
    .where(inArray(incidentVictims.incidentId, [...incidentIds]))
    .orderBy(asc(incidentVictims.incidentId), asc(incidentVictims.position));
}

function values(v: Victim, position: number) {
  return {
    position,
    type: v.type,
    name: v.name,
    employeeId: v.employee_id,
    gender: v.gender,
    ageRange: v.age_range,
    bodyParts: v.body_parts,
    injuryDetails: v.injury_details,
    takenToHospital: v.taken_to_hospital,
    treatment: v.treatment,
    returnToWorkDate: v.return_to_work_date,
    osha: v.osha,
  };
}

/**
 * Replaces the incident's victims with `list` (the whole list after the edit): a victim named by its
 * id is updated, one without an id is added, one left out is removed. An id of another incident's
 * victim is refused. Case numbers follow (syncCaseNumbers).
 */
export async function writeVictims(tx: Tx, incident: VictimsIncident, list: readonly Victim[], fields: FieldErrors): Promise<boolean> {
  const existing = await victimsOf(tx, [incident.id]);
  const known = new Set(existing.map((v) => v.id));
  list.forEach((v, i) => {
    if (v.id && !known.has(v.id)) fields[`victims.${i}.id`] = 'incidents.validation.victimUnknown';
  });
  if (Object.keys(fields).length > 0) return false;
  const kept = new Set(list.map((v) => v.id).filter((x): x is string => !!x));
  const gone = existing.filter((v) => !kept.has(v.id)).map((v) => v.id);
  if (gone.length > 0) await tx.delete(incidentVictims).where(inArray(incidentVictims.id, gone));
  const now = new Date();
  for (const [position, v] of list.entries()) {
    if (v.id) {
      await tx
        .update(incidentVictims)
        .set({ ...values(v, position), updatedAt: now })
        .where(eq(incidentVictims.id, v.id));
    } else {
      await tx.insert(incidentVictims).values({ incidentId: incident.id, ...values(v, position) });
    }
  }
  await syncCaseNumbers(tx, incident);
  return true;
}

/**
 * OSHA case numbers: a recordable case gets the next number of its establishment (the incident's site)
 * and the incident's year, once. A number stays with its case when the case later stops being
 * recordable (the log lines it out); a case that moves to another site or year is numbered there.
 */
export async function syncCaseNumbers(tx: Tx, incident: VictimsIncident): Promise<void> {
  const year = Number(incident.occurredLocal.slice(0, 4));
  const victims = await victimsOf(tx, [incident.id]);
  const needing = victims.filter(
    (v) => oshaRecordable(incident.oshaWorkRelated, v.type, v.osha) && (v.oshaSiteId !== incident.siteId || v.oshaCaseYear !== year),
  );
  if (needing.length === 0) return;
  // One numbering per establishment and year at a time, so two cases never take the same number.
  await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`incident-osha:${incident.siteId}:${year}`}))`);
  const [row] = await tx
    .select({ max: sql<number>`coalesce(max(${incidentVictims.oshaCaseNo}), 0)::integer` })
    .from(incidentVictims)
    .where(and(eq(incidentVictims.oshaSiteId, incident.siteId), eq(incidentVictims.oshaCaseYear, year)));
  let next = Number(row?.max ?? 0);
  for (const v of needing) {
    next += 1;
    await tx
      .update(incidentVictims)
      .set({ oshaSiteId: incident.siteId, oshaCaseYear: year, oshaCaseNo: next })
      .where(eq(incidentVictims.id, v.id));
  }
}

/** A victim as the detail shows it, with what follows from its OSHA case. */
export function victimView(v: VictimRow, incident: VictimsIncident): VictimView {
  const day = incident.occurredLocal.slice(0, 10);
  const c = v.osha;
  return {
    id: v.id,
    type: v.type,
    name: v.name,
    employee_id: v.employeeId,
    gender: v.gender,
    age_range: v.ageRange,
    body_parts: v.bodyParts,
    injury_details: v.injuryDetails,
    taken_to_hospital: v.takenToHospital,
    treatment: v.treatment,
    return_to_work_date: v.returnToWorkDate,
    lost_time: v.returnToWorkDate !== null && v.returnToWorkDate > day,
    osha: c
      ? {
          ...c,
          classification: oshaClassification(c),
          recordable: oshaRecordable(incident.oshaWorkRelated, v.type, c),
          privacy_case: oshaPrivacyCase(c),
          case_number: v.oshaCaseYear !== null && v.oshaCaseNo !== null ? formatOshaCaseNumber(v.oshaCaseYear, v.oshaCaseNo) : null,
        }
      : null,
  };
}
