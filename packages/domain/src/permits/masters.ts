import { z } from 'zod';
import { exportFlag, listQuery, paginationSchema } from '../api/shared.js';
import { invalid, optionalText, requiredOrInvalid, requiredText } from '../incidents/inputs.js';
import { CONTROL_LEVELS, MASTER_KINDS, PERMIT_MASTER_NAME_MAX } from './model.js';

/**
 * The four permit masters (spec 000 §2, §6: admin only; GLOSSARY): hierarchy of controls, activities,
 * equipment and rescue plans. Each is a list of named entries the list questions of a permit form pick
 * from. An entry is switched off (never deleted) so the permits that picked it keep reading it.
 */

const fields = {
  name: requiredText(PERMIT_MASTER_NAME_MAX),
  description: optionalText(1000),
  /** Hierarchy of controls only: the level of the control (elimination … PPE); required there. */
  control_level: z.enum(CONTROL_LEVELS, { error: requiredOrInvalid('permits.validation.controlLevel') }).nullable(),
};

export const masterCreateBody = z.object({ ...fields, control_level: fields.control_level.default(null) });
export type MasterCreate = z.output<typeof masterCreateBody>;
export const masterUpdateBody = z.object({ ...fields, active: z.boolean(invalid) }).partial();
export type MasterUpdate = z.output<typeof masterUpdateBody>;

export const masterListQuery = listQuery.extend(exportFlag.shape).extend({
  status: z.enum(['active', 'inactive', 'all'], invalid).default('all'),
});
export type MasterListQuery = z.output<typeof masterListQuery>;

export const masterEntrySchema = z.object({
  id: z.string(),
  kind: z.enum(MASTER_KINDS),
  name: z.string(),
  description: z.string().nullable(),
  control_level: z.enum(CONTROL_LEVELS).nullable(),
  active: z.boolean(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type MasterEntry = z.infer<typeof masterEntrySchema>;

export const masterEntryResponse = z.object({ entry: masterEntrySchema });
export const masterListResponse = z.object({ entries: z.array(masterEntrySchema), pagination: paginationSchema });

/** The import's columns (headers may be these keys or their labels in any of the four languages). */
export const MASTER_IMPORT_COLUMNS = ['name', 'description', 'control_level', 'active'] as const;
export type MasterImportColumn = (typeof MASTER_IMPORT_COLUMNS)[number];

/** An import writes new entries and updates those of the same name (case-insensitive): all rows or none. */
export const masterImportResultResponse = z.object({
  created: z.number(),
  updated: z.number(),
  errors: z.array(z.object({ row: z.number(), field: z.string(), message: z.string() })),
});
