import { z } from 'zod';
import { SITE_LEVELS } from '../sites/schemas.js';
import { masterEntrySchema } from './masters.js';
import { permitSectionSchema } from './template.js';

/**
 * GET /api/permit_form_questions/{id}: what the request form of one template needs (spec 000 §7): the
 * template's active sections and questions, the active sites with their areas (the location
 * questions), and the active entries of the four masters (the list questions).
 */
export const permitFormResponse = z.object({
  template: z.object({
    id: z.string(),
    name: z.string(),
    description: z.string(),
    prefix: z.string(),
    default_hours: z.number(),
    extension_hours: z.number(),
    extension_declaration: z.string(),
    enabled: z.boolean(),
  }),
  sections: z.array(permitSectionSchema),
  sites: z.array(
    z.object({
      id: z.string(),
      name: z.string(),
      time_zone: z.string(),
      areas: z.array(
        z.object({ id: z.string(), parent_id: z.string().nullable(), level: z.enum(SITE_LEVELS), name: z.string(), full_name: z.string() }),
      ),
    }),
  ),
  masters: z.object({
    hierarchy_of_controls: z.array(masterEntrySchema),
    activity: z.array(masterEntrySchema),
    equipment: z.array(masterEntrySchema),
    rescue: z.array(masterEntrySchema),
  }),
});
export type PermitForm = z.infer<typeof permitFormResponse>;
