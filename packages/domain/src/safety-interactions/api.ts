import { defineApi } from '../api/contract.js';
import { idParams, okResponse } from '../api/shared.js';
import {
  siCreateSchema,
  siDashboardResponseSchema,
  siListQuerySchema,
  siListResponseSchema,
  siOptionsResponseSchema,
  siPeopleQuerySchema,
  siPeopleResponseSchema,
  siResponseSchema,
  siScheduleListQuerySchema,
  siScheduleListResponseSchema,
  siScheduleResponseSchema,
  siScheduleSchema,
  siSummaryQuerySchema,
  siSummaryResponseSchema,
  siUpdateSchema,
} from './schemas.js';

/** Reading interactions is for every signed-in member; writing needs the Observation rights. */
const read = { session: true } as const;
const create = { subject: 'Observation', action: 'create' } as const;
const update = { subject: 'Observation', action: 'update' } as const;
const remove = { subject: 'Observation', action: 'delete' } as const;

/**
 * Safety interactions: the conversations with their people, behaviours and agreed actions, the plans,
 * the summary of a period and the dashboard.
 */
export const safetyInteractionsApi = defineApi('safety-interactions', {
  // --- Records ------------------------------------------------------------------------------------
  list: {
    method: 'GET',
    path: '/api/safety_interactions',
    access: read,
    summary:
      'Safety interactions, newest first: a page filtered by site, observer, topic, status, period and keyword (a search counts up to 1,000 matches: pagination.total_capped), or all of them as Excel (export_to_excel=true)',
    query: siListQuerySchema,
    response: siListResponseSchema,
    file: 'on_export',
    exportJob: true,
  },
  options: {
    method: 'GET',
    path: '/api/safety_interactions/options',
    access: read,
    summary: 'Active sites with their time zones and areas, for the form',
    response: siOptionsResponseSchema,
  },
  people: {
    method: 'GET',
    path: '/api/safety_interactions/people',
    access: read,
    summary: 'Active members to pick as observer or participant (first 50 matching)',
    query: siPeopleQuerySchema,
    response: siPeopleResponseSchema,
  },
  get: {
    method: 'GET',
    path: '/api/safety_interactions/:id',
    access: read,
    summary: 'One interaction with its people, behaviours and agreed actions',
    params: idParams,
    response: siResponseSchema,
  },
  create: {
    method: 'POST',
    path: '/api/safety_interactions',
    access: create,
    summary: 'Record an interaction (draft or completed), with its agreed actions (source safety_interaction)',
    body: siCreateSchema,
    response: siResponseSchema,
    status: 201,
  },
  update: {
    method: 'PATCH',
    path: '/api/safety_interactions/:id',
    // Who may change an interaction depends on the record (its observer, or Observation update): the
    // route refuses callers holding neither create nor update, the service decides on the record.
    access: read,
    summary:
      'Change an interaction (the whole form; `actions` adds agreed actions). Its observer holding Observation create, or anyone holding Observation update',
    params: idParams,
    body: siUpdateSchema,
    response: siResponseSchema,
  },
  remove: {
    method: 'DELETE',
    path: '/api/safety_interactions/:id',
    access: remove,
    summary: 'Delete an interaction without agreed actions',
    params: idParams,
    response: okResponse,
    refusals: [409],
  },

  // --- Plans --------------------------------------------------------------------------------------
  schedules: {
    method: 'GET',
    path: '/api/safety_interactions/schedules',
    access: read,
    summary: 'Planned interactions of a period with their status (planned, done, missed), by date',
    query: siScheduleListQuerySchema,
    response: siScheduleListResponseSchema,
  },
  createSchedule: {
    method: 'POST',
    path: '/api/safety_interactions/schedules',
    access: create,
    summary: 'Plan an interaction: observer, site, date, note',
    body: siScheduleSchema,
    response: siScheduleResponseSchema,
    status: 201,
  },
  updateSchedule: {
    method: 'PATCH',
    path: '/api/safety_interactions/schedules/:id',
    access: update,
    summary: 'Change a plan',
    params: idParams,
    body: siScheduleSchema,
    response: siScheduleResponseSchema,
  },
  removeSchedule: {
    method: 'DELETE',
    path: '/api/safety_interactions/schedules/:id',
    access: remove,
    summary: 'Delete a plan (an interaction recorded for it stays)',
    params: idParams,
    response: okResponse,
  },

  // --- Summary and dashboard ----------------------------------------------------------------------
  summary: {
    method: 'GET',
    path: '/api/safety_interactions/summary',
    access: read,
    summary: 'Completed interactions of a period: totals, safe against at-risk, by topic, by site, by observer, and the plans',
    query: siSummaryQuerySchema,
    response: siSummaryResponseSchema,
  },
  dashboard: {
    method: 'GET',
    path: '/api/safety_interactions/dashboard',
    access: read,
    summary: 'This month against the plan, six months of behaviours, top at-risk topics, open agreed actions, the next plans',
    response: siDashboardResponseSchema,
  },
});
