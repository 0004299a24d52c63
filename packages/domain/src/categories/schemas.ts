import { z } from 'zod';
import { listEnvelope, listQuery } from '../api/shared.js';

/** A missing value reads "required"; a value of the wrong kind reads "not valid". */
const requiredOrInvalid = (iss: { input?: unknown }) =>
  iss.input === undefined || iss.input === null ? 'validation.required' : 'validation.invalid';

/**
 * Modules that classify their records with categories, and the category types each offers
 * (observation hazard types, incident classifications, action and HIRA classifications).
 * The keys are stable; their labels live in the `categories.types` texts.
 */
export const CATEGORY_TYPES_BY_MODULE = {
  observations: ['unsafe_act', 'unsafe_condition', 'near_miss', 'good_practice'],
  incidents: ['injury', 'occupational_illness', 'property_damage', 'environmental', 'fire', 'security'],
  actions: ['corrective', 'preventive', 'improvement'],
  hira: ['safety', 'health', 'environment'],
} as const;

export type CategoryModule = keyof typeof CATEGORY_TYPES_BY_MODULE;
export const CATEGORY_MODULES = Object.keys(CATEGORY_TYPES_BY_MODULE) as CategoryModule[];
export type CategoryType = (typeof CATEGORY_TYPES_BY_MODULE)[CategoryModule][number];
export const CATEGORY_TYPES = [...new Set(Object.values(CATEGORY_TYPES_BY_MODULE).flat())] as CategoryType[];

export function isCategoryTypeOf(module: CategoryModule, type: string): boolean {
  return (CATEGORY_TYPES_BY_MODULE[module] as readonly string[]).includes(type);
}

export const CATEGORY_NAME_MAX = 120;
export const CATEGORY_DESCRIPTION_MAX = 500;

const categoryName = z
  .string({ error: requiredOrInvalid })
  .trim()
  .min(1, { message: 'validation.required' })
  .max(CATEGORY_NAME_MAX, { message: 'validation.tooLong' });
const description = z.string({ error: 'validation.invalid' }).trim().max(CATEGORY_DESCRIPTION_MAX, { message: 'validation.tooLong' });
const active = z.boolean({ error: 'validation.invalid' });

export const categoryModuleSchema = z.enum(CATEGORY_MODULES as [CategoryModule, ...CategoryModule[]], { error: requiredOrInvalid });
export const categoryTypeSchema = z.enum(CATEGORY_TYPES as [CategoryType, ...CategoryType[]], { error: requiredOrInvalid });

/** POST /api/categories. */
export const categoryCreateSchema = z
  .object({
    module: categoryModuleSchema,
    type: categoryTypeSchema,
    name: categoryName,
    description: description.optional(),
    active: active.optional(),
  })
  .superRefine((v, ctx) => {
    if (!isCategoryTypeOf(v.module, v.type)) {
      ctx.addIssue({ code: 'custom', path: ['type'], message: 'categories.validation.typeNotInModule' });
    }
  });
export type CategoryCreate = z.infer<typeof categoryCreateSchema>;

/** PATCH /api/categories/{id}: the module stays; the type may change within it. */
export const categoryUpdateSchema = z
  .object({
    type: categoryTypeSchema.optional(),
    name: categoryName.optional(),
    description: description.optional(),
    active: active.optional(),
  })
  .refine((v) => Object.keys(v).length > 0, { message: 'categories.validation.nothingToChange' });
export type CategoryUpdate = z.infer<typeof categoryUpdateSchema>;

/** POST /api/categories/{id}/sub_categories. */
export const subCategoryCreateSchema = z.object({
  name: categoryName,
  active: active.optional(),
});
export type SubCategoryCreate = z.infer<typeof subCategoryCreateSchema>;

/** PATCH /api/categories/{id}/sub_categories/{subId}. */
export const subCategoryUpdateSchema = z
  .object({ name: categoryName.optional(), active: active.optional() })
  .refine((v) => Object.keys(v).length > 0, { message: 'categories.validation.nothingToChange' });
export type SubCategoryUpdate = z.infer<typeof subCategoryUpdateSchema>;

export const categorySchema = z.object({
  id: z.string(),
  module: categoryModuleSchema,
  type: categoryTypeSchema,
  name: z.string(),
  description: z.string(),
  active: z.boolean(),
  sub_category_count: z.number(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type Category = z.infer<typeof categorySchema>;

export const subCategorySchema = z.object({
  id: z.string(),
  category_id: z.string(),
  name: z.string(),
  active: z.boolean(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type SubCategory = z.infer<typeof subCategorySchema>;

export const categoryTypesResponse = z.object({
  category_types: z.array(z.object({ module: categoryModuleSchema, types: z.array(categoryTypeSchema) })),
});
export type CategoryTypesResponse = z.infer<typeof categoryTypesResponse>;

export const categoryListResponse = listEnvelope('categories', categorySchema);
export type CategoryListResponse = z.infer<typeof categoryListResponse>;

export const categoryDetailResponse = z.object({ category: categorySchema, sub_categories: z.array(subCategorySchema) });
export type CategoryDetailResponse = z.infer<typeof categoryDetailResponse>;

/** GET /api/categories/{id}/sub_categories. */
export const subCategoriesResponse = z.object({ sub_categories: z.array(subCategorySchema) });
export type SubCategoriesResponse = z.infer<typeof subCategoriesResponse>;

/** `?status=active|inactive` of the category list and the root-cause tree. */
export const categoryStatusFilter = z.enum(['active', 'inactive'], { message: 'validation.invalid' }).optional();

/** GET /api/categories: a page, filtered by module, type, status and name. */
export const categoryListQuery = listQuery.extend({
  module: categoryModuleSchema.optional(),
  type: categoryTypeSchema.optional(),
  status: categoryStatusFilter,
});
export type CategoryListQuery = z.output<typeof categoryListQuery>;

const uuid = z.uuid({ message: 'validation.invalid' });
/** `/api/categories/{id}/sub_categories/{subId}`. */
export const subCategoryParams = z.object({ id: uuid, subId: uuid });
