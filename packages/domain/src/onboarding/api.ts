import { defineApi } from '../api/contract.js';
import { onboardingStatusSchema, onboardingStepParams, onboardingTimezoneBody } from './schemas.js';

const admin = { admin: true } as const;

/** The set-up wizard (spec 000 §2 /onboarding): every answer is the organisation's status in it. */
export const onboardingApi = defineApi('onboarding', {
  status: {
    method: 'GET',
    path: '/api/onboarding',
    access: { session: true },
    summary: 'Where the organisation stands in the set-up wizard',
    response: onboardingStatusSchema,
  },
  setTimezone: {
    method: 'PUT',
    path: '/api/onboarding/timezone',
    access: admin,
    summary: 'Step 1: the organisation’s time zone',
    body: onboardingTimezoneBody,
    response: onboardingStatusSchema,
    refusals: [409],
  },
  confirmStep: {
    method: 'POST',
    path: '/api/onboarding/steps/:step',
    access: admin,
    summary: 'Confirm a step that leaves no record of its own (head of safety, invitations done or skipped)',
    params: onboardingStepParams,
    response: onboardingStatusSchema,
    refusals: [409],
  },
  complete: {
    method: 'POST',
    path: '/api/onboarding/complete',
    access: admin,
    summary: 'Finish onboarding for the organisation',
    response: onboardingStatusSchema,
    refusals: [404],
  },
});
