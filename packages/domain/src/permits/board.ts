import { z } from 'zod';
import { invalid } from '../incidents/inputs.js';
import { requiredText } from '../incidents/inputs.js';
import { PERMIT_STATUSES } from './model.js';

/**
 * Beyond the spec (issue 16): the live permit board of a site, the read-only board links a wall screen
 * uses, and the public status page a printed permit's QR code opens.
 */

/** A board or status token: 43 characters of base64url (32 random bytes). */
export const permitTokenParams = z.object({
  token: z
    .string(invalid)
    .min(20, invalid)
    .max(100, invalid)
    .regex(/^[A-Za-z0-9_-]+$/, invalid),
});

export const permitBoardQuery = z.object({ site_id: z.uuid(invalid) });

export const boardPermitSchema = z.object({
  /** The permit's id for signed-in viewers (the board links to it); null on a board link's board. */
  id: z.string().nullable(),
  number: z.string(),
  type: z.string(),
  status: z.enum(PERMIT_STATUSES),
  workers: z.array(z.string()),
  /** Who issued it (the last approval). */
  issuer: z.string().nullable(),
  start_at: z.string(),
  end_at: z.string(),
  /** Seconds from now to the start (0 once started) and to the end (negative once past). */
  starts_in_seconds: z.number(),
  time_left_seconds: z.number(),
  extension_pending: z.boolean(),
});
export type BoardPermit = z.infer<typeof boardPermitSchema>;

/**
 * Every permit of the site live now or starting within PERMIT_BOARD_HORIZON_HOURS (approved,
 * extended, pending closure, overdue), by area: the site itself first, then its areas by name.
 */
export const permitBoardResponse = z.object({
  site: z.object({ id: z.string(), name: z.string(), time_zone: z.string() }),
  generated_at: z.string(),
  /** How often a screen without the live channel should read the board again. */
  refresh_seconds: z.number(),
  areas: z.array(
    z.object({
      area: z.object({ id: z.string(), full_name: z.string() }).nullable(),
      permits: z.array(boardPermitSchema),
    }),
  ),
});
export type PermitBoard = z.infer<typeof permitBoardResponse>;

export const boardLinkCreateBody = z.object({ site_id: z.uuid(invalid), label: requiredText(100) });

export const boardLinkSchema = z.object({
  id: z.string(),
  site: z.object({ id: z.string(), name: z.string() }),
  label: z.string(),
  created_by: z.object({ id: z.string(), full_name: z.string() }).nullable(),
  created_at: z.string(),
  revoked_at: z.string().nullable(),
  last_used_at: z.string().nullable(),
});
export type BoardLink = z.infer<typeof boardLinkSchema>;
export const boardLinksResponse = z.object({ links: z.array(boardLinkSchema) });
/** The token is shown once, when the link is made: only its hash is kept. */
export const boardLinkCreatedResponse = z.object({ link: boardLinkSchema, token: z.string(), url: z.string() });

/**
 * The public status of a permit (its printed QR code opens it): only what the paper permit shows
 * anyway, and whether it is valid now. No names, answers, workers or ids.
 */
export const permitPublicStatusResponse = z.object({
  number: z.string(),
  type: z.string(),
  site_name: z.string(),
  area_name: z.string().nullable(),
  time_zone: z.string(),
  valid_from: z.string().nullable(),
  valid_until: z.string().nullable(),
  status: z.enum(PERMIT_STATUSES),
  /** Issued, not revoked or closed, and now between its start and end. */
  valid_now: z.boolean(),
  checked_at: z.string(),
});
export type PermitPublicStatus = z.infer<typeof permitPublicStatusResponse>;
