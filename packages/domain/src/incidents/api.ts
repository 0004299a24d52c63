import { defineApi } from '../api/contract.js';
import { fileResponse, idParams, okResponse } from '../api/shared.js';
import { reviewDecisionBody } from '../workflows/review.js';
import {
  incidentCapaBody,
  incidentCloseBody,
  incidentFactsBody,
  incidentKeyFactorsBody,
  incidentRecordBody,
  incidentSendReportBody,
  incidentTeamBody,
  incidentWhyAnalysisBody,
} from './investigation.js';
import { incidentCountsQuery, incidentListQuery, incidentListResponse, incidentStatusCountsResponse } from './list.js';
import { oshaEndpoints } from './osha-api.js';
import { incidentCreateBody, incidentGuestBody, incidentUpdateBody } from './report.js';
import {
  incidentAttachmentResponse,
  incidentCategoriesResponse,
  incidentCreatedResponse,
  incidentFormDataResponse,
  incidentGuestFormDataResponse,
  incidentResponse,
  incidentRootCausesResponse,
} from './responses.js';

const read = { subject: 'Incident', action: 'read' } as const;
const create = { subject: 'Incident', action: 'create' } as const;
/** A guest reports and follows its own reports: the handler narrows these to them (GuestAccess). */
const own = 'own' as const;
/**
 * Writes to one incident declare the least they need (Incident read); the service then asks what the
 * record needs (incidentAbilities: the team, Incident update, the reviewers whose turn it is).
 */
const onRecord = read;

/**
 * Incidents (spec 000 §2, §7; spec 001 §3–§7): the report (step 1) by staff and guests, the
 * investigation's steps 2–7 with CAPA actions and the review workflow, closing, the PDF report and
 * its mailing, the list with tabs and export, and the OSHA 300, 300A and 301 forms.
 */
export const incidentsApi = defineApi('incidents', {
  list: {
    method: 'GET',
    path: '/api/v2/incidents',
    access: read,
    summary:
      'Incidents: a page (50 by default) by status tab, site, severity (or rating pending), category, type, local date range, investigation state and keywords; export_to_excel=true gives exactly the filtered rows as a workbook',
    query: incidentListQuery,
    response: incidentListResponse,
    file: 'on_export',
    exportJob: true,
    guests: own,
  },
  statusCounts: {
    method: 'GET',
    path: '/api/v2/incidents/period_status_counts',
    access: read,
    summary: 'How many incidents each status tab holds for the filters, and how many of them are still to be rated',
    query: incidentCountsQuery,
    response: incidentStatusCountsResponse,
    guests: own,
  },
  formData: {
    method: 'GET',
    path: '/api/incidents/incident_data',
    access: read,
    summary:
      'What the incident forms offer: active sites with their areas, types with categories, ratings, shifts, victim choices, body parts, key factor categories, CAPA choices, OSHA choices and people',
    response: incidentFormDataResponse,
    guests: own,
  },
  categories: {
    method: 'GET',
    path: '/api/incidents/incident_all_categories',
    access: read,
    summary: 'Incident types with their active categories and sub-categories',
    response: incidentCategoriesResponse,
  },
  guestFormData: {
    method: 'GET',
    path: '/api/incidents/out_incident_data',
    access: { public: true },
    summary: "The signed-out guest form of the sub-domain's organisation: its active sites and the report's choices (no people)",
    response: incidentGuestFormDataResponse,
  },
  uploadAttachment: {
    method: 'POST',
    path: '/api/incidents/attachments',
    access: create,
    summary:
      'Upload a photo or document for a new report (multipart field "file"; type checked by content, 10 MB, counted against the quota)',
    upload: 'attachment',
    response: incidentAttachmentResponse,
    status: 201,
    guests: own,
  },
  uploadForIncident: {
    method: 'POST',
    path: '/api/incidents/:id/attachments',
    access: onRecord,
    summary:
      "Upload a file for an incident the requester may edit (the report's attachments or the facts' evidence); name it in attachment_ids or evidence_ids",
    params: idParams,
    upload: 'attachment',
    response: incidentAttachmentResponse,
    status: 201,
  },
  removeAttachment: {
    method: 'DELETE',
    path: '/api/incidents/attachments/:id',
    access: read,
    summary: "Remove one's own upload that no incident uses yet (a linked file is removed by editing the incident)",
    params: idParams,
    response: okResponse,
    guests: own,
  },
  guestUploadAttachment: {
    method: 'POST',
    path: '/api/incidents/outer/attachments',
    access: { public: true },
    summary: 'A signed-out guest uploads a photo or document for their report (rate-limited per address)',
    upload: 'attachment',
    response: incidentAttachmentResponse,
    status: 201,
    refusals: [404, 429],
  },
  guestCreate: {
    method: 'POST',
    path: '/api/incidents/outer',
    access: { public: true },
    summary: 'A signed-out guest reports an incident to the organisation of the sub-domain (rate-limited per address)',
    body: incidentGuestBody,
    response: incidentCreatedResponse,
    status: 201,
    refusals: [404, 429],
  },
  create: {
    method: 'POST',
    path: '/api/incidents',
    access: create,
    summary: 'Report an incident (step 1) with its victims and attachments; the site’s head of safety is told',
    body: incidentCreateBody,
    response: incidentCreatedResponse,
    status: 201,
    guests: own,
  },
  get: {
    method: 'GET',
    path: '/api/incidents/:id',
    access: read,
    summary: 'One incident with its victims, investigation, CAPA actions, review, history and what the requester may do',
    params: idParams,
    response: incidentResponse,
    guests: own,
  },
  rootCauses: {
    method: 'GET',
    path: '/api/incidents/:id/root_causes',
    access: read,
    summary: "The root causes step 5 may pick (the active leaves of the organisation's tree, with their path) and each factor's picks",
    params: idParams,
    response: incidentRootCausesResponse,
  },
  reportPdf: {
    method: 'GET',
    path: '/api/incidents/:id/report.pdf',
    access: read,
    summary:
      "The incident as a PDF in the requester's language: the report, victims, investigation, root causes, CAPA with their status and the review timeline",
    params: idParams,
    response: fileResponse,
    file: 'always',
  },
  update: {
    method: 'PATCH',
    path: '/api/v2/incidents/:id',
    access: onRecord,
    summary:
      'Edit the report (step 1): any of its fields; victims and attachments as the whole list after the edit (the team or Incident update)',
    params: idParams,
    body: incidentUpdateBody,
    response: incidentResponse,
    refusals: [409],
  },
  team: {
    method: 'PUT',
    path: '/api/incidents/:id/team',
    access: onRecord,
    summary: 'Form the investigation team (step 2): lead, members and target date (Incident update, or the lead); new members are told',
    params: idParams,
    body: incidentTeamBody,
    response: incidentResponse,
    refusals: [409],
  },
  facts: {
    method: 'PUT',
    path: '/api/incidents/:id/facts',
    access: onRecord,
    summary: 'Determine the facts (step 3): the timeline of events, witnesses and their statements, evidence files',
    params: idParams,
    body: incidentFactsBody,
    response: incidentResponse,
    refusals: [409],
  },
  keyFactors: {
    method: 'PUT',
    path: '/api/incidents/:id/key_factors',
    access: onRecord,
    summary: 'Determine the key factors (step 4): man, machine, method, material, environment',
    params: idParams,
    body: incidentKeyFactorsBody,
    response: incidentResponse,
    refusals: [409],
  },
  whyAnalysis: {
    method: 'PUT',
    path: '/api/incidents/:id/why_analysis',
    access: onRecord,
    summary: "Why-why analysis (step 5): per factor, the chain of whys ending in root causes of the organisation's tree",
    params: idParams,
    body: incidentWhyAnalysisBody,
    response: incidentResponse,
    refusals: [409],
  },
  addActions: {
    method: 'POST',
    path: '/api/incidents/:id/actions',
    access: onRecord,
    summary: 'Recommend actions (step 6): corrective and preventive actions, raised as actions of source incident',
    params: idParams,
    body: incidentCapaBody,
    response: incidentResponse,
    status: 201,
    refusals: [409],
  },
  record: {
    method: 'PUT',
    path: '/api/incidents/:id/record',
    access: onRecord,
    summary: "Record (step 7): the investigation's conclusion and lessons learned",
    params: idParams,
    body: incidentRecordBody,
    response: incidentResponse,
    refusals: [409],
  },
  submit: {
    method: 'POST',
    path: '/api/incidents/:id/submit',
    access: onRecord,
    summary: "Submit the investigation to the site's review workflow (the lead or Incident update; every step done)",
    params: idParams,
    response: incidentResponse,
    refusals: [409],
  },
  decide: {
    method: 'POST',
    path: '/api/incidents/:id/decide',
    access: onRecord,
    summary: 'Approve the investigation, or send it back with the reason (the reviewers whose turn it is)',
    params: idParams,
    body: reviewDecisionBody,
    response: incidentResponse,
    refusals: [409],
  },
  close: {
    method: 'POST',
    path: '/api/incidents/:id/close',
    access: { subject: 'Incident', action: 'close' },
    summary: 'Close the incident with remarks, once its investigation is approved (or none was required)',
    params: idParams,
    body: incidentCloseBody,
    response: incidentResponse,
    refusals: [409],
  },
  sendReport: {
    method: 'POST',
    path: '/api/incidents/:id/send_report',
    access: onRecord,
    summary:
      'Mail the PDF report to the people chosen (members and other addresses), once approved or closed (the lead or Incident update)',
    params: idParams,
    body: incidentSendReportBody,
    response: incidentResponse,
    refusals: [409],
  },
  remove: {
    method: 'DELETE',
    path: '/api/incidents/:id',
    access: { subject: 'Incident', action: 'delete' },
    summary: 'Delete an incident with no CAPA actions whose investigation was never submitted, with its files',
    params: idParams,
    response: okResponse,
    refusals: [409],
  },
  ...oshaEndpoints,
});
