import { defineApi } from '../api/contract.js';
import { idParams } from '../api/shared.js';
import {
  actionSettingsSchema,
  ehsOcpItemSchema,
  ehsOcpListQuery,
  ehsOcpListResponse,
  ehsOcpPatchSchema,
  ehsOcpSchema,
  emailSubscriptionsResponse,
  emailSubscriptionsSchema,
  kpiSettingsResponse,
  kpiSettingsSchema,
  kpiYearQuery,
} from './schemas.js';

/**
 * Settings (spec 001 §9): the KPI targets of a year (admin), the EHS operational control procedures
 * (read by everyone, written by the admin) and each user's own e-mail subscriptions.
 */
export const settingsApi = defineApi('settings', {
  // --- KPI settings (admin) -------------------------------------------------------------------------
  kpi: {
    method: 'GET',
    path: '/api/kpi_settings',
    access: { admin: true },
    summary: 'KPI targets of a year (the defaults until saved)',
    query: kpiYearQuery,
    response: kpiSettingsResponse,
  },
  saveKpi: {
    method: 'PUT',
    path: '/api/kpi_settings',
    access: { admin: true },
    summary: 'Save the KPI targets of a year',
    query: kpiYearQuery,
    body: kpiSettingsSchema,
    response: kpiSettingsResponse,
  },

  // --- Action rules of the organisation (admin) -------------------------------------------------------
  actionSettings: {
    method: 'GET',
    path: '/api/action_settings',
    access: { admin: true },
    summary: 'The organisation’s action rules (closing needs someone other than the completer)',
    response: actionSettingsSchema,
  },
  saveActionSettings: {
    method: 'PUT',
    path: '/api/action_settings',
    access: { admin: true },
    summary: 'Save the organisation’s action rules',
    body: actionSettingsSchema,
    response: actionSettingsSchema,
  },

  // --- EHS OCP: read by every signed-in user (incident forms pick one), written by the admin --------
  ocps: {
    method: 'GET',
    path: '/api/v2/ehs_ocps',
    access: { session: true },
    summary: 'EHS operational control procedures, by code',
    query: ehsOcpListQuery,
    response: ehsOcpListResponse,
  },
  ocp: {
    method: 'GET',
    path: '/api/v2/ehs_ocps/:id',
    access: { session: true },
    summary: 'One EHS operational control procedure',
    params: idParams,
    response: ehsOcpItemSchema,
  },
  createOcp: {
    method: 'POST',
    path: '/api/v2/ehs_ocps',
    access: { admin: true },
    summary: 'Add an EHS operational control procedure',
    body: ehsOcpSchema,
    response: ehsOcpItemSchema,
    status: 201,
    refusals: [409],
  },
  updateOcp: {
    method: 'PATCH',
    path: '/api/v2/ehs_ocps/:id',
    access: { admin: true },
    summary: 'Change an EHS operational control procedure (deactivate with active: false)',
    params: idParams,
    body: ehsOcpPatchSchema,
    response: ehsOcpItemSchema,
    refusals: [409],
  },

  // --- E-mail subscriptions: every signed-in user, for themself -------------------------------------
  emailSubscriptions: {
    method: 'GET',
    path: '/api/email_subscriptions',
    access: { session: true },
    summary: 'Which e-mails I receive, per scenario',
    response: emailSubscriptionsResponse,
  },
  saveEmailSubscriptions: {
    method: 'PUT',
    path: '/api/email_subscriptions',
    access: { session: true },
    summary: 'Choose which e-mails I receive (mandatory ones stay on)',
    body: emailSubscriptionsSchema,
    response: emailSubscriptionsResponse,
  },
});
