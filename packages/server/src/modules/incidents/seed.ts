import {
  actionDateIn,
  localDateTimeIn,
  localDateTimeToInstant,
  type IncidentLikelihood,
  type IncidentSeverity,
  type IncidentType,
  type InvestigationState,
  type Victim,
} from '@bulwark/domain';
import { and, eq, sql } from 'drizzle-orm';
import { recordAudit } from '../../platform/audit.js';
import type { Tx } from '../../platform/db/db.js';
import { users } from '../../platform/db/schema.js';
import { categories, phenomenaRootCauses } from '../categories/read.js';
import { sites } from '../sites/read.js';
import { toPgTimestamp } from './checks.js';
import {
  incidentFactorRootCauses,
  incidentFactors,
  incidents,
  incidentSerials,
  incidentTeamMembers,
  incidentTimeline,
  incidentWitnesses,
} from './tables.js';
import { writeVictims } from './victims.js';

type Demo = {
  site: string;
  reporter: string | 'guest';
  hoursAgo: number;
  type: IncidentType;
  category: string | null;
  severity: IncidentSeverity | null;
  likelihood: IncidentLikelihood | null;
  description: string;
  actionTaken: string;
  victims: Array<Partial<Victim> & Pick<Victim, 'name' | 'type' | 'gender'>>;
  workRelated?: boolean;
  /** The investigation: not_required, awaiting_team, or in_progress with a team and a target date in days from today. */
  state: Extract<InvestigationState, 'not_required' | 'awaiting_team' | 'in_progress'>;
  team?: { lead: string; members: string[]; targetInDays: number; facts?: boolean; analysis?: boolean };
  closedBy?: string;
  remarks?: string;
};

const DEMO: Demo[] = [
  {
    site: 'Lakeside Distribution Centre',
    reporter: 'guest',
    hoursAgo: 5,
    type: 'injury',
    category: null,
    severity: null,
    likelihood: null,
    description: 'A delivery driver slipped on the wet dock plate while unloading pallets.',
    actionTaken: 'Driver sat down and checked by the first aider; dock plate dried and coned off.',
    victims: [{ name: 'Marco Diaz', type: 'visitor', gender: 'male', body_parts: ['right_ankle'], injury_details: 'Twisted ankle' }],
    state: 'awaiting_team',
  },
  {
    site: 'Riverside Manufacturing Plant',
    reporter: 'tomasz.kowalski@demo.test',
    hoursAgo: 30,
    type: 'injury',
    category: 'Lost time injury',
    severity: 'major',
    likelihood: 'possible',
    description: 'Operator’s left hand caught between the press tool and the guard while clearing a jam on Line A.',
    actionTaken: 'Press isolated and locked out; operator taken to hospital; area photographed.',
    victims: [
      {
        name: 'Sam Okafor',
        type: 'employee',
        employee_id: 'RMP-0412',
        gender: 'male',
        age_range: '25_34',
        body_parts: ['left_hand', 'left_fingers'],
        injury_details: 'Fractured index finger',
        taken_to_hospital: true,
        treatment: 'Splinted at the emergency department',
        osha: {
          job_title: 'Press operator',
          injury_type: 'injury',
          died: false,
          date_of_death: null,
          days_away: 6,
          days_restricted: 10,
          medical_treatment: true,
          loss_of_consciousness: false,
          significant_diagnosis: true,
          day_to_day_supervised: false,
          privacy_reason: null,
        },
      },
    ],
    workRelated: true,
    state: 'in_progress',
    team: { lead: 'priya.nair@demo.test', members: ['tomasz.kowalski@demo.test'], targetInDays: 10, facts: true, analysis: true },
  },
  {
    site: 'Eastern Fabrication Yard',
    reporter: 'priya.nair@demo.test',
    hoursAgo: 24 * 20,
    type: 'environmental',
    category: 'Chemical spill',
    severity: 'serious',
    likelihood: 'likely',
    description: 'About 40 litres of hydraulic oil leaked from the crane outrigger onto the gravel.',
    actionTaken: 'Spill kit used; contaminated gravel bagged for disposal.',
    victims: [{ name: 'Li Wei', type: 'employee', gender: 'female', body_parts: [], injury_details: 'Skin contact, washed off' }],
    state: 'in_progress',
    // Its target date has passed: overdue.
    team: { lead: 'li.wei@demo.test', members: ['priya.nair@demo.test'], targetInDays: -3, facts: true },
  },
  {
    site: 'Riverside Manufacturing Plant',
    reporter: 'priya.nair@demo.test',
    hoursAgo: 24 * 6,
    type: 'injury',
    category: 'First aid case',
    severity: 'minor',
    likelihood: 'rare',
    description: 'Paper cut while opening a carton of labels in the packing area.',
    actionTaken: 'Plaster applied from the first aid box.',
    victims: [{ name: 'Carmen Ruiz', type: 'employee', gender: 'female', body_parts: ['right_fingers'] }],
    state: 'not_required',
    closedBy: 'priya.nair@demo.test',
    remarks: 'First aid only; no further action.',
  },
  {
    site: 'Lakeside Distribution Centre',
    reporter: 'aisha.bello@demo.test',
    hoursAgo: 50,
    type: 'property_damage',
    category: 'Vehicle collision',
    severity: 'minor',
    likelihood: 'often',
    description: 'Reach truck clipped the end of racking bay 14; upright dented.',
    actionTaken: 'Bay unloaded and taped off until the racking inspector checks it.',
    victims: [{ name: 'Aisha Bello', type: 'employee', gender: 'female', body_parts: [] }],
    state: 'not_required',
  },
];

/**
 * Demo incidents at the demo sites in each status (open, overdue, closed) and in the investigation
 * states a seed can reach: rating pending and awaiting its team (a guest's report), investigating with
 * facts and a why-why analysis, overdue, and no investigation needed (open, and closed). Reviews and
 * CAPA actions are made through the steps (the engine and the actions module keep their own records).
 */
export async function seedDemoIncidents(tx: Tx, now = new Date()): Promise<void> {
  const byEmail = async (email: string) => (await tx.select({ id: users.id }).from(users).where(eq(users.email, email)))[0]?.id ?? null;
  const causes = (await phenomenaRootCauses(tx, {})).phenomena_root_causes;
  let serial = 0;
  for (const d of DEMO) {
    const [site] = await tx.select({ id: sites.id, tz: sites.timeZone }).from(sites).where(eq(sites.name, d.site));
    if (!site) continue;
    const [cat] = d.category
      ? await tx
          .select({ id: categories.id })
          .from(categories)
          .where(and(eq(categories.module, 'incidents'), eq(categories.name, d.category)))
      : [];
    const local = localDateTimeIn(site.tz, new Date(now.getTime() - d.hoursAgo * 3_600_000));
    const reporterId = d.reporter === 'guest' ? null : await byEmail(d.reporter);
    const lead = d.team ? await byEmail(d.team.lead) : null;
    const targetDate = d.team
      ? new Date(Date.parse(`${actionDateIn(site.tz, now)}T00:00:00Z`) + d.team.targetInDays * 86_400_000).toISOString().slice(0, 10)
      : null;
    const closer = d.closedBy ? await byEmail(d.closedBy) : null;
    serial += 1;
    const [row] = await tx
      .insert(incidents)
      .values({
        serial,
        type: d.type,
        categoryId: cat?.id ?? null,
        description: d.description,
        siteId: site.id,
        occurredAt: localDateTimeToInstant(local, site.tz),
        occurredLocal: toPgTimestamp(local),
        shift: 'first',
        severity: d.severity,
        likelihood: d.likelihood,
        investigationRequired: d.state !== 'not_required',
        investigationState: d.state === 'in_progress' && !lead ? 'awaiting_team' : d.state,
        actionTaken: d.actionTaken,
        oshaWorkRelated: d.workRelated ?? null,
        reporterId,
        reporterName: d.reporter === 'guest' ? 'Marco Diaz' : null,
        reporterEmail: d.reporter === 'guest' ? 'marco.diaz@example.com' : null,
        source: d.reporter === 'guest' ? 'guest' : 'staff',
        status: closer ? 'closed' : targetDate && d.team!.targetInDays < 0 ? 'overdue' : 'open',
        leadId: lead,
        targetDate,
        createdBy: reporterId,
        ...(closer ? { closedAt: now, closedBy: closer, closingRemarks: d.remarks ?? '' } : {}),
      })
      .returning();
    const o = row!;
    const victims: Victim[] = d.victims.map((v) => ({
      id: null,
      employee_id: null,
      age_range: null,
      body_parts: [],
      injury_details: null,
      taken_to_hospital: false,
      treatment: null,
      return_to_work_date: null,
      osha: null,
      ...v,
    }));
    await writeVictims(tx, o, victims, {});
    await recordAudit(tx, {
      actorUserId: reporterId,
      action: 'incident_created',
      entity: 'Incident',
      entityId: o.id,
      changes: { serial, source: 'seed' },
    });
    if (!d.team || !lead) continue;
    for (const email of d.team.members) {
      const member = await byEmail(email);
      if (member && member !== lead) await tx.insert(incidentTeamMembers).values({ incidentId: o.id, userId: member });
    }
    if (d.team.facts) {
      const before = localDateTimeIn(site.tz, new Date(now.getTime() - (d.hoursAgo + 1) * 3_600_000));
      await tx.insert(incidentTimeline).values([
        {
          incidentId: o.id,
          position: 0,
          atLocal: toPgTimestamp(before),
          description: 'Shift handover; the task was started by the incoming crew.',
        },
        { incidentId: o.id, position: 1, atLocal: toPgTimestamp(local), description: d.description },
      ]);
      await tx.insert(incidentWitnesses).values({
        incidentId: o.id,
        position: 0,
        name: 'Dana Admin',
        statement: 'I heard the shout and found the area as described; nobody else was near.',
      });
    }
    const cause = causes.find((c) => c.name === 'Induction skipped') ?? causes[0];
    if (d.team.analysis && cause) {
      const [factor] = await tx
        .insert(incidentFactors)
        .values({
          incidentId: o.id,
          position: 0,
          category: 'method',
          description: 'The jam was cleared with the guard open and the press not locked out',
          whys: [
            'The operator reached in to clear the jam',
            'Clearing jams with the guard open had become usual',
            'The lock-out step was never shown at induction',
          ],
        })
        .returning({ id: incidentFactors.id });
      await tx.insert(incidentFactorRootCauses).values({
        factorId: factor!.id,
        rootCauseId: cause.id,
        position: 0,
        name: cause.name,
        typeName: cause.type_name,
        path: cause.path,
      });
    }
  }
  if (serial > 0) {
    await tx
      .insert(incidentSerials)
      .values({ lastSerial: serial })
      .onConflictDoUpdate({
        target: incidentSerials.organizationId,
        set: { lastSerial: sql`greatest(${incidentSerials.lastSerial}, ${serial})` },
      });
  }
}
