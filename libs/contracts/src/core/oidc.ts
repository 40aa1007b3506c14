import type { HeaderObject } from 'openapi3-ts/oas31';
import { OidcSignInServiceService } from '@platform/kit/gen/platform/core/v1/identity_provider.ts';
import { rpcOperation, type OperationTable } from '../operation.ts';

const LOCATION: Record<string, HeaderObject> = { Location: { description: 'Where the browser goes next.', schema: { type: 'string' } } };
const ID = { type: 'integer', format: 'int64', minimum: 1, maximum: Number.MAX_SAFE_INTEGER } as const;

/** The name of the cookie that binds a sign-in to the browser that started it (random, HttpOnly, ten minutes). */
export const OIDC_BINDING_COOKIE = 'SVC_OIDC';

/**
 * Single sign-on with OpenID Connect (docs/interface.md#single-sign-on): the login page's list of a
 * tenant's providers, and the browser's two redirects of the authorization code flow, all public
 * (the browser has no session yet); and the sign-out that also answers the provider's logout.
 */
export const OIDC_OPERATIONS = {
  signInProviders: rpcOperation({
    method: 'get',
    path: '/api/auth/oidc/providers',
    query: { accountNo: 'text' },
    rpc: { service: 'core', method: OidcSignInServiceService.listSignInProviders, retry: 'read' },
    doc: (sources) => ({
      tag: 'auth',
      summary: "An account's sign-in providers, for the login page",
      description: `${sources.rpc ?? ''} Public: an unknown account answers an empty list.`.trim(),
      query: { accountNo: { type: 'string', maxLength: 64, description: 'The account (tenant) whose providers the login page offers.' } },
      ok: {
        status: 200,
        description: 'The active providers: "Sign in with <displayName>".',
        schema: {
          type: 'object',
          required: ['providers'],
          properties: {
            providers: {
              type: 'array',
              items: { type: 'object', required: ['id', 'displayName'], properties: { id: ID, displayName: { type: 'string' } } },
            },
          },
        },
      },
    }),
  }),
  startSignIn: rpcOperation({
    method: 'get',
    path: '/api/auth/oidc/:id/start',
    query: { returnTo: 'text' },
    rpc: { service: 'core', method: OidcSignInServiceService.startSignIn, retry: 'write' },
    doc: (sources) => ({
      tag: 'auth',
      summary: 'Start a sign-in at an identity provider (browser redirect)',
      description:
        `${sources.rpc ?? ''} Sets the ${OIDC_BINDING_COOKIE} cookie (random, HttpOnly, SameSite=Lax, ten minutes) that the callback must bring back, and redirects to the provider's authorization endpoint (code flow with PKCE S256, state and nonce). An unknown or passive provider is 404.`.trim(),
      pathParams: { id: { ...ID, description: "The identity provider's id." } },
      query: { returnTo: { type: 'string', maxLength: 1000, description: 'A console path (`/console/...`) to land on; default `/console/`.' } },
      errors: [404],
      ok: { status: 302, description: "To the provider's authorization endpoint.", headers: LOCATION },
    }),
  }),
  finishSignIn: rpcOperation({
    method: 'get',
    path: '/api/auth/oidc/callback',
    rpc: { service: 'core', method: OidcSignInServiceService.finishSignIn, retry: 'write' },
    doc: (sources) => ({
      tag: 'auth',
      summary: "The provider's redirect back: opens the session (browser redirect)",
      description:
        `${sources.rpc ?? ''} The provider's query (code, state, iss) is read as a whole. On success sets SVC_SESSION as login does, clears ${OIDC_BINDING_COOKIE} and redirects to the returnTo of the start. A callback without a state is 400 SVC-SYS-2001. A forged, replayed, expired or other browser's state, a wrong nonce, issuer or audience, an expired ID token, or an e-mail outside the provider's allowed domains: 401 SVC-SYS-1002, and no session; a browser's navigation (Accept preferring text/html) is sent instead to /console/login?sso=failed (303).`.trim(),
      errors: [401],
      alsoAnswers: { status: 303, description: "A browser's refused sign-in: to the console's login page, which says so." },
      ok: {
        status: 302,
        description: 'Signed in: to the console.',
        headers: {
          ...LOCATION,
          'Set-Cookie': { description: 'SVC_SESSION=<JWT>; HttpOnly; SameSite=Lax; Path=/ (Secure in production).', schema: { type: 'string' } },
        },
      },
    }),
  }),
  signOut: rpcOperation({
    method: 'post',
    path: '/api/auth/oidc/logout',
    rpc: { service: 'core', method: OidcSignInServiceService.signOut, retry: 'write' },
    doc: (sources) => ({
      tag: 'auth',
      summary: 'Log out, and out of the provider where it offers RP-initiated logout',
      description: `${sources.rpc ?? ''} Ends the session and clears the cookie as POST /api/auth/logout does.`.trim(),
      ok: {
        status: 200,
        description: "redirectUrl: the provider's end-session URL to send the browser to, or null.",
        schema: { type: 'object', required: ['redirectUrl'], properties: { redirectUrl: { type: ['string', 'null'] } } },
      },
    }),
  }),
} as const satisfies OperationTable;
