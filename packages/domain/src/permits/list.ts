import { z } from 'zod';
import { paginationSchema } from '../api/shared.js';
import { invalid, tooLong } from '../incidents/inputs.js';
import { isLocalDate } from '../observations/local-time.js';
import { PERMIT_FLAGS, PERMIT_PAGE_SIZE, PERMIT_STATUSES, PERMIT_TABS } from './model.js';

/**
 * GET /api/permit_requests and its tab counts (spec 001 §2: tabs All, Requested, Drafts, Approved,
 * Revoked, Rejected, Closed; keyword search; Excel export; the last six months by default).
 * Drafts are listed only for their requester and the people they were shared with.
 */

const emptyToUndefined = (v: unknown) => (v === '' || v === null ? undefined : v);
const opt = <T extends z.ZodType>(s: T) => z.preprocess(emptyToUndefined, s.optional());

/** The filters shared by the page, the export and the counts: the same filters give the same rows. */
const filters = {
  /** Number ('HW-0007' or 7), description, type, site, area, requester or worker name. */
  search: z.string(invalid).trim().max(200, tooLong).optional(),
  site_id: opt(z.uuid(invalid)),
  template_id: opt(z.uuid(invalid)),
  /** Narrows to issued permits in one of these states (DECISIONS: filters and badges, not tabs). */
  flag: opt(z.enum(PERMIT_FLAGS, invalid)),
  /**
   * The permit's date (its start at the site; a draft without one, its creation day), both ends
   * included. With neither, the last six months (PERMIT_LIST_DEFAULT_MONTHS) up to today.
   */
  from: opt(z.string(invalid).refine(isLocalDate, invalid)),
  to: opt(z.string(invalid).refine(isLocalDate, invalid)),
};

const dateRange = (v: { from?: string | undefined; to?: string | undefined }, ctx: z.RefinementCtx) => {
  if (v.from && v.to && v.from > v.to) ctx.addIssue({ code: 'custom', path: ['to'], message: 'permits.validation.dateRange' });
};

export const permitListQuery = z
  .object({
    page: z.coerce.number(invalid).int(invalid).min(1, invalid).max(100_000, invalid).default(1),
    per_page: z.coerce.number(invalid).int(invalid).min(1, invalid).max(200, invalid).default(PERMIT_PAGE_SIZE),
    tab: z.preprocess(emptyToUndefined, z.enum(PERMIT_TABS, invalid).default('all')),
    ...filters,
    sort: z.enum(['start_at', 'number', 'created_at'], invalid).default('start_at'),
    direction: z.enum(['asc', 'desc'], invalid).default('desc'),
    export_to_excel: z
      .enum(['true', 'false'], invalid)
      .optional()
      .transform((v) => v === 'true'),
  })
  .superRefine(dateRange);
export type PermitListQuery = z.output<typeof permitListQuery>;
export type PermitListQueryInput = z.input<typeof permitListQuery>;

/** GET /api/permit_requests/counts: the list's filters (no tab): how many each tab and each flag holds. */
export const permitCountsQuery = z.object(filters).superRefine(dateRange);
export type PermitCountsQuery = z.output<typeof permitCountsQuery>;

const person = z.object({ id: z.string(), full_name: z.string() });
const ref = z.object({ id: z.string(), name: z.string() });

export const permitListItemSchema = z.object({
  id: z.string(),
  number: z.string(),
  template: ref,
  status: z.enum(PERMIT_STATUSES),
  requester: person,
  site: ref.nullable(),
  area_name: z.string().nullable(),
  start_at: z.string().nullable(),
  end_at: z.string().nullable(),
  description: z.string().nullable(),
  worker_names: z.array(z.string()),
  issuing_officers: z.array(z.string()),
  extension_pending: z.boolean(),
  extension_count: z.number(),
  /** The draft came to the viewer from another member. */
  shared_with_me: z.boolean(),
  created_at: z.string(),
});
export type PermitListItem = z.infer<typeof permitListItemSchema>;

export const permitListResponse = z.object({ permits: z.array(permitListItemSchema), pagination: paginationSchema });

export const permitCountsResponse = z.object({
  counts: z.object({
    all: z.number(),
    requested: z.number(),
    drafts: z.number(),
    approved: z.number(),
    revoked: z.number(),
    rejected: z.number(),
    closed: z.number(),
    extended: z.number(),
    overdue: z.number(),
    pending_closure: z.number(),
  }),
});
export type PermitCounts = z.infer<typeof permitCountsResponse>['counts'];
