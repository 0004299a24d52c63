import { z } from 'zod';
import { emailSchema } from '../auth/password.js';

const NAME = /^[\p{L}\p{M}][\p{L}\p{M} '’.-]*$/u;

/** POST /api/guest_users: a visitor asks for a guest account at the organisation of the address. */
export const guestSignupBody = z.object({
  full_name: z
    .string({ message: 'validation.required' })
    .trim()
    .min(1, { message: 'validation.required' })
    .max(100, { message: 'validation.tooLong' })
    .regex(NAME, { message: 'registration.validation.nameLetters' }),
  email: emailSchema,
  company: z.string().trim().max(100, { message: 'validation.tooLong' }).optional(),
});
export type GuestSignupBody = z.infer<typeof guestSignupBody>;

export const guestSettingsSchema = z.object({ enabled: z.boolean({ message: 'validation.invalid' }) });
export type GuestSettings = z.infer<typeof guestSettingsSchema>;

export const guestAvailabilitySchema = z.object({ enabled: z.boolean(), organization: z.string() });
export type GuestAvailability = z.infer<typeof guestAvailabilitySchema>;

/** The answer to a guest-account request: the same whether or not the address was known. */
export const guestSignupAcceptedResponse = z.object({ email: z.string() });
