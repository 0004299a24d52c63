import type { ServerModule } from '../module.js';
import { apiTokensRoutes } from './routes.js';

/**
 * API tokens (issue 19): service accounts and their tokens. Requests made with a token are checked by
 * the router (platform/http/access.ts: looked up in the address's organisation, rate-limited per token,
 * no CSRF) and run as the service account, whose writes are recorded under its name.
 */
export const apiTokensModule: ServerModule = {
  name: 'api-tokens',
  routes: apiTokensRoutes,
};
