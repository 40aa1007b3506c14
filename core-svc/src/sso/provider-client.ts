import * as client from 'openid-client';
import { isPlainHttp } from '../resources/identity-provider/issuer-check.ts';

/** What the client needs of a provider row. */
export interface ProviderSettings {
  id: number;
  version: number;
  issuer: string;
  clientId: string;
  clientSecret: string | null;
}

/** How long a provider's discovered metadata is reused before it is read again. */
const DISCOVERY_TTL_MS = 10 * 60_000;
const DISCOVERY_TIMEOUT_SECONDS = 10;

const cache = new Map<number, { key: string; at: number; config: Promise<client.Configuration> }>();

/**
 * The openid-client Configuration of a provider: its discovery document read (and its keys fetched
 * by openid-client as it needs them), reused for ten minutes and read again when the provider's row
 * changed (its version). A client secret authenticates at the token endpoint with HTTP Basic; a
 * provider without one is a public client, PKCE alone. Plain http only where the issuer check
 * allowed it (loopback outside production).
 *
 * @example
 * const config = await providerConfig({ id: 1, version: 0, issuer: 'https://login.example.com', clientId: 'platform', clientSecret: 's3cret' });
 * client.buildAuthorizationUrl(config, { redirect_uri, scope: 'openid email profile', ... });
 */
export function providerConfig(provider: ProviderSettings): Promise<client.Configuration> {
  const key = `${provider.version}|${provider.issuer}|${provider.clientId}|${provider.clientSecret ?? ''}`;
  const known = cache.get(provider.id);
  if (known && known.key === key && Date.now() - known.at < DISCOVERY_TTL_MS) return known.config;
  const secret = provider.clientSecret || undefined;
  const config = client.discovery(new URL(provider.issuer), provider.clientId, secret, secret ? client.ClientSecretBasic(secret) : client.None(), {
    execute: isPlainHttp(provider.issuer) ? [client.allowInsecureRequests] : [],
    timeout: DISCOVERY_TIMEOUT_SECONDS,
  });
  cache.set(provider.id, { key, at: Date.now(), config });
  // a failed discovery is not remembered: the next sign-in tries again
  config.catch(() => {
    if (cache.get(provider.id)?.config === config) cache.delete(provider.id);
  });
  return config;
}
