import { z } from 'zod';

/**
 * The guided tours of spec 001 §2: request a permit, workflow settings, permit template, observation
 * and incident. A tour is shown to a user until they have seen it once.
 */
export const TOUR_KEYS = ['request_permit', 'workflow_settings', 'permit_template', 'observation', 'incident'] as const;
export type TourKey = (typeof TOUR_KEYS)[number];

/** `POST /api/intro_tour_user_tracking`: the tour the user has just seen (or closed). */
export const tourSeenBody = z.object({
  tour_key: z.enum(TOUR_KEYS, { message: 'validation.invalid' }),
});
export type TourSeenBody = z.infer<typeof tourSeenBody>;

export const tourCompletionSchema = z.object({
  tour_key: z.enum(TOUR_KEYS),
  /** When the user first saw it; seeing it again changes nothing. */
  completed_at: z.string(),
});
export type TourCompletion = z.infer<typeof tourCompletionSchema>;

/** The tours the signed-in user has seen, oldest first. */
export const toursSeenResponse = z.object({ tours: z.array(tourCompletionSchema) });
export type ToursSeenResponse = z.infer<typeof toursSeenResponse>;
