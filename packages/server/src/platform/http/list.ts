import { z } from 'zod';

/** Query of every paginated list: `?page=1&per_page=25&search=...` (spec: lists paginate on the server). */
export const listQuery = z.object({
  page: z.coerce.number({ message: 'validation.invalid' }).int().min(1).max(100_000).default(1),
  per_page: z.coerce.number({ message: 'validation.invalid' }).int().min(1).max(200).default(25),
  search: z.string().trim().max(200, { message: 'validation.tooLong' }).optional(),
});
export type ListQuery = z.infer<typeof listQuery>;

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

export function pagination(total: number, page: number, perPage: number): Pagination {
  return { page, per_page: perPage, total, total_pages: Math.max(1, Math.ceil(total / perPage)) };
}

/** LIMIT/OFFSET of a page. */
export function pageWindow(q: { page: number; per_page: number }): { limit: number; offset: number } {
  return { limit: q.per_page, offset: (q.page - 1) * q.per_page };
}

/** An ILIKE pattern that matches the text literally (the user's % and _ are not wildcards). */
export function searchPattern(search: string): string {
  return `%${search.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}
