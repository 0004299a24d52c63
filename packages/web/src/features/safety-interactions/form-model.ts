import {
  siCreateSchema,
  siLocalDateTime,
  type SiCreate,
  type SiPerson,
  type SiResponse,
  type SiStatus,
  type SiTopic,
} from '@bulwark/domain';

export type BehaviourRow = { key: string; topic: SiTopic | null; note: string };
export type PersonRow = { key: string; user: SiPerson | null; name: string };
export type ActionRow = { key: string; description: string; control_type: string | null; responsible_id: string | null; due_date: string };

export type FormState = {
  observer: SiPerson | null;
  site_id: string | null;
  area_id: string | null;
  location: string;
  held_at: string;
  /** Whether the person changed the time; until then it follows the chosen site's clock. */
  held_at_touched: boolean;
  duration: string;
  participants: PersonRow[];
  crew: string;
  topics: SiTopic[];
  safe: BehaviourRow[];
  atRisk: BehaviourRow[];
  recognition: boolean;
  comment: string;
  schedule_id: string | null;
  actions: ActionRow[];
};

let counter = 0;
export const rowKey = () => `r${(counter += 1)}`;

export function emptyForm(observer: SiPerson | null, now = new Date()): FormState {
  return {
    observer,
    site_id: null,
    area_id: null,
    location: '',
    held_at: siLocalDateTime(Intl.DateTimeFormat().resolvedOptions().timeZone, now),
    held_at_touched: false,
    duration: '15',
    participants: [],
    crew: '',
    topics: [],
    safe: [],
    atRisk: [],
    recognition: false,
    comment: '',
    schedule_id: null,
    actions: [],
  };
}

export function formOf(si: SiResponse): FormState {
  const rows = (list: SiResponse['safe_behaviours']) => list.map((b) => ({ key: rowKey(), topic: b.topic, note: b.note }));
  return {
    observer: si.observer,
    site_id: si.site.id,
    area_id: si.area?.id ?? null,
    location: si.location ?? '',
    held_at: si.held_at,
    held_at_touched: true,
    duration: String(si.duration_minutes),
    participants: si.participants.map((p) => ({ key: rowKey(), user: p.user, name: p.user ? '' : p.name })),
    crew: si.crew ?? '',
    topics: si.topics,
    safe: rows(si.safe_behaviours),
    atRisk: rows(si.at_risk_behaviours),
    recognition: si.recognition_given,
    comment: si.comment ?? '',
    schedule_id: si.schedule?.id ?? null,
    actions: [],
  };
}

/** A number as typed: digits become a number, anything else is sent as typed so the schema names the problem. */
function minutes(text: string): number | string {
  const v = text.trim();
  return /^\d+$/.test(v) ? Number(v) : v;
}

/** The request body, the same shape the server's schema reads. */
export function payloadOf(f: FormState, status: SiStatus) {
  return {
    observer_id: f.observer?.id ?? null,
    site_id: f.site_id ?? '',
    area_id: f.area_id,
    location: f.location,
    held_at: f.held_at,
    duration_minutes: minutes(f.duration),
    participants: f.participants.map((p) => (p.user ? { user_id: p.user.id } : { name: p.name })),
    crew: f.crew,
    topics: f.topics,
    safe_behaviours: f.safe.map((b) => ({ topic: b.topic ?? '', note: b.note })),
    at_risk_behaviours: f.atRisk.map((b) => ({ topic: b.topic ?? '', note: b.note })),
    recognition_given: f.recognition,
    comment: f.comment,
    status,
    schedule_id: f.schedule_id,
    actions: f.actions.map((a) => ({
      description: a.description,
      control_type: a.control_type ?? '',
      responsible_id: a.responsible_id ?? '',
      due_date: a.due_date,
    })),
  };
}

/**
 * The form read by the server's schema: the body to send (as the schema reads it), or the problems by
 * the server's dotted paths (`safe_behaviours.0.note`), translated.
 */
export function checkForm(
  f: FormState,
  status: SiStatus,
  t: (key: string) => string,
): { body: SiCreate; errors: null } | { body: null; errors: Record<string, string> } {
  const result = siCreateSchema.safeParse(payloadOf(f, status));
  if (result.success) return { body: result.data, errors: null };
  const errors: Record<string, string> = {};
  for (const issue of result.error.issues) {
    const path = issue.path.map(String).join('.') || '_';
    errors[path] ??= t(issue.message);
  }
  return { body: null, errors };
}
