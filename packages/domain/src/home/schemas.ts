import { z } from 'zod';
import { ACTION_STATUSES } from '../actions/schemas.js';
import { OBSERVATION_RISK_LEVELS, OBSERVATION_STATUSES } from '../observations/schemas.js';

/** How many records each list of the home shows: a glance, with a link to the full list. */
export const HOME_LIST_SIZE = 5;

/** One of my unfinished actions (I am its responsible person). */
export const homeActionSchema = z.object({
  id: z.string(),
  serial: z.number(),
  description: z.string(),
  status: z.enum(ACTION_STATUSES),
  due_date: z.string(),
  site_name: z.string(),
  /** Where it opens in the web app. */
  path: z.string(),
});
export type HomeAction = z.infer<typeof homeActionSchema>;

/** Something I reported, newest first, with where it stands. */
export const homeReportSchema = z.object({
  id: z.string(),
  kind: z.enum(['observation']),
  serial_label: z.string(),
  description: z.string(),
  status: z.enum(OBSERVATION_STATUSES),
  site_name: z.string(),
  reported_at: z.string(),
  path: z.string(),
});
export type HomeReport = z.infer<typeof homeReportSchema>;

/** A record whose review waits for me (the review engine's asked places). */
export const homeReviewSchema = z.object({
  module: z.string(),
  record_id: z.string(),
  label: z.string(),
  path: z.string(),
  asked_at: z.string(),
});
export type HomeReview = z.infer<typeof homeReviewSchema>;

const riskCounts = z.object(
  Object.fromEntries(OBSERVATION_RISK_LEVELS.map((r) => [r, z.number()])) as Record<(typeof OBSERVATION_RISK_LEVELS)[number], z.ZodNumber>,
);

/** GET /api/home: the first screen of everyone who may read anything (issue 15). */
export const homeResponse = z.object({
  /** The organisation's date today ('YYYY-MM-DD'), which "this month" and "overdue" are counted from. */
  today: z.string(),
  my_actions: z.object({
    open: z.number(),
    in_progress: z.number(),
    overdue: z.number(),
    total: z.number(),
    /** The most pressing first: overdue, then by due date. */
    items: z.array(homeActionSchema),
  }),
  my_reports: z.array(homeReportSchema),
  my_reviews: z.array(homeReviewSchema),
  /** The organisation's observations still open (not closed) that were observed this month, by risk; null without Observation read. */
  open_observations_by_risk: z.object({ month: z.string(), total: z.number(), by_risk: riskCounts }).nullable(),
});
export type HomeResponse = z.infer<typeof homeResponse>;

/** Whom to ask for access: the organisation's active administrators. */
export const homeContactsResponse = z.object({
  administrators: z.array(z.object({ full_name: z.string(), email: z.string() })),
});
export type HomeContacts = z.infer<typeof homeContactsResponse>;
