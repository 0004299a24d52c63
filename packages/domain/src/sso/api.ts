import { defineApi } from '../api/contract.js';
import { okResponse } from '../api/shared.js';
import {
  ssoConfigBody,
  ssoConfigResponse,
  ssoExchangeBody,
  ssoExchangeResponse,
  ssoRedirectResponse,
  ssoStatusResponse,
} from './schemas.js';

const admin = { admin: true } as const;

/**
 * Single sign-on with the organisation's OpenID provider (spec 000 §3): the signed-out flow (start,
 * the provider's callback, the exchange of the one-time code) and the admin's settings.
 */
export const ssoApi = defineApi('sso', {
  status: {
    method: 'GET',
    path: '/api/sso/status',
    access: { public: true },
    summary: 'Whether this organisation offers single sign-on',
    response: ssoStatusResponse,
    refusals: [404],
  },
  authorize: {
    method: 'GET',
    path: '/api/sso/authorize',
    access: { public: true },
    summary: 'Start a single sign-on: redirects to the organisation’s OpenID provider',
    description:
      'A 302 redirect, with the cookie that binds the sign-in to this browser; any failure redirects to /login?sso_error=<code>.',
    response: ssoRedirectResponse,
  },
  callback: {
    method: 'GET',
    path: '/api/sso/callback',
    access: { public: true },
    summary: 'The provider’s answer: redirects to /sso with a one-time code, or to /login with the reason',
    description: 'A 302 redirect; the query is the provider’s (code, state, or error).',
    response: ssoRedirectResponse,
  },
  exchange: {
    method: 'POST',
    path: '/api/sso/exchange',
    access: { public: true },
    summary: 'Trade the one-time code (60 s, single use, same browser) for the session',
    body: ssoExchangeBody,
    response: ssoExchangeResponse,
    refusals: [404, 429],
  },
  settings: {
    method: 'GET',
    path: '/api/sso_configs',
    access: admin,
    summary: 'The organisation’s single sign-on settings (the secret only as "set")',
    response: ssoConfigResponse,
  },
  saveSettings: {
    method: 'PUT',
    path: '/api/sso_configs',
    access: admin,
    summary: 'Save the settings after checking the provider’s discovery document',
    body: ssoConfigBody,
    response: ssoConfigResponse,
  },
  removeSettings: {
    method: 'DELETE',
    path: '/api/sso_configs',
    access: admin,
    summary: 'Remove single sign-on from the organisation',
    response: okResponse,
    refusals: [404],
  },
});
