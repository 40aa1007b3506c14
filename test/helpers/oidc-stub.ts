import { createHash, randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJWK, generateKeyPair, SignJWT } from 'jose';

/** What the stub's next ID token says beyond an honest one: claims replaced (iss, aud, nonce, exp, email, ...). */
export type IdTokenTwist = Record<string, unknown>;

/** A small OpenID provider that signs the ID tokens a test chooses (jose), to see the platform refuse the wrong ones. */
export interface StubProvider {
  issuer: string;
  clientId: string;
  clientSecret: string;
  /** The claims of the person signing in, and what the next ID token twists. */
  next(person: Record<string, unknown>, twist?: IdTokenTwist): void;
  close(): Promise<void>;
}

/**
 * Discovery, keys, an authorization endpoint that sends the browser straight back with a code, and a
 * token endpoint that checks the client, the code and its PKCE verifier, then answers an ID token
 * signed with its key: honest (its issuer, the client as audience, the nonce of the request, an hour
 * to live) with the twist applied over it.
 */
export async function startStubProvider(): Promise<StubProvider> {
  const { privateKey, publicKey } = await generateKeyPair('RS256');
  const jwk = { ...(await exportJWK(publicKey)), kid: 'stub', alg: 'RS256', use: 'sig' };
  const clientId = 'platform-stub';
  const clientSecret = randomBytes(16).toString('hex');
  const codes = new Map<string, { nonce: string; challenge: string; redirectUri: string }>();
  let person: Record<string, unknown> = {};
  let twist: IdTokenTwist = {};
  const server: Server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  server.on('request', (req, res) => {
    const url = new URL(req.url ?? '/', issuer);
    const json = (status: number, body: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(body));
    };
    if (url.pathname === '/.well-known/openid-configuration') {
      return json(200, {
        issuer,
        authorization_endpoint: `${issuer}/authorize`,
        token_endpoint: `${issuer}/token`,
        jwks_uri: `${issuer}/jwks`,
        response_types_supported: ['code'],
        subject_types_supported: ['public'],
        id_token_signing_alg_values_supported: ['RS256'],
        code_challenge_methods_supported: ['S256'],
        token_endpoint_auth_methods_supported: ['client_secret_basic'],
      });
    }
    if (url.pathname === '/jwks') return json(200, { keys: [jwk] });
    if (url.pathname === '/authorize') {
      const code = randomBytes(16).toString('hex');
      const redirectUri = url.searchParams.get('redirect_uri') ?? '';
      codes.set(code, { nonce: url.searchParams.get('nonce') ?? '', challenge: url.searchParams.get('code_challenge') ?? '', redirectUri });
      const back = new URL(redirectUri);
      back.searchParams.set('code', code);
      back.searchParams.set('state', url.searchParams.get('state') ?? '');
      res.writeHead(302, { location: back.href });
      return res.end();
    }
    if (url.pathname === '/token' && req.method === 'POST') {
      let body = '';
      req.on('data', (chunk) => (body += chunk));
      req.on('end', () => {
        void (async () => {
          const form = new URLSearchParams(body);
          const basic = Buffer.from((req.headers.authorization ?? '').replace(/^Basic /, ''), 'base64').toString();
          // RFC 6749 §2.3.1: each part form-urlencoded before the Basic encoding
          const [id = '', secret = ''] = basic.split(':').map((part) => decodeURIComponent(part.replace(/\+/g, ' ')));
          if (id !== clientId || secret !== clientSecret) return json(401, { error: 'invalid_client' });
          const grant = codes.get(form.get('code') ?? '');
          codes.delete(form.get('code') ?? '');
          const verifier = form.get('code_verifier') ?? '';
          if (!grant || createHash('sha256').update(verifier).digest('base64url') !== grant.challenge || form.get('redirect_uri') !== grant.redirectUri) {
            return json(400, { error: 'invalid_grant' });
          }
          const now = Math.floor(Date.now() / 1000);
          const claims = { iss: issuer, aud: clientId, iat: now, exp: now + 3600, nonce: grant.nonce, ...person, ...twist };
          const idToken = await new SignJWT(claims).setProtectedHeader({ alg: 'RS256', kid: 'stub' }).sign(privateKey);
          json(200, { access_token: randomBytes(16).toString('hex'), token_type: 'Bearer', expires_in: 300, id_token: idToken });
        })();
      });
      return;
    }
    json(404, { error: 'not_found' });
  });

  return {
    issuer,
    clientId,
    clientSecret,
    next(p, t = {}) {
      person = p;
      twist = t;
    },
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
