import { defineApi } from '../api/contract.js';
import { guestAvailabilitySchema, guestSettingsSchema, guestSignupAcceptedResponse, guestSignupBody } from './guests.js';

/** Guest accounts (spec 000 §2 /guest_user_creation): visitors ask on an organisation's address, when its admin allows it. */
export const guestsApi = defineApi('guests', {
  availability: {
    method: 'GET',
    path: '/api/guest_users/availability',
    access: { public: true },
    summary: 'Whether the organisation of this address accepts guest accounts',
    response: guestAvailabilitySchema,
    refusals: [404],
  },
  signUp: {
    method: 'POST',
    path: '/api/guest_users',
    access: { public: true },
    summary: 'Ask for a guest account: a link to choose the password is e-mailed (same answer whether or not the address is known)',
    body: guestSignupBody,
    response: guestSignupAcceptedResponse,
    status: 202,
    refusals: [404, 429],
  },
  settings: {
    method: 'GET',
    path: '/api/organizations/guest_settings',
    access: { admin: true },
    summary: 'Whether guests may create accounts here',
    response: guestSettingsSchema,
  },
  updateSettings: {
    method: 'PUT',
    path: '/api/organizations/guest_settings',
    access: { admin: true },
    summary: 'Allow or stop guest accounts',
    body: guestSettingsSchema,
    response: guestSettingsSchema,
  },
});
