import { z } from 'zod';
import { searchPaginationSchema } from '../api/shared.js';
import { localDateTimeIn } from '../observations/local-time.js';

/* ---- The model (spec 001 §3 Action, §4 statuses) ---- */

export const ACTION_STATUSES = ['open', 'in_progress', 'overdue', 'completed', 'closed'] as const;
export type ActionStatus = (typeof ACTION_STATUSES)[number];

/** Where an action comes from; 'other' is an action raised on its own (POST /api/actions/). */
export const ACTION_SOURCES = ['audit', 'observation', 'incident', 'safety_interaction', 'other'] as const;
export type ActionSource = (typeof ACTION_SOURCES)[number];

/** The hierarchy of controls, most effective first. */
export const CONTROL_TYPES = ['elimination', 'substitution', 'engineering', 'administrative', 'ppe'] as const;
export type ControlType = (typeof CONTROL_TYPES)[number];

/** Statuses in which the work is still to be done (counted as "my actions", swept for overdue). */
export const ACTION_OPEN_STATUSES = ['open', 'in_progress', 'overdue'] as const satisfies readonly ActionStatus[];

/**
 * Every status change an action may make (the spec leaves it open; this is the rule the server enforces).
 * - open / in progress -> overdue: only the hourly sweep, when the due date has passed in the site's time zone.
 * - overdue -> open: only when the due date is moved to today or later (the server does it on that edit).
 * - completed -> in progress: the reviewer sends the work back instead of closing it.
 * - closed is final.
 */
export const ACTION_TRANSITIONS: Record<ActionStatus, readonly ActionStatus[]> = {
  open: ['in_progress', 'completed', 'overdue'],
  in_progress: ['open', 'completed', 'overdue'],
  overdue: ['in_progress', 'completed', 'open'],
  completed: ['closed', 'in_progress'],
  closed: [],
};

export function canMoveAction(from: ActionStatus, to: ActionStatus): boolean {
  return ACTION_TRANSITIONS[from].includes(to);
}

/** Statuses nobody picks by hand: the sweep sets overdue, a later due date puts an overdue action back to open. */
export const ACTION_SYSTEM_TARGETS: readonly ActionStatus[] = ['overdue'];

/**
 * Who may do what (the rule the server enforces, and the web uses to show only what will be accepted):
 * - The responsible person may start and complete their own action (open/overdue -> in progress,
 *   open/in progress/overdue -> completed), write its remarks and image description, and attach or
 *   remove files, without any Action right beyond being its responsible person.
 * - Editing the other fields, reassigning, sending back (completed -> in progress), moving back to
 *   open and closing need Action update. Closing is only possible from completed.
 * - Completing needs remarks (what was done).
 * - Closing needs someone other than the person who completed it, unless the organisation turns
 *   that rule off (mayCloseAction); the admin obeys it too.
 * - An action in progress is not moved back to open by hand (it is not offered "Reopen").
 * - A closed action is read-only for everybody.
 */
export const ACTION_RESPONSIBLE_FIELDS = ['status', 'remarks', 'image_description'] as const;
/** The moves the responsible person may make on their own action: start it, complete it. */
export const ACTION_RESPONSIBLE_MOVES: Record<ActionStatus, readonly ActionStatus[]> = {
  open: ['in_progress', 'completed'],
  overdue: ['in_progress', 'completed'],
  in_progress: ['completed'],
  completed: [],
  closed: [],
};

export type ActionActor = { userId: string; canUpdate: boolean };

/**
 * Closing (verifying) an action needs someone other than the person who completed it, unless the
 * organisation turns that rule off (its `action_close_by_other` setting, on by default). The rule
 * binds the admin too. An action nobody completed (e.g. a seeded one) may be closed by anyone with the right.
 */
export function mayCloseAction(action: { completed_by_id: string | null }, actor: { userId: string }, closeByOther: boolean): boolean {
  return !closeByOther || action.completed_by_id === null || action.completed_by_id !== actor.userId;
}

/** Who completed the action and whether the organisation needs another person to close it (mayCloseAction). */
export type ActionCloseRule = { completed_by_id: string | null; close_by_other: boolean };
export type ActionAbilities = {
  /** Description, control type, responsible person, due date, category, site (for 'other'). */
  edit: boolean;
  /** Remarks, image description, attachments. */
  report: boolean;
  /** The statuses this actor may move the action to now. */
  move_to: ActionStatus[];
};

export function actionAbilities(
  action: { status: ActionStatus; responsible_id: string | null },
  actor: ActionActor,
  close: ActionCloseRule = { completed_by_id: null, close_by_other: true },
): ActionAbilities {
  if (action.status === 'closed') return { edit: false, report: false, move_to: [] };
  const mine = action.responsible_id !== null && action.responsible_id === actor.userId;
  const manual = ACTION_TRANSITIONS[action.status].filter(
    (s) =>
      !ACTION_SYSTEM_TARGETS.includes(s) &&
      // overdue -> open happens by moving the due date, not by picking the status.
      !(action.status === 'overdue' && s === 'open') &&
      // An action in progress is not "reopened": it is already being worked on.
      !(action.status === 'in_progress' && s === 'open') &&
      (s !== 'closed' || mayCloseAction(close, actor, close.close_by_other)),
  );
  const move_to = actor.canUpdate ? manual : mine ? manual.filter((s) => ACTION_RESPONSIBLE_MOVES[action.status].includes(s)) : [];
  return { edit: actor.canUpdate, report: actor.canUpdate || mine, move_to };
}

/** The web list each source's actions live under (spec 000 §2 Actions table). */
export const ACTION_LIST_PATHS: Record<ActionSource, string> = {
  audit: '/actions/audits',
  observation: '/actions/observations',
  incident: '/actions/incidents',
  safety_interaction: '/actions/safety_interaction',
  other: '/actions',
};

/** Where an action opens in the web app (notification and mail links). */
export function actionPath(source: ActionSource, id: string): string {
  return `${ACTION_LIST_PATHS[source]}/summary/${id}`;
}

/** The page size of the action lists (spec 001 §9). */
export const ACTION_PAGE_SIZE = 50;

/** 'YYYY-MM-DD' of an instant in a time zone (the site's), for due dates and the overdue sweep. */
export function actionDateIn(timeZone: string, at: Date = new Date()): string {
  return localDateTimeIn(timeZone, at).slice(0, 10);
}

/** Whole days from date `a` to date `b` (both 'YYYY-MM-DD'). */
export function actionDaysBetween(a: string, b: string): number {
  return Math.round((Date.parse(`${b}T00:00:00Z`) - Date.parse(`${a}T00:00:00Z`)) / 86_400_000);
}

/** The day before a 'YYYY-MM-DD' date. */
export function actionDayBefore(date: string): string {
  return new Date(Date.parse(`${date}T00:00:00Z`) - 86_400_000).toISOString().slice(0, 10);
}

/* ---- Input ---- */

const required = { message: 'validation.required' };
const tooLong = { message: 'validation.tooLong' };

/** Empty text and null both mean "not given". */
const optionalText = (max: number) =>
  z
    .preprocess(
      (v) => (typeof v === 'string' && v.trim() === '' ? null : v),
      z.string({ message: 'validation.invalid' }).trim().max(max, tooLong).nullable().optional(),
    )
    .transform((v) => v ?? null);
const optionalUuid = (message: string) =>
  z.preprocess((v) => (v === '' ? null : v), z.uuid({ message }).nullable().optional()).transform((v) => v ?? null);

export const ACTION_DATE_PATTERN = /^\d{4}-\d{2}-\d{2}$/;
function isRealDate(v: string): boolean {
  if (!ACTION_DATE_PATTERN.test(v)) return false;
  const d = new Date(`${v}T00:00:00Z`);
  return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === v;
}
const dateText = (message: string) => z.string({ message }).trim().refine(isRealDate, { message });

const description = z.string(required).trim().min(1, required).max(2000, tooLong);
const controlType = z.enum(CONTROL_TYPES, { message: 'actions.validation.controlType' });
const responsibleId = z.uuid({ message: 'actions.validation.responsible' });
const dueDate = dateText('actions.validation.dueDate');

/**
 * An action given with its source (e.g. the actions of an observation form). The server also checks
 * that the responsible person is an active member, that the due date is not before today in the
 * site's time zone, and that the category is an active category of the actions module.
 */
export const actionItemSchema = z.object({
  description,
  control_type: controlType,
  responsible_id: responsibleId,
  due_date: dueDate,
  category_id: optionalUuid('actions.validation.category'),
  remarks: optionalText(2000),
});
export type ActionItemInput = z.input<typeof actionItemSchema>;
export type ActionItem = z.output<typeof actionItemSchema>;

/** POST /api/actions/: an action of its own (source 'other'), at a site. */
export const actionCreateSchema = actionItemSchema.extend({
  site_id: z.uuid({ message: 'actions.validation.site' }),
  image_description: optionalText(2000),
});
export type ActionCreateInput = z.input<typeof actionCreateSchema>;
export type ActionCreate = z.output<typeof actionCreateSchema>;

/**
 * PATCH /api/actions/{id}: any subset. `status` moves along ACTION_TRANSITIONS; see actionAbilities for
 * who may change what. `site_id` only for actions of source 'other' (others take their source's site).
 */
export const actionUpdateSchema = z
  .object({
    description: description.optional(),
    control_type: controlType.optional(),
    responsible_id: responsibleId.optional(),
    due_date: dueDate.optional(),
    // The outer optional keeps an absent key absent; empty text or null clears the value.
    category_id: optionalUuid('actions.validation.category').optional(),
    site_id: z.uuid({ message: 'actions.validation.site' }).optional(),
    remarks: optionalText(2000).optional(),
    image_description: optionalText(2000).optional(),
    status: z.enum(ACTION_STATUSES, { message: 'actions.validation.status' }).optional(),
  })
  .refine((v) => Object.values(v).some((x) => x !== undefined), { message: 'validation.required' });
export type ActionUpdateInput = z.input<typeof actionUpdateSchema>;
export type ActionUpdate = z.output<typeof actionUpdateSchema>;

/** The lists of spec 001 §7 and the source each shows ('all' for /api/actions/all). */
export const ACTION_LIST_KINDS = {
  all: null,
  audit_action_datas: 'audit',
  observation_action_datas: 'observation',
  other_action_datas: 'other',
  incident_action_datas: 'incident',
  si_observation_action_datas: 'safety_interaction',
} as const satisfies Record<string, ActionSource | null>;
export type ActionListKind = keyof typeof ACTION_LIST_KINDS;

/** Status tabs of a list: every status, or one. */
export const ACTION_STATUS_TABS = ['all', ...ACTION_STATUSES] as const;
export type ActionStatusTab = (typeof ACTION_STATUS_TABS)[number];

const emptyToUndefined = (v: unknown) => (v === '' || v === null ? undefined : v);

/** Query of every action list (server-side pagination, page size 50). */
export const actionListQuerySchema = z
  .object({
    status: z.preprocess(emptyToUndefined, z.enum(ACTION_STATUS_TABS, { message: 'actions.validation.status' }).default('all')),
    site_id: z.preprocess(emptyToUndefined, z.uuid({ message: 'validation.invalid' }).optional()),
    responsible_id: z.preprocess(emptyToUndefined, z.uuid({ message: 'validation.invalid' }).optional()),
    due_from: z.preprocess(emptyToUndefined, dateText('actions.validation.date').optional()),
    due_to: z.preprocess(emptyToUndefined, dateText('actions.validation.date').optional()),
    control_type: z.preprocess(emptyToUndefined, controlType.optional()),
    /** Only on /api/actions/all: one source; the other lists are one source already. */
    source_type: z.preprocess(emptyToUndefined, z.enum(ACTION_SOURCES, { message: 'validation.invalid' }).optional()),
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
      .default(ACTION_PAGE_SIZE),
    export_to_excel: z
      .enum(['true', 'false'], { message: 'validation.invalid' })
      .optional()
      .transform((v) => v === 'true'),
  })
  .refine((q) => !q.due_from || !q.due_to || q.due_from <= q.due_to, { path: ['due_to'], message: 'actions.validation.dateRange' });
export type ActionListQueryInput = z.input<typeof actionListQuerySchema>;
export type ActionListQuery = z.output<typeof actionListQuerySchema>;

/** GET /api/actions/{id}?actionable_type=observation: the source the caller expects (a mismatch is "not found"). */
export const actionDetailQuerySchema = z.object({
  actionable_type: z.preprocess(emptyToUndefined, z.enum(ACTION_SOURCES, { message: 'validation.invalid' }).optional()),
});

/** DELETE /api/actions/{id}/attachments/{fileId}: the action and the file. */
export const actionAttachmentParamsSchema = z.object({
  id: z.uuid({ message: 'validation.invalid' }),
  fileId: z.uuid({ message: 'validation.invalid' }),
});

/* ---- What the server answers ---- */

const person = z.object({ id: z.string(), full_name: z.string() });
export type ActionPerson = z.infer<typeof person>;

/** An action as its source shows it (e.g. under an observation). */
export const actionSummarySchema = z.object({
  id: z.string(),
  serial: z.number().int(),
  description: z.string(),
  control_type: z.enum(CONTROL_TYPES),
  status: z.enum(ACTION_STATUSES),
  due_date: z.string(),
  responsible: person.nullable(),
  source_type: z.enum(ACTION_SOURCES),
  source_id: z.string().nullable(),
  source_serial: z.number().int().nullable().optional(),
});
export type ActionSummary = z.infer<typeof actionSummarySchema>;

/** Counts per status tab of a list, over its filters except the status. */
export const actionStatusCountsSchema = z.object({
  all: z.number(),
  open: z.number(),
  in_progress: z.number(),
  overdue: z.number(),
  completed: z.number(),
  closed: z.number(),
});
export type ActionStatusCounts = z.infer<typeof actionStatusCountsSchema>;

/** The source of an action as a reference: its serial and a short label (e.g. the observation's type). */
export const actionSourceRefSchema = z.object({
  type: z.enum(ACTION_SOURCES),
  id: z.string().nullable(),
  serial: z.number().int().nullable(),
  label: z.string().nullable(),
});
export type ActionSourceRef = z.infer<typeof actionSourceRefSchema>;

const siteRef = z.object({ id: z.string(), name: z.string(), time_zone: z.string() });
const categoryRef = z.object({ id: z.string(), name: z.string() });

export const actionListItemSchema = actionSummarySchema.extend({
  site: siteRef,
  category: categoryRef.nullable(),
  source: actionSourceRefSchema,
  remarks: z.string().nullable(),
  created_by: person.nullable(),
  created_at: z.string(),
  completed_at: z.string().nullable(),
  closed_at: z.string().nullable(),
});
export type ActionListItem = z.infer<typeof actionListItemSchema>;

export const actionListResponseSchema = z.object({
  actions: z.array(actionListItemSchema),
  /** With keywords the total counts at most 1,000 matches: `total_capped` says it is a lower bound. */
  pagination: searchPaginationSchema,
  counts: actionStatusCountsSchema,
  counts_capped: z.boolean().meta({
    description:
      'True when a keyword search matched more than 1,000 actions: the tab counts are then counted over the first 1,000 ' +
      'matches only, each a lower bound (show "1,000+" for all). False without keywords: the counts are exact.',
  }),
});
export type ActionListResponse = z.infer<typeof actionListResponseSchema>;

export const actionAttachmentSchema = z.object({
  id: z.string(),
  file_name: z.string(),
  mime_type: z.string(),
  size_bytes: z.number(),
  url: z.string(),
  uploaded_by: person.nullable(),
  created_at: z.string(),
});
export type ActionAttachment = z.infer<typeof actionAttachmentSchema>;

/** What the history shows for each recorded change. */
export const ACTION_HISTORY_EVENTS = [
  'action_create',
  'action_update',
  'action_status',
  'action_attach',
  'action_detach',
  'action_overdue',
] as const;
export type ActionHistoryEvent = (typeof ACTION_HISTORY_EVENTS)[number];

export const actionHistoryEntrySchema = z.object({
  id: z.string(),
  event: z.enum(ACTION_HISTORY_EVENTS),
  actor: person.nullable(),
  /**
   * action_create: the fields given. action_update: field -> { from, to }. action_status and
   * action_overdue: { from, to } of the status, plus field -> { from, to } of what changed with it.
   * action_attach / action_detach: { file_id, file_name }.
   */
  changes: z.record(z.string(), z.unknown()),
  created_at: z.string(),
});
export type ActionHistoryEntry = z.infer<typeof actionHistoryEntrySchema>;

export const actionDetailSchema = actionListItemSchema.extend({
  image_description: z.string().nullable(),
  completed_by: person.nullable(),
  closed_by: person.nullable(),
  updated_at: z.string(),
  attachments: z.array(actionAttachmentSchema),
  history: z.array(actionHistoryEntrySchema),
  /** What the signed-in user may do with it now (actionAbilities). */
  can: z.object({ edit: z.boolean(), report: z.boolean(), move_to: z.array(z.enum(ACTION_STATUSES)) }),
});
export type ActionDetail = z.infer<typeof actionDetailSchema>;

/** Push request get_actions: the signed-in user's unfinished actions. */
export const myActionCountsSchema = z.object({ open: z.number(), in_progress: z.number(), overdue: z.number(), total: z.number() });
export type MyActionCounts = z.infer<typeof myActionCountsSchema>;

/** GET /api/actions/categories: the active categories of the actions module, for the form's picker. */
export const actionCategoryOptionsSchema = z.object({
  categories: z.array(z.object({ id: z.string(), name: z.string(), type: z.string() })),
});
export type ActionCategoryOptions = z.infer<typeof actionCategoryOptionsSchema>;
