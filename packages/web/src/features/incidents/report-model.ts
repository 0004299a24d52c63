import {
  incidentCreateBody,
  incidentGuestBody,
  incidentUpdateBody,
  isFutureInZone,
  isLocalDateTime,
  localDateTimeIn,
  type BodyPart,
  type Incident,
  type IncidentCreate,
  type IncidentGuest,
  type IncidentUpdate,
  type OshaCaseInput,
  type VictimInput,
} from '@bulwark/domain';
import type { FieldErrors } from '../../ui/forms/validation.js';

/** A victim's OSHA case as typed (staff only): day counts are text until sent. */
export type OshaDraft = {
  job_title: string;
  injury_type: string | null;
  died: boolean;
  date_of_death: string;
  days_away: string;
  days_restricted: string;
  medical_treatment: boolean;
  loss_of_consciousness: boolean;
  significant_diagnosis: boolean;
  day_to_day_supervised: boolean;
  privacy_reason: string | null;
};

export type VictimDraft = {
  key: string;
  /** A victim already recorded keeps its id (and its OSHA case number). */
  id: string | null;
  type: string | null;
  name: string;
  employee_id: string;
  gender: string | null;
  age_range: string | null;
  body_parts: BodyPart[];
  injury_details: string;
  taken_to_hospital: boolean;
  treatment: string;
  return_to_work_date: string;
  osha: OshaDraft | null;
};

/** The report (step 1) as typed; `occurred_at` is the site's wall-clock time ('YYYY-MM-DDTHH:mm'). */
export type ReportDraft = {
  type: string | null;
  category_id: string | null;
  description: string;
  site_id: string | null;
  site_node_id: string | null;
  occurred_at: string;
  /** True once the reporter changed the time: picking another site then keeps it. */
  occurred_at_touched: boolean;
  shift: string | null;
  severity: string | null;
  likelihood: string | null;
  investigation_required: boolean | null;
  action_taken: string;
  osha_work_related: boolean | null;
  victims: VictimDraft[];
  /** The guest form's own name and e-mail (ignored by the staff form). */
  reporter_name: string;
  reporter_email: string;
};

let counter = 0;
const nextKey = () => `v${(counter += 1)}`;

export function emptyVictim(): VictimDraft {
  return {
    key: nextKey(),
    id: null,
    type: null,
    name: '',
    employee_id: '',
    gender: null,
    age_range: null,
    body_parts: [],
    injury_details: '',
    taken_to_hospital: false,
    treatment: '',
    return_to_work_date: '',
    osha: null,
  };
}

export function emptyOsha(): OshaDraft {
  return {
    job_title: '',
    injury_type: 'injury',
    died: false,
    date_of_death: '',
    days_away: '',
    days_restricted: '',
    medical_treatment: false,
    loss_of_consciousness: false,
    significant_diagnosis: false,
    day_to_day_supervised: false,
    privacy_reason: null,
  };
}

export function emptyReport(): ReportDraft {
  return {
    type: null,
    category_id: null,
    description: '',
    site_id: null,
    site_node_id: null,
    occurred_at: '',
    occurred_at_touched: false,
    shift: null,
    severity: null,
    likelihood: null,
    investigation_required: null,
    action_taken: '',
    osha_work_related: null,
    victims: [emptyVictim()],
    reporter_name: '',
    reporter_email: '',
  };
}

/** An existing incident as a draft to edit (step 1). */
export function reportOf(o: Incident): ReportDraft {
  return {
    type: o.type,
    category_id: o.category?.id ?? null,
    description: o.description,
    site_id: o.site.id,
    site_node_id: o.site_node?.id ?? null,
    occurred_at: o.occurred_at,
    occurred_at_touched: true,
    shift: o.shift,
    severity: o.severity,
    likelihood: o.likelihood,
    investigation_required: o.investigation_required,
    action_taken: o.action_taken,
    osha_work_related: o.osha_work_related,
    victims: o.victims.map((v) => ({
      key: nextKey(),
      id: v.id,
      type: v.type,
      name: v.name,
      employee_id: v.employee_id ?? '',
      gender: v.gender,
      age_range: v.age_range,
      body_parts: [...v.body_parts],
      injury_details: v.injury_details ?? '',
      taken_to_hospital: v.taken_to_hospital,
      treatment: v.treatment ?? '',
      return_to_work_date: v.return_to_work_date ?? '',
      osha: v.osha
        ? {
            job_title: v.osha.job_title ?? '',
            injury_type: v.osha.injury_type,
            died: v.osha.died,
            date_of_death: v.osha.date_of_death ?? '',
            days_away: v.osha.days_away ? String(v.osha.days_away) : '',
            days_restricted: v.osha.days_restricted ? String(v.osha.days_restricted) : '',
            medical_treatment: v.osha.medical_treatment,
            loss_of_consciousness: v.osha.loss_of_consciousness,
            significant_diagnosis: v.osha.significant_diagnosis,
            day_to_day_supervised: v.osha.day_to_day_supervised,
            privacy_reason: v.osha.privacy_reason,
          }
        : null,
    })),
    reporter_name: '',
    reporter_email: '',
  };
}

/** Picking a site: its area no longer fits, and an untouched time becomes "now" on the site's clock. */
export function withSite(d: ReportDraft, siteId: string | null, zone: string | undefined, now: Date): ReportDraft {
  const occurred_at = !d.occurred_at_touched && zone ? localDateTimeIn(zone, now) : d.occurred_at;
  return { ...d, site_id: siteId, site_node_id: null, occurred_at };
}

/** Changing the type: a category of the old type no longer fits. */
export function withType(d: ReportDraft, type: string | null): ReportDraft {
  return type === d.type ? d : { ...d, type, category_id: null };
}

/** "Rating pending" until severity and likelihood are both set (DECISIONS). */
export function ratingPending(d: Pick<ReportDraft, 'severity' | 'likelihood'>): boolean {
  return !d.severity || !d.likelihood;
}

/** Server and client errors of the create body are keyed under `incident.`; the form keys its fields without it. */
export function unwrapErrors(errors: FieldErrors): FieldErrors {
  return Object.fromEntries(Object.entries(errors).map(([k, v]) => [k.replace(/^incident\./, ''), v]));
}

type Issue = { path: readonly PropertyKey[]; message: string };
type Parse<T> = { success: true; data: T } | { success: false; error: { issues: readonly Issue[] } };

/** Errors keyed by the whole path ('victims.0.name'), as the server keys them; messages stay i18n keys. */
export function checkWith<T>(schema: { safeParse(v: unknown): Parse<T> }, value: unknown): { data: T | null; errors: FieldErrors } {
  const result = schema.safeParse(value);
  if (result.success) return { data: result.data, errors: {} };
  const errors: FieldErrors = {};
  for (const issue of result.error.issues) {
    const key = issue.path.length > 0 ? issue.path.map(String).join('.') : '_';
    errors[key] ??= issue.message;
  }
  return { data: null, errors: unwrapErrors(errors) };
}

const pick = (v: string | null) => v ?? '';
const days = (v: string) => (v.trim() === '' ? null : Number(v));

function oshaInput(o: OshaDraft): OshaCaseInput {
  return {
    job_title: o.job_title,
    injury_type: pick(o.injury_type) as OshaCaseInput['injury_type'],
    died: o.died,
    date_of_death: o.died ? o.date_of_death : null,
    days_away: days(o.days_away),
    days_restricted: days(o.days_restricted),
    medical_treatment: o.medical_treatment,
    loss_of_consciousness: o.loss_of_consciousness,
    significant_diagnosis: o.significant_diagnosis,
    day_to_day_supervised: o.day_to_day_supervised,
    privacy_reason: o.privacy_reason,
  };
}

/** Blank selections go as '' so the schema says "required" rather than "not valid". */
export function victimInput(v: VictimDraft, withOsha: boolean): VictimInput {
  const base = {
    type: pick(v.type) as VictimInput['type'],
    name: v.name,
    employee_id: v.employee_id,
    gender: pick(v.gender) as VictimInput['gender'],
    age_range: v.age_range as VictimInput['age_range'],
    body_parts: v.body_parts,
    injury_details: v.injury_details,
    taken_to_hospital: v.taken_to_hospital,
    treatment: v.treatment,
    return_to_work_date: v.return_to_work_date,
  };
  if (!withOsha) return base;
  return { ...base, id: v.id, osha: v.osha && (v.type === 'employee' || v.type === 'contractor') ? oshaInput(v.osha) : null };
}

function reportFields(d: ReportDraft) {
  return {
    type: pick(d.type),
    category_id: d.category_id,
    description: d.description,
    site_id: pick(d.site_id),
    site_node_id: d.site_node_id,
    occurred_at: d.occurred_at,
    shift: d.shift,
    severity: d.severity,
    likelihood: d.likelihood,
    investigation_required: d.investigation_required ?? undefined,
    action_taken: d.action_taken,
    osha_work_related: d.osha_work_related,
    victims: d.victims.map((v) => victimInput(v, true)),
  };
}

/** The site's clock refuses a time after its present minute; said before anything is sent. */
export function futureError(local: string, zone: string | undefined, now: Date): string | null {
  if (!zone || !isLocalDateTime(local)) return null;
  return isFutureInZone(local, zone, now) ? 'incidents.validation.futureTime' : null;
}

type Checked<T> = { body: T; errors: null } | { body: null; errors: FieldErrors };

function finish<T>(checked: { data: T | null; errors: FieldErrors }, d: ReportDraft, zone: string | undefined, now: Date): Checked<T> {
  const errors = { ...checked.errors };
  const future = futureError(d.occurred_at, zone, now);
  if (future) errors['occurred_at'] ??= future;
  if (Object.keys(errors).length > 0 || checked.data === null) return { body: null, errors };
  return { body: checked.data, errors: null };
}

export function createBody(d: ReportDraft, attachmentIds: string[], zone: string | undefined, now: Date): Checked<IncidentCreate> {
  const checked = checkWith(incidentCreateBody, { incident: { ...reportFields(d), attachment_ids: attachmentIds } });
  return finish({ data: checked.data?.incident ?? null, errors: checked.errors }, d, zone, now);
}

/** An edit sends the whole report: victims and attachments are the whole lists after the edit. */
export function updateBody(d: ReportDraft, attachmentIds: string[], zone: string | undefined, now: Date): Checked<IncidentUpdate> {
  return finish(checkWith(incidentUpdateBody, { ...reportFields(d), attachment_ids: attachmentIds }), d, zone, now);
}

/** The guest form: no categories, areas, people or OSHA facts; the reporter's own name and e-mail. */
export function guestBody(d: ReportDraft, attachmentIds: string[], zone: string | undefined, now: Date): Checked<IncidentGuest> {
  const value = {
    type: pick(d.type),
    description: d.description,
    site_id: pick(d.site_id),
    occurred_at: d.occurred_at,
    shift: d.shift,
    severity: d.severity,
    likelihood: d.likelihood,
    action_taken: d.action_taken,
    victims: d.victims.map((v) => victimInput(v, false)),
    reporter_name: d.reporter_name,
    reporter_email: d.reporter_email,
    attachment_ids: attachmentIds,
  };
  return finish(checkWith(incidentGuestBody, value), d, zone, now);
}
