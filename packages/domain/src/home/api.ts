import { defineApi } from '../api/contract.js';
import { homeContactsResponse, homeResponse } from './schemas.js';

const session = { session: true } as const;

/**
 * The home (`/`): what a person has to do and what they started, read through the other modules' read
 * functions in one call. Each part shows only what the requester may read. Guests have no home: they
 * report and follow their own reports (DECISIONS).
 */
export const homeApi = defineApi('home', {
  get: {
    method: 'GET',
    path: '/api/home',
    access: session,
    summary: 'My open and overdue actions, what I reported, what waits for my review, open observations by risk this month',
    response: homeResponse,
  },
  contacts: {
    method: 'GET',
    path: '/api/home/contacts',
    access: session,
    summary: 'Whom to ask for access: the organisation’s active administrators',
    response: homeContactsResponse,
  },
});
