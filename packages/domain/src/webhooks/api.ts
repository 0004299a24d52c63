import { defineApi } from '../api/contract.js';
import { idParams, okResponse } from '../api/shared.js';
import {
  webhookCreateBody,
  webhookDeliveriesQuery,
  webhookDeliveriesResponse,
  webhookListResponse,
  webhookResponse,
  webhookSecretResponse,
  webhookTestResponse,
  webhookUpdateBody,
} from './schemas.js';

const admin = { admin: true } as const;

/** Webhook endpoints and their deliveries: the organisation's administrators only. */
export const webhooksApi = defineApi('webhooks', {
  list: {
    method: 'GET',
    path: '/api/webhooks',
    access: admin,
    summary: 'The webhook endpoints with their newest delivery, and the events one may subscribe to',
    response: webhookListResponse,
  },
  create: {
    method: 'POST',
    path: '/api/webhooks',
    access: admin,
    summary: 'Register an HTTPS endpoint for chosen events: the answer is the only time its signing secret is shown',
    body: webhookCreateBody,
    response: webhookSecretResponse,
    status: 201,
    refusals: [409],
  },
  update: {
    method: 'PATCH',
    path: '/api/webhooks/:id',
    access: admin,
    summary: 'Change an endpoint’s address, events, description, or pause it',
    params: idParams,
    body: webhookUpdateBody,
    response: webhookResponse,
  },
  remove: {
    method: 'DELETE',
    path: '/api/webhooks/:id',
    access: admin,
    summary: 'Remove an endpoint with its deliveries',
    params: idParams,
    response: okResponse,
  },
  rotateSecret: {
    method: 'POST',
    path: '/api/webhooks/:id/rotate_secret',
    access: admin,
    summary: 'Replace the endpoint’s signing secret: the answer is the only time the new one is shown',
    params: idParams,
    response: webhookSecretResponse,
  },
  sendTest: {
    method: 'POST',
    path: '/api/webhooks/:id/test',
    access: admin,
    summary: 'Send a signed "ping" to the endpoint now, like any delivery (retried on failure)',
    params: idParams,
    response: webhookTestResponse,
    status: 202,
  },
  deliveries: {
    method: 'GET',
    path: '/api/webhooks/:id/deliveries',
    access: admin,
    summary: 'The endpoint’s deliveries, newest first, with the receiver’s answers',
    params: idParams,
    query: webhookDeliveriesQuery,
    response: webhookDeliveriesResponse,
  },
});
