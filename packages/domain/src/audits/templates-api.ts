import { defineApi } from '../api/contract.js';
import { idParams, okResponse } from '../api/shared.js';
import {
  auditScheduleCreateBody,
  auditScheduleListQuery,
  auditScheduleListResponse,
  auditScheduleResponse,
  auditScheduleUpdateBody,
} from './schedules.js';
import {
  auditFormTypeCreateBody,
  auditFormTypeParams,
  auditFormTypeUpdateBody,
  auditSectionParams,
  auditSectionResponse,
  auditSectionSaveBody,
  auditSectionsResponse,
  auditTemplateCloneBody,
  auditTemplateCreateBody,
  auditTemplateListQuery,
  auditTemplateListResponse,
  auditTemplateResponse,
  auditTemplateUpdateBody,
} from './template.js';

const template = (action: 'read' | 'create' | 'update' | 'delete') => ({ subject: 'Audit Template', action }) as const;

/**
 * Audit templates (spec 000 §7 / 001 §7 `GET, POST /api/audits`, `PATCH /api/audits/{id}`, "form types
 * and sections as for permits"; screens /audit-forms and /audit-forms/{id}, Audit Template rights).
 * As for permits, `/api/audits` and its `{id}` name TEMPLATES (audit forms); the audits themselves are
 * under `/api/v2/audits` (auditsApi). `form_types` manage a template's section list alone (name, order,
 * on/off); `sections` save a section together with its ordered questions.
 */
export const auditTemplatesApi = defineApi('audit-templates', {
  list: {
    method: 'GET',
    path: '/api/audits',
    access: template('read'),
    summary: 'Audit templates (audit forms) with their counts; search by name, filter by type and switch',
    query: auditTemplateListQuery,
    response: auditTemplateListResponse,
  },
  create: {
    method: 'POST',
    path: '/api/audits',
    access: template('create'),
    summary:
      'A template: name, description, icon, type, scoring on or off, declaration; it starts with one empty section (the free account keeps a limited number)',
    body: auditTemplateCreateBody,
    response: auditTemplateResponse,
    status: 201,
  },
  get: {
    method: 'GET',
    path: '/api/audits/:id',
    access: template('read'),
    summary: 'One template with its ordered sections and questions',
    params: idParams,
    response: auditTemplateResponse,
  },
  update: {
    method: 'PATCH',
    path: '/api/audits/:id',
    access: template('update'),
    summary: 'Change a template: name, description, icon, type, scoring, declaration, switch (audits already started keep their copy)',
    params: idParams,
    body: auditTemplateUpdateBody,
    response: auditTemplateResponse,
  },
  remove: {
    method: 'DELETE',
    path: '/api/audits/:id',
    access: template('delete'),
    summary: 'Delete a template no audit or schedule was made from (switch it off otherwise)',
    params: idParams,
    response: okResponse,
    refusals: [409],
  },
  clone: {
    method: 'POST',
    path: '/api/audits/:id/clone',
    access: template('create'),
    summary: 'Copy a template with its sections and questions under a new name (counts against the free account’s limit)',
    params: idParams,
    body: auditTemplateCloneBody,
    response: auditTemplateResponse,
    status: 201,
  },
  formTypes: {
    method: 'GET',
    path: '/api/audits/:id/form_types',
    access: template('read'),
    summary: 'The template’s sections (form types) in order, with their questions',
    params: idParams,
    response: auditSectionsResponse,
  },
  addFormType: {
    method: 'POST',
    path: '/api/audits/:id/form_types',
    access: template('update'),
    summary: 'Add an empty section (at the end, or at a 1-based position)',
    params: idParams,
    body: auditFormTypeCreateBody,
    response: auditSectionResponse,
    status: 201,
    refusals: [409],
  },
  updateFormType: {
    method: 'PATCH',
    path: '/api/audits/:id/form_types/:form_type_id',
    access: template('update'),
    summary: 'Rename, move or switch a section on or off; answers the sections in their new order',
    params: auditFormTypeParams,
    body: auditFormTypeUpdateBody,
    response: auditSectionsResponse,
    refusals: [409],
  },
  removeFormType: {
    method: 'DELETE',
    path: '/api/audits/:id/form_types/:form_type_id',
    access: template('update'),
    summary: 'Remove a section with its questions (refused while a question elsewhere depends on one of them)',
    params: auditFormTypeParams,
    response: auditSectionsResponse,
    refusals: [409],
  },
  sections: {
    method: 'GET',
    path: '/api/audits/:id/sections',
    access: template('read'),
    summary: 'The template’s sections with their ordered questions (the editor’s tree)',
    params: idParams,
    response: auditSectionsResponse,
  },
  addSection: {
    method: 'POST',
    path: '/api/audits/:id/sections',
    access: template('update'),
    summary: 'Add a section with its questions in one save',
    params: idParams,
    body: auditSectionSaveBody,
    response: auditSectionResponse,
    status: 201,
    refusals: [409],
  },
  saveSection: {
    method: 'PATCH',
    path: '/api/audits/:id/sections/:section_id',
    access: template('update'),
    summary:
      'Save a section whole: its name and its questions in order (a question named by id is kept; new ones may carry a key for conditions; one left out is removed)',
    params: auditSectionParams,
    body: auditSectionSaveBody,
    response: auditSectionResponse,
    refusals: [409],
  },
  removeSection: {
    method: 'DELETE',
    path: '/api/audits/:id/sections/:section_id',
    access: template('update'),
    summary: 'Remove a section with its questions; answers the remaining sections',
    params: auditSectionParams,
    response: auditSectionsResponse,
    refusals: [409],
  },
});

const audit = (action: 'read' | 'create' | 'update' | 'delete') => ({ subject: 'Audit', action }) as const;

/**
 * Audit schedules (issue 17): template, sites, area, auditor and auditee, frequency, start and end.
 * Audits they make are found in the audits list; the calendar is POST /api/audits/schedulesinfo.
 */
export const auditSchedulesApi = defineApi('audit-schedules', {
  list: {
    method: 'GET',
    path: '/api/audit_schedules',
    access: audit('read'),
    summary: 'Schedules: a page, with search, site, template, type, frequency and switch filters',
    query: auditScheduleListQuery,
    response: auditScheduleListResponse,
  },
  create: {
    method: 'POST',
    path: '/api/audit_schedules',
    access: audit('create'),
    summary:
      'Schedule audits of a template at sites; the audits due today are made at once and their auditor told (the free account keeps a limited number of schedules)',
    body: auditScheduleCreateBody,
    response: auditScheduleResponse,
    status: 201,
  },
  get: {
    method: 'GET',
    path: '/api/audit_schedules/:id',
    access: audit('read'),
    summary: 'One schedule with its next due date',
    params: idParams,
    response: auditScheduleResponse,
  },
  update: {
    method: 'PATCH',
    path: '/api/audit_schedules/:id',
    access: audit('update'),
    summary:
      'Change a schedule, or pause it (active); once it has made audits only its auditor, auditee, area, end and switch change, and its audits not started follow',
    params: idParams,
    body: auditScheduleUpdateBody,
    response: auditScheduleResponse,
    refusals: [409],
  },
  remove: {
    method: 'DELETE',
    path: '/api/audit_schedules/:id',
    access: audit('delete'),
    summary: 'Delete a schedule with its audits not started yet (started ones stay)',
    params: idParams,
    response: okResponse,
  },
});
