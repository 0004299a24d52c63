import {
  isFutureInZone,
  isLocalDateTime,
  localDateTimeIn,
  observationCreateBody,
  observationGuestBody,
  observationUpdateBody,
  type ActionItemInput,
  type Observation,
  type ObservationCreate,
  type ObservationGuest,
  type ObservationUpdate,
} from '@bulwark/domain';
import { canRemoveActionItem, emptyActionItem, type ActionItemRow } from '../actions/action-items.js';
import type { FieldErrors } from '../../ui/forms/validation.js';

/** One action row of the form, as typed (blank until chosen); the observation form offers categories. */
export type ActionRow = ActionItemRow & { category_id: string | null };

/** The observation form as typed; `observed_at` is the site's wall-clock time ('YYYY-MM-DDTHH:mm'). */
export type Draft = {
  type: string | null;
  category_id: string | null;
  sub_category_id: string | null;
  description: string;
  site_id: string | null;
  site_node_id: string | null;
  observed_at: string;
  /** True once the reporter changed the time: picking another site then keeps it. */
  observed_at_touched: boolean;
  risk_level: string | null;
  action_required: boolean | null;
  comment: string;
  anonymous: boolean;
  /** New actions (on an edit: actions to add; those already raised live in the actions module). */
  actions: ActionRow[];
};

export const emptyActionRow: () => ActionRow = emptyActionItem;

export function emptyDraft(): Draft {
  return {
    type: null,
    category_id: null,
    sub_category_id: null,
    description: '',
    site_id: null,
    site_node_id: null,
    observed_at: '',
    observed_at_touched: false,
    risk_level: null,
    action_required: null,
    comment: '',
    anonymous: false,
    actions: [],
  };
}

/** An existing observation as a draft to edit; its actions stay where they are. */
export function draftOf(o: Observation): Draft {
  return {
    type: o.type,
    category_id: o.category?.id ?? null,
    sub_category_id: o.sub_category?.id ?? null,
    description: o.description,
    site_id: o.site.id,
    site_node_id: o.site_node?.id ?? null,
    observed_at: o.observed_at,
    observed_at_touched: true,
    risk_level: o.risk_level,
    action_required: o.action_required,
    comment: o.comment,
    anonymous: o.anonymous,
    actions: [],
  };
}

/**
 * "Action required" and the rows follow each other: answering yes with no rows opens the first row
 * (the spec asks for at least one), answering no drops the rows, which would otherwise be sent.
 */
export function setActionRequired(draft: Draft, required: boolean, existingActions = 0): Draft {
  if (!required) return { ...draft, action_required: false, actions: [] };
  const actions = draft.actions.length === 0 && existingActions === 0 ? [emptyActionRow()] : draft.actions;
  return { ...draft, action_required: true, actions };
}

/** A row may go unless it is the last one standing while actions are required and none exist yet. */
export function canRemoveRow(draft: Draft, existingActions = 0): boolean {
  return canRemoveActionItem(draft.actions.length, draft.action_required === true && existingActions === 0);
}

/** Picking a site: its area no longer fits, and an untouched time becomes "now" on the site's clock. */
export function withSite(draft: Draft, siteId: string | null, zoneOf: (id: string) => string | undefined, now: Date): Draft {
  const zone = siteId ? zoneOf(siteId) : undefined;
  const observed_at = !draft.observed_at_touched && zone ? localDateTimeIn(zone, now) : draft.observed_at;
  return { ...draft, site_id: siteId, site_node_id: null, observed_at };
}

/** Changing the type: a category of the old type no longer fits. */
export function withType(draft: Draft, type: string | null): Draft {
  return type === draft.type ? draft : { ...draft, type, category_id: null, sub_category_id: null };
}

/** The site's clock refuses a time after its present minute; said before anything is sent. */
export function futureTimeError(observedAt: string, zone: string | undefined, now: Date): string | null {
  if (!zone || !isLocalDateTime(observedAt)) return null;
  return isFutureInZone(observedAt, zone, now) ? 'observations.validation.futureTime' : null;
}

type Issue = { path: readonly PropertyKey[]; message: string };
type Parse<T> = { success: true; data: T } | { success: false; error: { issues: readonly Issue[] } };

/** Like forms/validation, but keyed by the whole path ('actions.0.due_date'), as the server keys them. */
export function checkWith<T>(
  schema: { safeParse(v: unknown): Parse<T> },
  value: unknown,
): { data: T; errors: null } | { data: null; errors: FieldErrors } {
  const result = schema.safeParse(value);
  if (result.success) return { data: result.data, errors: null };
  const errors: FieldErrors = {};
  for (const issue of result.error.issues) {
    const key = issue.path.length > 0 ? issue.path.map(String).join('.') : '_';
    errors[key] ??= issue.message;
  }
  return { data: null, errors };
}

function actionItems(rows: ActionRow[]): ActionItemInput[] {
  return rows.map((r) => ({
    description: r.description,
    control_type: (r.control_type ?? '') as ActionItemInput['control_type'],
    responsible_id: r.responsible_id ?? '',
    due_date: r.due_date,
    category_id: r.category_id,
  }));
}

/** Blank selections go as '' so the schema says "required" rather than "not valid". */
const pick = (v: string | null) => v ?? '';

function fields(d: Draft) {
  return {
    type: pick(d.type),
    category_id: d.category_id,
    sub_category_id: d.sub_category_id,
    description: d.description,
    site_id: pick(d.site_id),
    site_node_id: d.site_node_id,
    observed_at: d.observed_at,
    risk_level: pick(d.risk_level),
    action_required: d.action_required ?? undefined,
    comment: d.comment,
  };
}

/** Errors are i18n keys; the caller translates them. */
type Checked<T> = { body: T; errors: null } | { body: null; errors: FieldErrors };

function withFuture<T>(
  checked: { data: T; errors: null } | { data: null; errors: FieldErrors },
  d: Draft,
  zone: string | undefined,
  now: Date,
): Checked<T> {
  const future = futureTimeError(d.observed_at, zone, now);
  const errors = { ...(checked.errors ?? {}) };
  if (future) errors['observed_at'] ??= future;
  if (d.action_required === null) errors['action_required'] ??= 'validation.required';
  if (Object.keys(errors).length > 0 || !checked.data) return { body: null, errors };
  return { body: checked.data, errors: null };
}

export function createBody(d: Draft, attachmentIds: string[], zone: string | undefined, now: Date): Checked<ObservationCreate> {
  const value = {
    ...fields(d),
    attachment_ids: attachmentIds,
    anonymous: d.anonymous,
    actions: d.action_required ? actionItems(d.actions) : [],
  };
  return withFuture(checkWith(observationCreateBody, value), d, zone, now);
}

/**
 * An edit sends the whole form (PATCH takes any subset) and the new actions as `add_actions`.
 * Actions are required overall: the ones raised before count.
 */
export function updateBody(
  d: Draft,
  attachmentIds: string[],
  existingActions: number,
  zone: string | undefined,
  now: Date,
): Checked<ObservationUpdate> {
  const value: Record<string, unknown> = { ...fields(d), attachment_ids: attachmentIds };
  if (d.action_required && d.actions.length > 0) value.add_actions = actionItems(d.actions);
  const checked = withFuture(checkWith(observationUpdateBody, value), d, zone, now);
  if (d.action_required && d.actions.length === 0 && existingActions === 0) {
    return { body: null, errors: { ...(checked.errors ?? {}), actions: 'observations.validation.actionsRequired' } };
  }
  return checked;
}

/** The guest form: no categories, areas or actions; a name only when not anonymous. */
export type GuestDraft = {
  type: string | null;
  description: string;
  site_id: string | null;
  observed_at: string;
  observed_at_touched: boolean;
  risk_level: string | null;
  comment: string;
  anonymous: boolean;
  reporter_name: string;
  reporter_email: string;
};

export function guestBody(d: GuestDraft, attachmentIds: string[], zone: string | undefined, now: Date): Checked<ObservationGuest> {
  const value = {
    type: pick(d.type),
    description: d.description,
    site_id: pick(d.site_id),
    observed_at: d.observed_at,
    risk_level: pick(d.risk_level),
    comment: d.comment,
    anonymous: d.anonymous,
    reporter_name: d.anonymous ? null : d.reporter_name,
    reporter_email: d.anonymous ? null : d.reporter_email,
    attachment_ids: attachmentIds,
  };
  const checked = checkWith(observationGuestBody, value);
  const errors = { ...(checked.errors ?? {}) };
  const future = futureTimeError(d.observed_at, zone, now);
  if (future) errors['observed_at'] ??= future;
  if (Object.keys(errors).length > 0 || !checked.data) return { body: null, errors };
  return { body: checked.data, errors: null };
}
