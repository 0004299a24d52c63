import {
  can,
  formatIncidentSerial,
  formatOshaCaseNumber,
  oshaAverageEmployees,
  oshaClassification,
  oshaHoursWorked,
  oshaPrivacyCase,
  oshaRecordable,
  OSHA_DAYS_CAP,
  OSHA_INJURY_TYPES,
  translate,
  type Language,
  type Osha300,
  type Osha300A,
  type Osha300Row,
  type Osha301,
  type OshaTotals,
} from '@bulwark/domain';
import { and, asc, eq, sql } from 'drizzle-orm';
import type { Principal } from '../../platform/auth/principal.js';
import type { Tx } from '../../platform/db/db.js';
import { AppError } from '../../platform/errors.js';
import { siteNodes, sites } from '../sites/read.js';
import { getManpower } from '../sites/service.js';
import { toLocalText } from './checks.js';
import { loadIncident } from './record.js';
import { incidents, incidentVictims } from './tables.js';

/**
 * The OSHA forms' content from the incidents and victims (29 CFR 1904; the rules are written in
 * docs/modules.md "OSHA logs"): a case is on the log of its incident's site (the establishment) and
 * the year of the incident's local date when it is recordable. Days are capped at 180.
 */

async function establishment(tx: Tx, siteId: string) {
  const [s] = await tx
    .select({
      site_id: sites.id,
      name: sites.name,
      street: sites.address,
      city: sites.city,
      state: sites.state,
      zip: sites.zip,
      country: sites.country,
    })
    .from(sites)
    .where(eq(sites.id, siteId));
  if (!s) throw new AppError('validation_failed', { fields: { site_id: 'incidents.validation.siteUnknown' } });
  return s;
}

/** Column F: the injury, the parts of the body, and what happened (the incident's description). */
function describeCase(lang: Language, v: { injuryDetails: string | null; bodyParts: string[] }, description: string): string {
  const parts = v.bodyParts.map((p) => translate(lang, `incidents.bodyParts.${p}`)).join(', ');
  return [v.injuryDetails, parts, description].filter(Boolean).join(' — ');
}

type CaseRow = Osha300Row & { real_name: string };

async function casesOf(tx: Tx, siteId: string, year: number, lang: Language): Promise<CaseRow[]> {
  const rows = await tx
    .select({ i: incidents, v: incidentVictims, nodeName: siteNodes.name, siteName: sites.name })
    .from(incidentVictims)
    .innerJoin(incidents, eq(incidents.id, incidentVictims.incidentId))
    .innerJoin(sites, eq(sites.id, incidents.siteId))
    .leftJoin(siteNodes, eq(siteNodes.id, incidents.siteNodeId))
    .where(and(eq(incidents.siteId, siteId), sql`extract(year from ${incidents.occurredLocal}) = ${year}`))
    .orderBy(asc(incidentVictims.oshaCaseNo), asc(incidents.occurredLocal), asc(incidentVictims.position));
  const out: CaseRow[] = [];
  for (const { i, v, nodeName, siteName } of rows) {
    const c = v.osha;
    if (!c || !oshaRecordable(i.oshaWorkRelated, v.type, c) || v.oshaCaseNo === null || v.oshaCaseYear === null) continue;
    const privacy = oshaPrivacyCase(c);
    out.push({
      incident_id: i.id,
      incident_serial: formatIncidentSerial(i.serial),
      victim_id: v.id,
      case_number: formatOshaCaseNumber(v.oshaCaseYear, v.oshaCaseNo),
      employee_name: privacy ? null : v.name,
      privacy_case: privacy,
      job_title: c.job_title,
      date: i.occurredLocal.slice(0, 10),
      location: [siteName, nodeName].filter(Boolean).join(' — '),
      description: describeCase(lang, v, i.description),
      classification: oshaClassification(c)!,
      days_away: Math.min(OSHA_DAYS_CAP, c.days_away),
      days_restricted: Math.min(OSHA_DAYS_CAP, c.days_restricted),
      injury_type: c.injury_type,
      real_name: v.name,
    });
  }
  return out;
}

export function oshaTotals(rows: readonly Osha300Row[]): OshaTotals {
  const count = (k: Osha300Row['classification']) => rows.filter((r) => r.classification === k).length;
  return {
    deaths: count('death'),
    days_away_cases: count('days_away'),
    job_transfer_restriction_cases: count('job_transfer_restriction'),
    other_recordable_cases: count('other_recordable'),
    days_away: rows.reduce((n, r) => n + r.days_away, 0),
    days_restricted: rows.reduce((n, r) => n + r.days_restricted, 0),
    injury_types: Object.fromEntries(
      OSHA_INJURY_TYPES.map((t) => [t, rows.filter((r) => r.injury_type === t).length]),
    ) as OshaTotals['injury_types'],
  };
}

/**
 * The 300 log of a site and year. The confidential list of privacy cases (case number and name) goes
 * only to Incident update holders, and only in the JSON answer.
 */
export async function osha300(tx: Tx, p: Principal, siteId: string, year: number, lang: Language): Promise<Osha300> {
  const est = await establishment(tx, siteId);
  const cases = await casesOf(tx, siteId, year, lang);
  const rows = cases.map(({ real_name: _name, ...row }) => row);
  const privacyList =
    p.kind !== 'guest' && can(p.access, 'Incident', 'update')
      ? cases.filter((c) => c.privacy_case).map((c) => ({ case_number: c.case_number, employee_name: c.real_name }))
      : null;
  return { year, establishment: est, rows, totals: oshaTotals(rows), privacy_list: privacyList };
}

/** The 300A summary: the log's totals, and the site's employment from its monthly manpower. */
export async function osha300a(tx: Tx, siteId: string, year: number, lang: Language): Promise<Osha300A> {
  const est = await establishment(tx, siteId);
  const rows = await casesOf(tx, siteId, year, lang);
  const grid = await getManpower(tx, year);
  const months = grid.sites.find((s) => s.site_id === siteId)?.months ?? [];
  return {
    year,
    establishment: est,
    totals: oshaTotals(rows),
    average_employees: oshaAverageEmployees(months),
    hours_worked: oshaHoursWorked(year, months),
    monthly_manpower: months,
  };
}

/** The 301 report of one recordable case (a victim of the incident); any other victim is "not found". */
export async function osha301(tx: Tx, incidentId: string, victimId: string): Promise<Osha301> {
  const i = await loadIncident(tx, incidentId);
  const [v] = await tx
    .select()
    .from(incidentVictims)
    .where(and(eq(incidentVictims.id, victimId), eq(incidentVictims.incidentId, i.id)));
  const c = v?.osha ?? null;
  if (!v || !c || !oshaRecordable(i.oshaWorkRelated, v.type, c) || v.oshaCaseNo === null || v.oshaCaseYear === null)
    throw new AppError('not_found');
  const local = toLocalText(i.occurredLocal);
  return {
    establishment: await establishment(tx, i.siteId),
    incident_id: i.id,
    incident_serial: formatIncidentSerial(i.serial),
    employee: { name: v.name, employee_id: v.employeeId, gender: v.gender, age_range: v.ageRange, job_title: c.job_title },
    treatment: { treatment: v.treatment, taken_to_hospital: v.takenToHospital },
    case: {
      case_number: formatOshaCaseNumber(v.oshaCaseYear, v.oshaCaseNo),
      date_of_injury: local.slice(0, 10),
      time_of_event: local.slice(11, 16),
      what_happened: i.description,
      injury: v.injuryDetails,
      body_parts: v.bodyParts,
      action_taken: i.actionTaken,
      date_of_death: c.date_of_death,
      classification: oshaClassification(c)!,
      days_away: Math.min(OSHA_DAYS_CAP, c.days_away),
      days_restricted: Math.min(OSHA_DAYS_CAP, c.days_restricted),
      injury_type: c.injury_type,
      privacy_case: oshaPrivacyCase(c),
    },
  };
}
