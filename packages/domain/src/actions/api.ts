import { defineApi, type Access } from '../api/contract.js';
import { idParams, okResponse } from '../api/shared.js';
import {
  actionAttachmentParamsSchema,
  actionCategoryOptionsSchema,
  actionCreateSchema,
  actionDetailQuerySchema,
  actionDetailSchema,
  actionListQuerySchema,
  actionListResponseSchema,
  actionUpdateSchema,
  type ActionListKind,
  type ActionSource,
} from './schemas.js';

/**
 * The right that guards each source's actions list and lets a person read that source's actions
 * (DECISIONS.md: each actions list is guarded by the read right of its own source module; spec 000 §2
 * guarded some by Incident read, a slip). Safety interactions have no right of their own: their screens
 * and calls need only a session, and so do their agreed actions (docs/modules.md).
 */
export const ACTION_SOURCE_ACCESS = {
  audit: { subject: 'Audit', action: 'read' },
  observation: { subject: 'Observation', action: 'read' },
  incident: { subject: 'Incident', action: 'read' },
  safety_interaction: { session: true },
  other: { subject: 'Action', action: 'read' },
} as const satisfies Record<ActionSource, Access>;

/** What every list of spec 001 §7 shares: the same filters, the same page, the same export. */
const list = {
  method: 'GET',
  query: actionListQuerySchema,
  response: actionListResponseSchema,
  file: 'on_export',
  exportJob: true,
} as const;
const listSummary =
  ': a page (50) with the status tab counts, filtered and searched (a search counts up to 1,000 matches: pagination.total_capped, counts_capped), or every filtered row as Excel (export_to_excel=true)';

/** The action form's writes: an action of its own, at a site. */
const create = {
  method: 'POST',
  access: { subject: 'Action', action: 'create' },
  summary: 'Raise an action of its own (source "other") at a site',
  body: actionCreateSchema,
  response: actionDetailSchema,
  status: 201,
} as const;

/**
 * Actions of every source (spec 001 §2 Actions, §7): the lists, one per source, each guarded by its
 * source's read right (ACTION_SOURCE_ACCESS); the detail, edits and status moves, attachments and the form's
 * categories. Rights that depend on the record (being its responsible person) are the handlers'.
 */
export const actionsApi = defineApi('actions', {
  listAll: {
    ...list,
    path: '/api/actions/all',
    access: { subject: 'Action', action: 'read' },
    summary: `Actions of every source${listSummary}`,
  },
  listAudit: {
    ...list,
    path: '/api/actions/audit_action_datas',
    access: ACTION_SOURCE_ACCESS.audit,
    summary: `Actions of source audit${listSummary}`,
  },
  listObservation: {
    ...list,
    path: '/api/actions/observation_action_datas',
    access: ACTION_SOURCE_ACCESS.observation,
    summary: `Actions of source observation${listSummary}`,
  },
  listOther: {
    ...list,
    path: '/api/actions/other_action_datas',
    access: ACTION_SOURCE_ACCESS.other,
    summary: `Actions of source other${listSummary}`,
  },
  listIncident: {
    ...list,
    path: '/api/actions/incident_action_datas',
    access: ACTION_SOURCE_ACCESS.incident,
    summary: `Actions of source incident${listSummary}`,
  },
  listSafetyInteraction: {
    ...list,
    path: '/api/actions/si_observation_action_datas',
    access: ACTION_SOURCE_ACCESS.safety_interaction,
    summary: `Actions of source safety_interaction${listSummary}`,
  },
  categories: {
    method: 'GET',
    path: '/api/actions/categories',
    // The form's picker: whoever may open an action form may see the category names (no Category right needed).
    access: { session: true },
    summary: 'Active categories of the actions module, for the action form',
    response: actionCategoryOptionsSchema,
  },
  get: {
    method: 'GET',
    path: '/api/actions/:id',
    // Action read, the right of its source's list, or being its responsible person: the handler checks which.
    access: { session: true },
    summary:
      "One action with its attachments, source and history. Readable with Action read, the right of its source's list, or as its responsible person; actionable_type must match its source",
    params: idParams,
    query: actionDetailQuerySchema,
    response: actionDetailSchema,
  },
  update: {
    method: 'PATCH',
    path: '/api/actions/:id',
    // Action update, or its responsible person for their part: the handler checks which.
    access: { session: true },
    summary:
      'Edit an action or move its status along the allowed transitions. Action update for everything; its responsible person alone may start, complete (with remarks) and report on it',
    params: idParams,
    body: actionUpdateSchema,
    response: actionDetailSchema,
    refusals: [409],
  },
  // The spec's path ends with a slash; the plain path is the same call.
  create: { ...create, path: '/api/actions/' },
  createWithoutSlash: { ...create, path: '/api/actions' },
  addAttachment: {
    method: 'POST',
    path: '/api/actions/:id/attachments',
    // Its responsible person or whoever may update actions: the handler checks which.
    access: { session: true },
    summary: 'Attach a file or photo (multipart field "file"; type checked by content; counted against the storage quota)',
    params: idParams,
    upload: 'attachment',
    response: actionDetailSchema,
    status: 201,
    refusals: [409],
  },
  removeAttachment: {
    method: 'DELETE',
    path: '/api/actions/:id/attachments/:fileId',
    access: { session: true },
    summary: 'Remove a file from an action (its space returns to the quota)',
    params: actionAttachmentParamsSchema,
    response: okResponse,
    refusals: [409],
  },
});

/** The endpoint of each list of spec 001 §7 (`/api/actions/<kind>`). */
export const ACTION_LIST_ENDPOINTS = {
  all: 'listAll',
  audit_action_datas: 'listAudit',
  observation_action_datas: 'listObservation',
  other_action_datas: 'listOther',
  incident_action_datas: 'listIncident',
  si_observation_action_datas: 'listSafetyInteraction',
} as const satisfies Record<ActionListKind, keyof typeof actionsApi>;
