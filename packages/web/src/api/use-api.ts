import type { Endpoint } from '@bulwark/domain';
import { useServices } from '../app/services.js';
import { bindApi, type ApiClient } from './client.js';

/**
 * A module's typed client for the hooks of its `<feature>-api.ts`. Components never call it: they use
 * those hooks, so every call of a feature is in one file (a lint rule holds `.tsx` files to it).
 */
export function useApi<A extends Record<string, Endpoint>>(api: A): ApiClient<A> {
  return bindApi(useServices(), api);
}
