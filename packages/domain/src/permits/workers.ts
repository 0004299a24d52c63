import { z } from 'zod';
import { exportFlag, listQuery, paginationSchema } from '../api/shared.js';
import { invalid, requiredOrInvalid, tooLong } from '../incidents/inputs.js';
import { employeeIdSchema, userNameSchema, userPhoneSchema } from '../users/schemas.js';
import { WORKER_AGE_MAX, WORKER_AGE_MIN, WORKER_GENDERS } from './model.js';

/**
 * Worker profiles (spec 001 §3 "Worker profile": name, photo, age, phone, ID, gender; §5: at least one
 * per permit, photo a JPEG or PNG under 500 KB). Workers are often contractors without an account, so
 * they are records of their own, not users. Searched by name, phone or ID, recently used first.
 */

const workerFields = {
  name: userNameSchema,
  /** An uploaded photo (POST /api/work_profiles/photo first); null removes it. */
  photo_id: z.uuid(invalid).nullable(),
  age: z.coerce
    .number(invalid)
    .int(invalid)
    .min(WORKER_AGE_MIN, { message: 'permits.validation.age' })
    .max(WORKER_AGE_MAX, { message: 'permits.validation.age' })
    .nullable(),
  phone: userPhoneSchema,
  /** The worker's identity or badge number. */
  id_number: employeeIdSchema,
  gender: z.enum(WORKER_GENDERS, { error: requiredOrInvalid('permits.validation.gender') }).nullable(),
};

export const workerCreateBody = z.object({
  name: workerFields.name,
  photo_id: workerFields.photo_id.default(null),
  age: workerFields.age.default(null),
  phone: workerFields.phone.optional().transform((v) => v ?? null),
  id_number: workerFields.id_number.optional().transform((v) => v ?? null),
  gender: workerFields.gender.default(null),
});
export type WorkerCreate = z.output<typeof workerCreateBody>;
export type WorkerCreateInput = z.input<typeof workerCreateBody>;

/** PATCH /api/work_profiles/{id}: any field; `active: false` takes the worker off the pickers. */
export const workerUpdateBody = z.object({ ...workerFields, active: z.boolean(invalid) }).partial();
export type WorkerUpdate = z.output<typeof workerUpdateBody>;
export type WorkerUpdateInput = z.input<typeof workerUpdateBody>;

/** GET /api/v1/work_profile/find_recent_workers?value=: matches by name, phone or ID; the recently used first. */
export const recentWorkersQuery = z.object({
  value: z.string(invalid).trim().max(100, tooLong).optional(),
  limit: z.coerce.number(invalid).int(invalid).min(1, invalid).max(50, invalid).default(20),
});

/** GET /api/work_profiles: the /worker-profile screen's list (search, active or not, export). */
export const workerListQuery = listQuery.extend(exportFlag.shape).extend({
  status: z.enum(['active', 'inactive', 'all'], invalid).default('active'),
});
export type WorkerListQuery = z.output<typeof workerListQuery>;

export const workerSchema = z.object({
  id: z.string(),
  name: z.string(),
  photo: z.object({ id: z.string() }).nullable(),
  age: z.number().nullable(),
  phone: z.string().nullable(),
  id_number: z.string().nullable(),
  gender: z.enum(WORKER_GENDERS).nullable(),
  active: z.boolean(),
  /** When a permit last named this worker (null: never). */
  last_used_at: z.string().nullable(),
});
export type Worker = z.infer<typeof workerSchema>;

export const workerResponse = z.object({ worker: workerSchema });
export const workersResponse = z.object({ workers: z.array(workerSchema) });
export const workerListResponse = z.object({ workers: z.array(workerSchema), pagination: paginationSchema });
export const workerPhotoResponse = z.object({ file: z.object({ id: z.string(), file_name: z.string() }) });
