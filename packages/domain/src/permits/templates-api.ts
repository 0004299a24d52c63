import { defineApi } from '../api/contract.js';
import { idParams, okResponse } from '../api/shared.js';
import { permitFormResponse } from './form-data.js';
import {
  permitFormTypeParams,
  permitQuestionResponse,
  permitSectionCreateBody,
  permitSectionParams,
  permitSectionResponse,
  permitSectionSaveBody,
  permitSectionsResponse,
  permitSectionUpdateBody,
  permitTemplateCreateBody,
  permitTemplateListQuery,
  permitTemplateListResponse,
  permitTemplateResponse,
  permitTemplateUpdateBody,
} from './template.js';

const setting = (action: 'read' | 'create' | 'update' | 'delete') => ({ subject: 'Permit Form Setting', action }) as const;

/**
 * Permit templates (spec 000 §7: `/api/permits` are the templates, "permit types"; spec 001 §2, §3):
 * the template list and settings, its sections ("form types") and their questions, a question's
 * reference image, and the fillable form of one template for the request flow.
 *
 * `form_types` manage the section list alone (name, order, on/off); `sections` save a section together
 * with its ordered questions. Fixed sections (location, duration, closure) and their bound questions
 * stay; every answer a permit gave keeps its question's snapshot in the permit.
 */
export const permitTemplatesApi = defineApi('permit-templates', {
  list: {
    method: 'GET',
    path: '/api/permits',
    access: setting('read'),
    summary: 'Permit templates (permit types), with their enable switch, counts and conflicting types; search by name or prefix',
    query: permitTemplateListQuery,
    response: permitTemplateListResponse,
  },
  create: {
    method: 'POST',
    path: '/api/permits',
    access: setting('create'),
    summary:
      'A template: name, description, prefix of its permit numbers, default hours from start (8) and for an extension (4); it starts with the four default sections',
    body: permitTemplateCreateBody,
    response: permitTemplateResponse,
    status: 201,
    refusals: [409],
  },
  get: {
    method: 'GET',
    path: '/api/permits/:id',
    access: setting('read'),
    summary: 'One template with its ordered sections and questions',
    params: idParams,
    response: permitTemplateResponse,
  },
  update: {
    method: 'PATCH',
    path: '/api/permits/:id',
    access: setting('update'),
    summary: 'Change a template: its fields, its enable switch, and the template types whose work conflicts with its own (both ways)',
    params: idParams,
    body: permitTemplateUpdateBody,
    response: permitTemplateResponse,
    refusals: [409],
  },
  remove: {
    method: 'DELETE',
    path: '/api/permits/:id',
    access: setting('delete'),
    summary: 'Delete a template no permit was raised from (switch it off otherwise)',
    params: idParams,
    response: okResponse,
    refusals: [409],
  },
  formTypes: {
    method: 'GET',
    path: '/api/permits/:id/form_types',
    access: setting('read'),
    summary: 'The template’s sections (form types) in order, with their questions',
    params: idParams,
    response: permitSectionsResponse,
  },
  addFormType: {
    method: 'POST',
    path: '/api/permits/:id/form_types',
    access: setting('update'),
    summary: 'Add a custom section (at the end, or at a 1-based position)',
    params: idParams,
    body: permitSectionCreateBody,
    response: permitSectionResponse,
    status: 201,
    refusals: [409],
  },
  updateFormType: {
    method: 'PATCH',
    path: '/api/permits/:id/form_types/:form_type_id',
    access: setting('update'),
    summary: 'Rename, move or switch a section on or off',
    params: permitFormTypeParams,
    body: permitSectionUpdateBody,
    response: permitSectionsResponse,
    refusals: [409],
  },
  removeFormType: {
    method: 'DELETE',
    path: '/api/permits/:id/form_types/:form_type_id',
    access: setting('update'),
    summary: 'Remove a section with its questions (not a fixed one: location, duration, closure)',
    params: permitFormTypeParams,
    response: permitSectionsResponse,
    refusals: [409],
  },
  sections: {
    method: 'GET',
    path: '/api/permits/:id/sections',
    access: setting('read'),
    summary: 'The template’s sections with their ordered questions (the editor’s tree)',
    params: idParams,
    response: permitSectionsResponse,
  },
  addSection: {
    method: 'POST',
    path: '/api/permits/:id/sections',
    access: setting('update'),
    summary: 'Add a custom section with its questions in one save',
    params: idParams,
    body: permitSectionSaveBody,
    response: permitSectionResponse,
    status: 201,
    refusals: [409],
  },
  saveSection: {
    method: 'PATCH',
    path: '/api/permits/:permit_id/sections/:section_id',
    access: setting('update'),
    summary:
      'Save a section whole: its name and its questions in order (a question named by id is kept; new ones may carry a key for conditions; left out or destroy: removed)',
    params: permitSectionParams,
    body: permitSectionSaveBody,
    response: permitSectionResponse,
    refusals: [409],
  },
  removeSection: {
    method: 'DELETE',
    path: '/api/permits/:permit_id/sections/:section_id',
    access: setting('update'),
    summary: 'Remove a section with its questions (not a fixed one)',
    params: permitSectionParams,
    response: permitSectionsResponse,
    refusals: [409],
  },
  referenceImage: {
    method: 'PATCH',
    path: '/api/section_question_reference_image/:id',
    access: setting('update'),
    summary: 'Set a question’s reference image (multipart field "file": JPEG, PNG, GIF or WebP under 10 MB); it replaces the last one',
    params: idParams,
    upload: 'attachment',
    response: permitQuestionResponse,
  },
  form: {
    method: 'GET',
    path: '/api/permit_form_questions/:id',
    access: { subject: 'Permit', action: 'read' },
    summary:
      'The request form of one switched-on template: its active sections and questions, the active sites with their areas, and the active entries of the four masters',
    params: idParams,
    response: permitFormResponse,
  },
});
