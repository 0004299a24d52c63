import { z } from 'zod';

/**
 * Large list exports (issue 13). A list asked for `export_to_excel=true` answers its workbook in the
 * request up to `LIST_EXPORT_INLINE_MAX` rows; past that it answers 202 with the export it started, a
 * job writes the workbook (progress in rows), the requester is notified with the download, and only the
 * requester may download it, for `LIST_EXPORT_KEEP_DAYS` days.
 */

/** Rows a list export writes in the request; more run as a job. */
export const LIST_EXPORT_INLINE_MAX = 10_000;
/** How long a finished export may be downloaded. */
export const LIST_EXPORT_KEEP_DAYS = 7;

export const LIST_EXPORT_STATUSES = ['queued', 'running', 'ready', 'failed', 'expired'] as const;
export type ListExportStatus = (typeof LIST_EXPORT_STATUSES)[number];

export const listExportSchema = z.object({
  id: z.string(),
  status: z.enum(LIST_EXPORT_STATUSES),
  /** Rows written so far, and rows the filters held when the export started. */
  rows_done: z.number(),
  rows_total: z.number(),
  file_name: z.string(),
  created_at: z.string(),
  finished_at: z.string().nullable(),
  expires_at: z.string().nullable(),
  size_bytes: z.number().nullable(),
});
export type ListExport = z.infer<typeof listExportSchema>;

export const listExportResponse = z.object({ export: listExportSchema });
export type ListExportResponse = z.infer<typeof listExportResponse>;

/** The 202 answer of a list's `export_to_excel=true` past the inline limit: the export it started. */
export const listExportStartedResponse = z.object({
  export: z.object({ id: z.string(), status: z.enum(LIST_EXPORT_STATUSES), rows_total: z.number() }),
});
export type ListExportStarted = z.infer<typeof listExportStartedResponse>;
