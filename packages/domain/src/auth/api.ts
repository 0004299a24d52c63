import { z } from 'zod';
import { defineApi } from '../api/contract.js';
import { messageResponse, okResponse } from '../api/shared.js';
import { passwordChangeBody } from '../sso/index.js';
import {
  passwordResetBody,
  passwordResetParams,
  passwordResetRequestBody,
  sessionCheckResponse,
  signInBody,
  signInResponse,
  tokenPairResponse,
} from './schemas.js';

const session = { session: true } as const;
const open = { public: true } as const;

/**
 * Authentication and session (spec 000 §7): sign-in, the refresh token's rotation, sign-out, the
 * password reset link and a signed-in user's own password change. The refresh token travels in the
 * X-Refresh-Token header (REFRESH_HEADER), never in a body or a URL.
 */
export const sessionApi = defineApi('session', {
  signInByUrl: {
    method: 'GET',
    path: '/api/v1/authorize',
    access: open,
    summary: 'Refused: credentials never travel in a URL',
    // Always 405 (with Allow: POST); there is no success answer.
    response: z.never(),
    refusals: [405],
  },
  signIn: {
    method: 'POST',
    path: '/api/v1/authorize',
    access: open,
    summary: 'Sign in with e-mail and password',
    body: signInBody,
    response: signInResponse,
    refusals: [404, 429],
  },
  refresh: {
    method: 'POST',
    path: '/api/v1/refresh_token',
    access: open,
    summary: 'Rotate the refresh token (sent in the X-Refresh-Token header)',
    response: tokenPairResponse,
    refusals: [404, 429],
  },
  resetCurrentSession: {
    method: 'POST',
    path: '/api/v1/reset_current_session',
    access: open,
    summary: 'End the session that the refresh token belongs to, if any',
    response: okResponse,
    refusals: [404, 429],
  },
  connectionCheck: {
    method: 'GET',
    path: '/api/v2/api_connection_checks',
    access: open,
    summary: 'The API and its database answer',
    response: okResponse,
    refusals: [503],
  },
  check: {
    method: 'GET',
    path: '/api/auth',
    access: session,
    summary: 'Is this session valid?',
    response: sessionCheckResponse,
    guests: 'personal',
  },
  signOut: {
    method: 'DELETE',
    path: '/api/v1/user_token',
    access: session,
    summary: 'Sign out this session',
    response: okResponse,
    guests: 'personal',
  },
  signOutEverywhere: {
    method: 'DELETE',
    path: '/api/v2/user_logout',
    access: session,
    summary: 'Sign out every session of this user',
    response: okResponse,
    guests: 'personal',
  },
  changePassword: {
    method: 'PATCH',
    path: '/api/users/password',
    access: session,
    summary: 'Change the signed-in user’s own password; their other sessions end',
    body: passwordChangeBody,
    response: messageResponse,
    refusals: [429],
    guests: 'personal',
    allowedWhenStorageFull: true,
  },
  requestPasswordReset: {
    method: 'POST',
    path: '/api/v1/password_resets',
    access: open,
    summary: 'E-mail a password reset link',
    body: passwordResetRequestBody,
    response: messageResponse,
    refusals: [404, 429],
  },
  resetPassword: {
    method: 'POST',
    path: '/api/v1/password_resets/:token',
    access: open,
    summary: 'Set a new password with an e-mailed link',
    params: passwordResetParams,
    body: passwordResetBody,
    response: messageResponse,
    refusals: [404, 410, 429],
  },
});
