import { z } from 'zod';

/**
 * Full export (issue 19): an administrator downloads everything the organisation owns as one zip,
 * built by a background job: every tenant table as JSON Lines (`data/<table>.jsonl`) and as one
 * workbook (`data.xlsx`, a sheet per table), the stored files (`files/<id>/<name>`) and a manifest.
 * Secrets (password and token hashes, signing secrets) are left out, their columns named in the
 * manifest. The archive is kept for a week.
 */

export const DATA_EXPORT_STATUSES = ['queued', 'running', 'ready', 'failed', 'expired'] as const;
export type DataExportStatus = (typeof DATA_EXPORT_STATUSES)[number];
/** How long a finished archive may be downloaded. */
export const DATA_EXPORT_KEEP_DAYS = 7;
/** One export at a time per organisation; a new one may start once it has finished. */
export const DATA_EXPORTS_LISTED = 20;

export const dataExportSchema = z.object({
  id: z.string(),
  status: z.enum(DATA_EXPORT_STATUSES),
  /** 0 to 100. */
  progress: z.number(),
  requested_by_name: z.string().nullable(),
  created_at: z.string(),
  finished_at: z.string().nullable(),
  expires_at: z.string().nullable(),
  size_bytes: z.number().nullable(),
  error: z.string().nullable(),
});
export type DataExport = z.infer<typeof dataExportSchema>;

export const dataExportListResponse = z.object({ exports: z.array(dataExportSchema) });
export type DataExportListResponse = z.infer<typeof dataExportListResponse>;
export const dataExportResponse = z.object({ export: dataExportSchema });
export type DataExportResponse = z.infer<typeof dataExportResponse>;

/** The manifest at the root of the archive. */
export type DataExportManifest = {
  organization: { id: string; name: string; sub_domain: string };
  created_at: string;
  tables: Array<{ name: string; rows: number; redacted_columns: string[] }>;
  files: number;
};
