import { z } from 'zod';
import { actionItemSchema, actionSummarySchema } from '../actions/schemas.js';
import { searchPaginationSchema } from '../api/shared.js';
import { localDateTimeIn } from '../observations/local-time.js';

/* ---- The model ----
 * A safety interaction (safety walk, SUSA, behaviour-based safety conversation) is a planned
 * conversation a leader (the observer) holds with workers at their workplace: which topics were
 * discussed, which safe and at-risk behaviours were seen, whether the safe ones were recognised, and
 * what was agreed. The agreed actions are actions of source 'safety_interaction'.
 */

/** Topics of a conversation; behaviours are filed under one of the topics discussed. */
export const SI_TOPICS = [
  'ppe',
  'housekeeping',
  'working_at_height',
  'manual_handling',
  'tools_equipment',
  'line_of_fire',
  'procedures',
  'emergency_preparedness',
  'vehicles_traffic',
  'hazardous_substances',
  'other',
] as const;
export type SiTopic = (typeof SI_TOPICS)[number];

/** A draft may leave out the people, topics and behaviours; completing needs who and what. */
export const SI_STATUSES = ['draft', 'completed'] as const;
export type SiStatus = (typeof SI_STATUSES)[number];

export const SI_BEHAVIOUR_KINDS = ['safe', 'at_risk'] as const;
export type SiBehaviourKind = (typeof SI_BEHAVIOUR_KINDS)[number];

/**
 * A planned interaction is never swept: it is "done" once a completed interaction was recorded
 * against it, "missed" once its date has passed in the site's time zone, and "planned" until then.
 */
export const SI_SCHEDULE_STATUSES = ['planned', 'done', 'missed'] as const;
export type SiScheduleStatus = (typeof SI_SCHEDULE_STATUSES)[number];

export function siScheduleStatus(s: { planned_date: string; done: boolean }, todayAtSite: string): SiScheduleStatus {
  if (s.done) return 'done';
  return s.planned_date < todayAtSite ? 'missed' : 'planned';
}

export const SI_PAGE_SIZE = 25;
export const SI_DURATION_MAX = 480;
export const SI_MAX_PEOPLE = 50;
export const SI_MAX_BEHAVIOURS = 20;
export const SI_MAX_ACTIONS = 20;

/** 'SI-000012': the serial as people say it. */
export function siSerial(serial: number): string {
  return `SI-${String(serial).padStart(6, '0')}`;
}

/** The local date and time 'YYYY-MM-DDTHH:mm' of an instant in a time zone (the site's). */
export function siLocalDateTime(timeZone: string, at: Date = new Date()): string {
  // One cached formatter per zone (local-time.ts): building an Intl.DateTimeFormat per call cost a list
  // of 25 interactions more CPU than the rest of its request.
  return localDateTimeIn(timeZone, at);
}

/** Share of safe behaviours among all behaviours seen, 0..1; null when none were seen. */
export function siSafeShare(safe: number, atRisk: number): number | null {
  const all = safe + atRisk;
  return all === 0 ? null : safe / all;
}

/* ---- Input ---- */

const required = { message: 'validation.required' };
const tooLong = { message: 'validation.tooLong' };
const V = 'safetyInteractions.validation';

const emptyToNull = (v: unknown) => (typeof v === 'string' && v.trim() === '' ? null : v);
const optionalText = (max: number) =>
  z
    .preprocess(emptyToNull, z.string({ message: 'validation.invalid' }).trim().max(max, tooLong).nullable().optional())
    .transform((v) => v ?? null);
const optionalUuid = (message: string) =>
  z.preprocess((v) => (v === '' ? null : v), z.uuid({ message }).nullable().optional()).transform((v) => v ?? null);

export const SI_DATE_PATTERN = /^\d{4}-\d{2}-\d{2}$/;
export const SI_DATE_TIME_PATTERN = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}$/;

export function isSiDate(v: string): boolean {
  if (!SI_DATE_PATTERN.test(v)) return false;
  const d = new Date(`${v}T00:00:00Z`);
  return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === v;
}
function isSiDateTime(v: string): boolean {
  if (!SI_DATE_TIME_PATTERN.test(v)) return false;
  const [date, time] = v.split('T') as [string, string];
  const [h, m] = time.split(':').map(Number) as [number, number];
  return isSiDate(date) && h < 24 && m < 60;
}

const dateText = (message: string) => z.string({ message }).trim().refine(isSiDate, { message });

export const siTopicSchema = z.enum(SI_TOPICS, { message: `${V}.topic` });

/** A person spoken with: a member of the organisation, or the name of someone without an account (a contractor). */
export const siParticipantSchema = z
  .object({
    user_id: optionalUuid(`${V}.participant`),
    name: optionalText(100),
  })
  .refine((p) => (p.user_id === null) !== (p.name === null), { message: `${V}.participant` });
export type SiParticipantInput = z.input<typeof siParticipantSchema>;

export const siBehaviourSchema = z.object({
  topic: siTopicSchema,
  note: z.string(required).trim().min(1, required).max(500, tooLong),
});
export type SiBehaviourInput = z.input<typeof siBehaviourSchema>;

const interactionFields = z.object({
  /** The leader who held the conversation; the signed-in user when left out. */
  observer_id: optionalUuid(`${V}.observer`),
  site_id: z.uuid({ message: `${V}.site` }),
  /** A division, department or unit of the site. */
  area_id: optionalUuid(`${V}.area`),
  /** Where exactly ("Bay 4, north gate"). */
  location: optionalText(200),
  /** Local date and time at the site, never in the future there. */
  held_at: z
    .string({ message: `${V}.heldAt` })
    .trim()
    .refine(isSiDateTime, { message: `${V}.heldAt` }),
  duration_minutes: z
    .number({ message: `${V}.duration` })
    .int({ message: `${V}.duration` })
    .min(1, { message: `${V}.duration` })
    .max(SI_DURATION_MAX, { message: `${V}.duration` }),
  participants: z.array(siParticipantSchema, { message: 'validation.invalid' }).max(SI_MAX_PEOPLE, tooLong).default([]),
  /** The crew or team spoken with, when not every name is recorded ("Night shift scaffolders"). */
  crew: optionalText(200),
  topics: z
    .array(siTopicSchema, { message: `${V}.topic` })
    .max(SI_TOPICS.length, tooLong)
    .default([]),
  safe_behaviours: z.array(siBehaviourSchema, { message: 'validation.invalid' }).max(SI_MAX_BEHAVIOURS, tooLong).default([]),
  at_risk_behaviours: z.array(siBehaviourSchema, { message: 'validation.invalid' }).max(SI_MAX_BEHAVIOURS, tooLong).default([]),
  recognition_given: z.boolean({ message: `${V}.recognition` }),
  comment: optionalText(2000),
  status: z.enum(SI_STATUSES, { message: `${V}.status` }),
  /** The planned interaction this one fulfils. */
  schedule_id: optionalUuid(`${V}.schedule`),
  /** New agreed actions (existing ones are followed in the actions module). */
  actions: z.array(actionItemSchema, { message: 'validation.invalid' }).max(SI_MAX_ACTIONS, tooLong).default([]),
});

type InteractionShape = z.output<typeof interactionFields>;

/** The rules across fields, with the path of the field to blame. */
function interactionRules(v: InteractionShape, ctx: z.RefinementCtx) {
  if (new Set(v.topics).size !== v.topics.length) ctx.addIssue({ code: 'custom', path: ['topics'], message: `${V}.topicTwice` });
  const userIds = v.participants.map((p) => p.user_id).filter((x): x is string => x !== null);
  if (new Set(userIds).size !== userIds.length) ctx.addIssue({ code: 'custom', path: ['participants'], message: `${V}.participantTwice` });
  for (const kind of ['safe_behaviours', 'at_risk_behaviours'] as const) {
    v[kind].forEach((b, i) => {
      if (!v.topics.includes(b.topic)) ctx.addIssue({ code: 'custom', path: [kind, i, 'topic'], message: `${V}.topicNotDiscussed` });
    });
  }
  if (v.status === 'completed') {
    if (v.participants.length === 0 && v.crew === null)
      ctx.addIssue({ code: 'custom', path: ['participants'], message: `${V}.whoRequired` });
    if (v.topics.length === 0) ctx.addIssue({ code: 'custom', path: ['topics'], message: `${V}.topicsRequired` });
  }
}

/** POST /api/safety_interactions. */
export const siCreateSchema = interactionFields.superRefine(interactionRules);
export type SiCreateInput = z.input<typeof siCreateSchema>;
export type SiCreate = z.output<typeof siCreateSchema>;

/**
 * PATCH /api/safety_interactions/{id}: the whole record as the form holds it (people, topics and
 * behaviours are lists, replaced as a whole); `actions` adds agreed actions. A completed interaction
 * stays completed.
 */
export const siUpdateSchema = siCreateSchema;
export type SiUpdateInput = SiCreateInput;

const emptyToUndefined = (v: unknown) => (v === '' || v === null ? undefined : v);

export const siListQuerySchema = z
  .object({
    site_id: z.preprocess(emptyToUndefined, z.uuid({ message: 'validation.invalid' }).optional()),
    observer_id: z.preprocess(emptyToUndefined, z.uuid({ message: 'validation.invalid' }).optional()),
    topic: z.preprocess(emptyToUndefined, siTopicSchema.optional()),
    status: z.preprocess(emptyToUndefined, z.enum(SI_STATUSES, { message: `${V}.status` }).optional()),
    from: z.preprocess(emptyToUndefined, dateText(`${V}.date`).optional()),
    to: z.preprocess(emptyToUndefined, dateText(`${V}.date`).optional()),
    search: z.string().trim().max(200, tooLong).optional(),
    page: z.coerce
      .number({ message: 'validation.invalid' })
      .int({ message: 'validation.invalid' })
      .min(1, { message: 'validation.invalid' })
      .max(100_000, { message: 'validation.invalid' })
      .default(1),
    per_page: z.coerce
      .number({ message: 'validation.invalid' })
      .int({ message: 'validation.invalid' })
      .min(1, { message: 'validation.invalid' })
      .max(200, { message: 'validation.invalid' })
      .default(SI_PAGE_SIZE),
    export_to_excel: z
      .enum(['true', 'false'], { message: 'validation.invalid' })
      .optional()
      .transform((v) => v === 'true'),
  })
  .refine((q) => !q.from || !q.to || q.from <= q.to, { path: ['to'], message: `${V}.dateRange` });
export type SiListQueryInput = z.input<typeof siListQuerySchema>;
export type SiListQuery = z.output<typeof siListQuerySchema>;

/** A period of the summary; the site narrows it. */
export const siSummaryQuerySchema = z
  .object({
    from: dateText(`${V}.date`),
    to: dateText(`${V}.date`),
    site_id: z.preprocess(emptyToUndefined, z.uuid({ message: 'validation.invalid' }).optional()),
  })
  .refine((q) => q.from <= q.to, { path: ['to'], message: `${V}.dateRange` })
  .refine((q) => Date.parse(q.to) - Date.parse(q.from) <= 3 * 366 * 86_400_000, { path: ['from'], message: `${V}.periodTooLong` });
export type SiSummaryQuery = z.output<typeof siSummaryQuerySchema>;

export const siScheduleSchema = z.object({
  observer_id: z.uuid({ message: `${V}.observer` }),
  site_id: z.uuid({ message: `${V}.site` }),
  planned_date: dateText(`${V}.plannedDate`),
  note: optionalText(500),
});
export type SiScheduleInput = z.input<typeof siScheduleSchema>;
export type SiSchedule = z.output<typeof siScheduleSchema>;

export const siScheduleListQuerySchema = z
  .object({
    from: z.preprocess(emptyToUndefined, dateText(`${V}.date`).optional()),
    to: z.preprocess(emptyToUndefined, dateText(`${V}.date`).optional()),
    site_id: z.preprocess(emptyToUndefined, z.uuid({ message: 'validation.invalid' }).optional()),
    observer_id: z.preprocess(emptyToUndefined, z.uuid({ message: 'validation.invalid' }).optional()),
    status: z.preprocess(emptyToUndefined, z.enum(SI_SCHEDULE_STATUSES, { message: 'validation.invalid' }).optional()),
  })
  .refine((q) => !q.from || !q.to || q.from <= q.to, { path: ['to'], message: `${V}.dateRange` });
export type SiScheduleListQueryInput = z.input<typeof siScheduleListQuerySchema>;
export type SiScheduleListQuery = z.output<typeof siScheduleListQuerySchema>;

/** The people pickers' search: names or e-mails. */
export const siPeopleQuerySchema = z.object({ search: z.string().trim().max(200, tooLong).optional() });
export type SiPeopleQuery = z.output<typeof siPeopleQuerySchema>;

/* ---- What the server answers ---- */

const person = z.object({ id: z.string(), full_name: z.string() });
export type SiPerson = z.infer<typeof person>;
const siteRef = z.object({ id: z.string(), name: z.string(), time_zone: z.string() });

export const siParticipantResponseSchema = z.object({
  user: person.nullable(),
  /** The member's name, or the name given for someone without an account. */
  name: z.string(),
});

export const siBehaviourResponseSchema = z.object({ topic: siTopicSchema, note: z.string() });

/** A row of the list. */
export const siListItemSchema = z.object({
  id: z.string(),
  serial: z.number().int(),
  status: z.enum(SI_STATUSES),
  observer: person.nullable(),
  site: siteRef,
  area: z.object({ id: z.string(), full_name: z.string() }).nullable(),
  held_at: z.string(),
  duration_minutes: z.number(),
  people: z.array(z.string()),
  crew: z.string().nullable(),
  topics: z.array(siTopicSchema),
  safe_count: z.number(),
  at_risk_count: z.number(),
  recognition_given: z.boolean(),
});
export type SiListItem = z.infer<typeof siListItemSchema>;

export const siListResponseSchema = z.object({
  safety_interactions: z.array(siListItemSchema),
  /** With keywords the total counts at most 1,000 matches: `total_capped` says it is a lower bound. */
  pagination: searchPaginationSchema,
});
export type SiListResponse = z.infer<typeof siListResponseSchema>;

export const siResponseSchema = siListItemSchema.omit({ people: true, safe_count: true, at_risk_count: true }).extend({
  location: z.string().nullable(),
  participants: z.array(siParticipantResponseSchema),
  safe_behaviours: z.array(siBehaviourResponseSchema),
  at_risk_behaviours: z.array(siBehaviourResponseSchema),
  comment: z.string().nullable(),
  schedule: z.object({ id: z.string(), planned_date: z.string() }).nullable(),
  actions: z.array(actionSummarySchema),
  created_by: person.nullable(),
  created_at: z.string(),
  updated_at: z.string(),
  /** Whether the caller may change or delete it (the same rule the server enforces). */
  can_edit: z.boolean(),
  can_delete: z.boolean(),
});
export type SiResponse = z.infer<typeof siResponseSchema>;

export const siScheduleResponseSchema = z.object({
  id: z.string(),
  observer: person.nullable(),
  site: siteRef,
  planned_date: z.string(),
  note: z.string().nullable(),
  status: z.enum(SI_SCHEDULE_STATUSES),
  interaction: z.object({ id: z.string(), serial: z.number().int() }).nullable(),
});
export type SiScheduleResponse = z.infer<typeof siScheduleResponseSchema>;

export const siScheduleListResponseSchema = z.object({ schedules: z.array(siScheduleResponseSchema) });
export type SiScheduleListResponse = z.infer<typeof siScheduleListResponseSchema>;

const tally = z.object({ interactions: z.number(), safe: z.number(), at_risk: z.number() });

export const siSummaryResponseSchema = z.object({
  from: z.string(),
  to: z.string(),
  totals: tally.extend({
    recognition: z.number(),
    /** Safe behaviours ÷ all behaviours seen; null when none were seen. */
    safe_share: z.number().nullable(),
    planned: z.number(),
    planned_done: z.number(),
    planned_missed: z.number(),
  }),
  /** Every topic, in the order of SI_TOPICS: how often discussed, and behaviours filed under it. */
  by_topic: z.array(z.object({ topic: siTopicSchema, discussed: z.number(), safe: z.number(), at_risk: z.number() })),
  by_site: z.array(tally.extend({ site: z.object({ id: z.string(), name: z.string() }) })),
  by_observer: z.array(tally.extend({ observer: person, recognition: z.number() })),
});
export type SiSummaryResponse = z.infer<typeof siSummaryResponseSchema>;

export const siDashboardResponseSchema = z.object({
  month: z.string(),
  done_this_month: z.number(),
  planned_this_month: z.number(),
  planned_done_this_month: z.number(),
  missed_this_month: z.number(),
  /** The last six months, oldest first ('YYYY-MM'). */
  trend: z.array(z.object({ month: z.string(), interactions: z.number(), safe: z.number(), at_risk: z.number() })),
  /** At-risk behaviours of the six months by topic, most first (at most five). */
  top_at_risk_topics: z.array(z.object({ topic: siTopicSchema, at_risk: z.number() })),
  open_actions: z.number(),
  overdue_actions: z.number(),
  upcoming: z.array(siScheduleResponseSchema),
});
export type SiDashboardResponse = z.infer<typeof siDashboardResponseSchema>;

/** What the form needs to offer: the sites with their areas and time zones. */
export const siOptionsResponseSchema = z.object({
  sites: z.array(siteRef.extend({ areas: z.array(z.object({ id: z.string(), full_name: z.string() })) })),
});
export type SiOptionsResponse = z.infer<typeof siOptionsResponseSchema>;

export const siPeopleResponseSchema = z.object({ users: z.array(person.extend({ email: z.string() })) });
export type SiPeopleResponse = z.infer<typeof siPeopleResponseSchema>;
