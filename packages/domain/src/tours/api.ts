import { defineApi } from '../api/contract.js';
import { toursSeenResponse, tourSeenBody } from './schemas.js';

const session = { session: true } as const;

/** Guided tours (spec 000 §7 "Tour", spec 001 §2): which ones the signed-in user has seen. */
export const toursApi = defineApi('tours', {
  seen: {
    method: 'GET',
    path: '/api/intro_tour_user_tracking',
    access: session,
    summary: 'The guided tours I have seen',
    response: toursSeenResponse,
  },
  markSeen: {
    method: 'POST',
    path: '/api/intro_tour_user_tracking',
    access: session,
    summary: 'Record that I have seen a guided tour (once: sending it again changes nothing)',
    body: tourSeenBody,
    response: toursSeenResponse,
  },
});
