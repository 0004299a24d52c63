import { z } from 'zod';

/**
 * What a stored file is kept for, and how long an unlinked one may wait. A guest's upload is held
 * apart from the quota (pending) until a submitted report links it; any upload that no record links
 * after UNLINKED_FILE_TTL_HOURS is swept and its bytes freed.
 */
export const UNLINKED_FILE_TTL_HOURS = 24;
/** The largest files the storage screen lists. */
export const STORAGE_LARGEST_FILES = 50;
/** The quota the platform admin may set: 1 MB to 1 TB. */
export const STORAGE_QUOTA_MIN_BYTES = 1024 * 1024;
export const STORAGE_QUOTA_MAX_BYTES = 1024 ** 4;

/** The kinds of record that link stored files (each module that links files names its own kind). */
export const FILE_LINK_KINDS = [
  'observation',
  'action',
  'user_photo',
  'incident',
  'permit',
  'permit_template',
  'worker_photo',
  'audit',
  'audit_report_logo',
] as const;
export type FileLinkKind = (typeof FILE_LINK_KINDS)[number];

/** One record that links a file: its kind, its label (OBS-000012, #34, a person's name) and where it opens. */
export const fileLinkSchema = z.object({
  kind: z.enum(FILE_LINK_KINDS),
  label: z.string(),
  path: z.string().nullable(),
});
export type FileLink = z.infer<typeof fileLinkSchema>;

/** A file as the storage screen lists it. */
export const storageFileSchema = z.object({
  id: z.string(),
  file_name: z.string(),
  mime_type: z.string(),
  size_bytes: z.number(),
  created_at: z.string(),
  /** The member who uploaded it; null for a guest's upload (or a removed member). */
  uploaded_by: z.object({ id: z.string(), full_name: z.string() }).nullable(),
  /** A guest's upload no report links yet: not counted in the quota. */
  pending: z.boolean(),
  links: z.array(fileLinkSchema),
});
export type StorageFile = z.infer<typeof storageFileSchema>;

/** GET /api/storage: the organisation's figures and its largest files with what links them. */
export const storageUsageResponse = z.object({
  used_bytes: z.number(),
  quota_bytes: z.number(),
  mem_exhausted: z.boolean(),
  pending_bytes: z.number(),
  pending_count: z.number(),
  /** Files no record links (guests' and members'), swept UNLINKED_FILE_TTL_HOURS after upload. */
  unlinked_bytes: z.number(),
  unlinked_count: z.number(),
  files: z.array(storageFileSchema),
});
export type StorageUsage = z.infer<typeof storageUsageResponse>;

/** PUT /api/organizations/:id/storage_quota (platform admin). */
export const storageQuotaBody = z.object({
  storage_quota_bytes: z
    .number({ message: 'validation.invalid' })
    .int({ message: 'validation.invalid' })
    .min(STORAGE_QUOTA_MIN_BYTES, { message: 'storage.quotaTooSmall' })
    .max(STORAGE_QUOTA_MAX_BYTES, { message: 'storage.quotaTooLarge' }),
});
export type StorageQuotaBody = z.infer<typeof storageQuotaBody>;
