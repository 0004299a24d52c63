import { z } from 'zod';

/**
 * The definitions every module's endpoints share: the error body, pagination, the list envelope and
 * the common answers. One definition each, so a client reads every list and every refusal the same way.
 */

/** Field texts of a refusal, keyed by the field's path (`actions.0.due_date`), in the reader's language. */
export const fieldErrorsSchema = z.record(z.string(), z.string());
export type FieldErrors = z.infer<typeof fieldErrorsSchema>;

/** One refused row of an Excel import: the sheet's row number, the column and the problem. */
export const importRowErrorSchema = z.object({ row: z.number(), field: z.string(), message: z.string() });
export type ImportRowError = z.infer<typeof importRowErrorSchema>;

/**
 * Every error response: the spec's `errors` array (first item shown), a stable code, field texts for
 * forms, and for an import refused as a whole, each refused row.
 */
export const errorResponse = z.object({
  errors: z.array(z.string()),
  code: z.string(),
  fields: fieldErrorsSchema.optional(),
  rows: z.array(importRowErrorSchema).optional(),
});
export type ErrorResponse = z.infer<typeof errorResponse>;

export const okResponse = z.object({ ok: z.literal(true) });
export const messageResponse = z.object({ message: z.string() });

/** `:id` of a record: a UUID, or the field error "invalid". */
export const idParams = z.object({ id: z.uuid({ message: 'validation.invalid' }) });

/** Query of every paginated list: `?page=1&per_page=25&search=...` (spec: lists paginate on the server). */
export const listQuery = z.object({
  page: z.coerce.number({ message: 'validation.invalid' }).int().min(1).max(100_000).default(1),
  per_page: z.coerce.number({ message: 'validation.invalid' }).int().min(1).max(200).default(25),
  search: z.string().trim().max(200, { message: 'validation.tooLong' }).optional(),
});
export type ListQuery = z.infer<typeof listQuery>;
export const pageQuery = listQuery.pick({ page: true, per_page: true });

/** `?export_to_excel=true`: the same filtered rows as a workbook instead of a page. */
export const exportFlag = z.object({
  export_to_excel: z
    .enum(['true', 'false'])
    .optional()
    .transform((v) => v === 'true'),
});

export const paginationSchema = z.object({
  page: z.number(),
  per_page: z.number(),
  total: z.number(),
  total_pages: z.number(),
});
export type Pagination = z.infer<typeof paginationSchema>;

/** A keyword search counts at most this many matches (issue 13): past it a count is a lower bound. */
export const SEARCH_COUNT_CAP = 1000;

/** The pagination of a list that can be searched: `total_capped` says when `total` is a lower bound. */
export const searchPaginationSchema = paginationSchema.extend({
  total_capped: z.boolean().meta({
    description:
      'True when a keyword search matched more rows than it counts (SEARCH_COUNT_CAP, 1,000): total is then a lower bound ' +
      '(show "1,000+"), total_pages the pages known to hold rows, and a full page has a next one. False without keywords.',
  }),
});
export type SearchPagination = z.infer<typeof searchPaginationSchema>;

export function searchPagination(total: number, capped: boolean, page: number, perPage: number): SearchPagination {
  // Capped: at least total + 1 rows exist, so the page holding that row exists too.
  const rows = capped ? total + 1 : total;
  return { page, per_page: perPage, total, total_pages: Math.max(1, Math.ceil(rows / perPage)), total_capped: capped };
}

/**
 * A search's total after reading a page (`rows` of `limit` at `offset`), from `found` matches counted up to
 * the cap. Past the cap a short page ends the list (the total is then exact); a full one says at least
 * this page, and more after it.
 */
export function searchTotal(found: number, capped: boolean, offset: number, limit: number, rows: number) {
  if (!capped) return { total: found, totalCapped: false };
  // A page past the end says nothing new: the count's lower bound stands.
  if (rows === 0) return { total: SEARCH_COUNT_CAP, totalCapped: true };
  if (rows < limit) return { total: offset + rows, totalCapped: false };
  return { total: Math.max(SEARCH_COUNT_CAP, offset + rows), totalCapped: true };
}

/** A page of a list: `{ <key>: [items], pagination }`, plus whatever else the list carries. */
export function listEnvelope<const K extends string, Item extends z.ZodType>(key: K, item: Item) {
  return z.object({ [key]: z.array(item), pagination: paginationSchema } as { [P in K]: z.ZodArray<Item> } & {
    pagination: typeof paginationSchema;
  });
}

export function pagination(total: number, page: number, perPage: number): Pagination {
  return { page, per_page: perPage, total, total_pages: Math.max(1, Math.ceil(total / perPage)) };
}

/** LIMIT/OFFSET of a page. */
export function pageWindow(q: { page: number; per_page: number }): { limit: number; offset: number } {
  return { limit: q.per_page, offset: (q.page - 1) * q.per_page };
}

/** The response of an endpoint that answers a file (a PDF, a workbook): bytes, not JSON. */
export const fileResponse = z.string().meta({ format: 'binary', description: 'The file' });
