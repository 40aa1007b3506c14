import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import Provider from 'oidc-provider';

/** The claims the test's OpenID provider says of an account (its sub is the account id). */
export type AccountClaims = { email: string; email_verified?: boolean; name?: string } & Record<string, unknown>;

/** A real OpenID provider (oidc-provider) on loopback, with one confidential client of the platform and accounts whose claims the test sets. */
export interface TestProvider {
  issuer: string;
  clientId: string;
  clientSecret: string;
  /** Sets (or replaces) an account's claims: the next sign-in as it carries them. */
  account(id: string, claims: AccountClaims): void;
  close(): Promise<void>;
}

/**
 * Starts oidc-provider on 127.0.0.1 with a client whose redirect URI is the platform's callback:
 * the authorization code flow with PKCE (S256), its development interactions (a login form taking
 * the account id, then a consent form) and RP-initiated logout. The ID token carries the account's
 * claims (email, email_verified, name, groups, department).
 *
 * @example
 * const idp = await startTestProvider(platform.url);
 * idp.account('ayse', { email: 'ayse@acme.test', email_verified: true, groups: ['sales'] });
 */
export async function startTestProvider(platformUrl: string): Promise<TestProvider> {
  const accounts = new Map<string, AccountClaims>();
  const clientId = `platform-${Math.random().toString(36).slice(2, 8)}`;
  const clientSecret = `secret-${Math.random().toString(36).slice(2)}${Math.random().toString(36).slice(2)}`;
  const server: Server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: clientId,
        client_secret: clientSecret,
        redirect_uris: [`${platformUrl}/api/auth/oidc/callback`],
        post_logout_redirect_uris: [`${platformUrl}/console/`],
        grant_types: ['authorization_code'],
        response_types: ['code'],
        token_endpoint_auth_method: 'client_secret_basic',
      },
    ],
    pkce: { required: () => true },
    claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name', 'groups', 'department'] },
    // the ID token carries the claims themselves, not only the userinfo endpoint
    conformIdTokenClaims: false,
    features: { devInteractions: { enabled: true }, rpInitiatedLogout: { enabled: true } },
    cookies: { keys: ['test-cookie-key-one-two-three-four'] },
    async findAccount(_ctx, id) {
      const claims = accounts.get(id);
      if (!claims) return undefined;
      return { accountId: id, claims: async () => ({ sub: id, ...accounts.get(id) }) };
    },
  });
  // oidc-provider logs a warning for devInteractions: expected in a test
  provider.on('server_error', (_ctx, error) => console.error('[test provider]', error));
  server.on('request', provider.callback());
  return {
    issuer,
    clientId,
    clientSecret,
    account: (id, claims) => void accounts.set(id, claims),
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
