import { isLoopbackIssuer } from '@bulwark/domain';
import * as client from 'openid-client';
import { sha256 } from '../../platform/auth/tokens.js';

export type ProviderSettings = { issuerUrl: string; clientId: string; clientSecret: string };

const CACHE_MS = 10 * 60 * 1000;
const TIMEOUT_SECONDS = 10;
const cache = new Map<string, { config: client.Configuration; until: number }>();

/**
 * The openid-client configuration of a provider: its discovery document, read once per ten minutes per
 * (issuer, client, secret). Plain http is allowed only for an issuer on this machine's loopback.
 * The client authenticates with client_secret_basic unless the provider only offers client_secret_post.
 */
export async function providerConfig(s: ProviderSettings, fresh = false): Promise<client.Configuration> {
  const key = sha256(`${s.issuerUrl}\n${s.clientId}\n${s.clientSecret}`);
  const hit = cache.get(key);
  if (!fresh && hit && hit.until > Date.now()) return hit.config;

  const execute = isLoopbackIssuer(s.issuerUrl) ? [client.allowInsecureRequests] : [];
  const discovered = await client.discovery(new URL(s.issuerUrl), s.clientId, s.clientSecret, undefined, {
    execute,
    timeout: TIMEOUT_SECONDS,
  });
  const metadata = discovered.serverMetadata();
  // OpenID Connect Discovery: an absent list means client_secret_basic.
  const methods = metadata.token_endpoint_auth_methods_supported ?? ['client_secret_basic'];
  const auth =
    methods.includes('client_secret_basic') || !methods.includes('client_secret_post')
      ? client.ClientSecretBasic(s.clientSecret)
      : client.ClientSecretPost(s.clientSecret);
  const config = new client.Configuration(metadata, s.clientId, s.clientSecret, auth);
  for (const step of execute) step(config);
  config.timeout = TIMEOUT_SECONDS;
  cache.set(key, { config, until: Date.now() + CACHE_MS });
  return config;
}
