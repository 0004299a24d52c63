import type { ScreenLoader } from '../../app/screens.js';

/** Screens of the registration module (screen ids of the domain route table: registration getStarted organizationVerify thankyou guestUserCreation extendRequests). */
export const registrationScreens: Record<string, ScreenLoader> = {};
