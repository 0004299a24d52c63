import { defineApi } from '../api/contract.js';
import { idParams, okResponse } from '../api/shared.js';
import {
  phenomenaRootCausesQuery,
  phenomenaRootCausesResponse,
  rootCauseChildCreateSchema,
  rootCauseCreateSchema,
  rootCauseListQuery,
  rootCauseListResponse,
  rootCauseNodeSchema,
  rootCauseParentListingResponse,
  rootCauseUpdateSchema,
} from './root-causes.js';
import {
  categoryCreateSchema,
  categoryDetailResponse,
  categoryListQuery,
  categoryListResponse,
  categorySchema,
  categoryTypesResponse,
  categoryUpdateSchema,
  subCategoriesResponse,
  subCategoryCreateSchema,
  subCategoryParams,
  subCategorySchema,
  subCategoryUpdateSchema,
} from './schemas.js';

const read = { subject: 'Category', action: 'read' } as const;
const create = { subject: 'Category', action: 'create' } as const;
const update = { subject: 'Category', action: 'update' } as const;

/** Categories and sub-categories of the modules that classify their records (spec 000 §3). */
export const categoriesApi = defineApi('categories', {
  list: {
    method: 'GET',
    path: '/api/categories',
    access: read,
    summary: 'Categories filtered by module, type, status and name, with pagination',
    query: categoryListQuery,
    response: categoryListResponse,
  },
  types: {
    method: 'GET',
    path: '/api/categories/category_types',
    access: read,
    summary: 'The category types of each module',
    response: categoryTypesResponse,
  },
  get: {
    method: 'GET',
    path: '/api/categories/:id',
    access: read,
    summary: 'A category with its sub-categories',
    params: idParams,
    response: categoryDetailResponse,
  },
  create: {
    method: 'POST',
    path: '/api/categories',
    access: create,
    summary: 'Create a category',
    body: categoryCreateSchema,
    response: categorySchema,
    status: 201,
    refusals: [409],
  },
  update: {
    method: 'PATCH',
    path: '/api/categories/:id',
    access: update,
    summary: 'Rename, retype within its module, describe, activate or deactivate a category',
    params: idParams,
    body: categoryUpdateSchema,
    response: categorySchema,
    refusals: [409],
  },
  subCategories: {
    method: 'GET',
    path: '/api/categories/:id/sub_categories',
    access: read,
    summary: 'Sub-categories of a category',
    params: idParams,
    response: subCategoriesResponse,
  },
  createSubCategory: {
    method: 'POST',
    path: '/api/categories/:id/sub_categories',
    access: create,
    summary: 'Add a sub-category',
    params: idParams,
    body: subCategoryCreateSchema,
    response: subCategorySchema,
    status: 201,
    refusals: [409],
  },
  updateSubCategory: {
    method: 'PATCH',
    path: '/api/categories/:id/sub_categories/:subId',
    access: update,
    summary: 'Rename, activate or deactivate a sub-category',
    params: subCategoryParams,
    body: subCategoryUpdateSchema,
    response: subCategorySchema,
    refusals: [409],
  },
});

const rcRead = { subject: 'RC Master', action: 'read' } as const;
const rcCreate = { subject: 'RC Master', action: 'create' } as const;

/** Root-cause settings (subject 'RC Master'): the why-analysis tree of types and causes. */
export const rootCauseSettingsApi = defineApi('root-cause-settings', {
  list: {
    method: 'GET',
    path: '/api/root_cause_settings',
    access: rcRead,
    summary: 'The root-cause tree in reading order (filter by type name, status, search)',
    query: rootCauseListQuery,
    response: rootCauseListResponse,
  },
  phenomenaRootCauses: {
    method: 'GET',
    path: '/api/root_cause_settings/phenomena_root_causes',
    access: rcRead,
    summary: 'The root causes an investigation may pick: active entries with nothing active below them',
    query: phenomenaRootCausesQuery,
    response: phenomenaRootCausesResponse,
  },
  parentListing: {
    method: 'GET',
    path: '/api/root_cause_settings/:id/root_cause_parent_listing',
    access: rcRead,
    summary: 'An entry with its path from the type and the entries directly below it',
    params: idParams,
    response: rootCauseParentListingResponse,
  },
  create: {
    method: 'POST',
    path: '/api/root_cause_settings',
    access: rcCreate,
    summary: 'Add a type (no parent) or an entry below parent_id',
    body: rootCauseCreateSchema,
    response: rootCauseNodeSchema,
    status: 201,
    refusals: [409],
  },
  createChild: {
    method: 'POST',
    path: '/api/root_cause_settings/:id',
    access: rcCreate,
    summary: 'Add an entry below {id}',
    params: idParams,
    body: rootCauseChildCreateSchema,
    response: rootCauseNodeSchema,
    status: 201,
    refusals: [409],
  },
  update: {
    method: 'PATCH',
    path: '/api/root_cause_settings/:id',
    access: { subject: 'RC Master', action: 'update' },
    summary: 'Rename, move, deactivate or activate an entry (with_children: together with everything below it)',
    params: idParams,
    body: rootCauseUpdateSchema,
    response: rootCauseNodeSchema,
    refusals: [409],
  },
  remove: {
    method: 'DELETE',
    path: '/api/root_cause_settings/:id',
    access: { subject: 'RC Master', action: 'delete' },
    summary: 'Delete an entry that has nothing below it',
    params: idParams,
    response: okResponse,
    refusals: [409],
  },
});
