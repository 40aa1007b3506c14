import type { HeaderObject } from 'openapi3-ts/oas31';
import { AuthServiceService } from '@platform/kit/gen/platform/core/v1/auth.ts';
import { rpcOperation, type OperationTable } from '../operation.ts';
import { challengeSchema } from './second-factor.ts';

const SET_COOKIE: Record<string, HeaderObject> = {
  'Set-Cookie': { description: 'SVC_SESSION=<JWT>; HttpOnly; SameSite=Lax; Path=/ (Secure in production).', schema: { type: 'string' } },
};

/**
 * POST /api/auth/login (API key) and the other /api/auth/* endpoints (JWT), docs/interface.md#auth.
 * The gateway's handlers set and clear the session cookie around the RPCs.
 */
export const AUTH_OPERATIONS = {
  login: rpcOperation({
    method: 'post',
    path: '/api/auth/login',
    rpc: { service: 'core', method: AuthServiceService.login, retry: 'write' },
    doc: (sources) => ({
      tag: 'auth',
      summary: 'Log in: sets the SVC_SESSION cookie',
      description: `${sources.rpc ?? ''} The sixth wrong password for one user from one address within 15 minutes is 429.`.trim(),
      body: { schema: sources.ref('LoginRequest') },
      ok: {
        status: 200,
        schema: { oneOf: [sources.ref('LoginResponse'), challengeSchema(sources)] },
        description: 'Logged in, the token in the cookie; or, for a user with a second factor, its challenge (no cookie).',
        headers: SET_COOKIE,
      },
    }),
  }),
  // the console's login: the same RPC and answer, with the console's CSRF proof in place of the API key
  consoleLogin: rpcOperation({
    method: 'post',
    path: '/api/auth/console-login',
    rpc: { service: 'core', method: AuthServiceService.login, retry: 'write' },
    doc: (sources) => ({
      tag: 'auth',
      summary: "The console's login: sets the SVC_SESSION cookie",
      description:
        "For the console's own page on this origin, which holds no API key: the login, answered alike, when the request's Origin is this origin and its X-CSRF-Token header equals the SVC_CONSOLE_CSRF cookie the console's page set (a token the gateway signed); otherwise 401 SVC-SYS-1004. See docs/adr/0084-the-console-s-security-page-policy.md.",
      body: { schema: sources.ref('LoginRequest') },
      errors: [401],
      ok: {
        status: 200,
        schema: { oneOf: [sources.ref('LoginResponse'), challengeSchema(sources)] },
        description: 'Logged in, the token in the cookie; or, for a user with a second factor, its challenge (no cookie).',
        headers: SET_COOKIE,
      },
    }),
  }),
  me: rpcOperation({
    method: 'get',
    path: '/api/auth/me',
    rpc: { service: 'core', method: AuthServiceService.me, retry: 'read' },
    doc: (sources) => ({
      tag: 'auth',
      summary: 'The caller and its current account',
      description: sources.rpc,
      ok: {
        status: 200,
        schema: sources.ref('Me'),
        description: 'The caller; roles: the role codes it holds in its current tenant now, sorted (a super user passes every role check whatever they are).',
      },
    }),
  }),
  switchAccount: rpcOperation({
    method: 'post',
    path: '/api/auth/switch-account',
    rpc: { service: 'core', method: AuthServiceService.switchAccount, retry: 'write' },
    doc: (sources) => ({
      tag: 'auth',
      summary: 'Work in another account: a new cookie',
      description: sources.rpc,
      body: { schema: sources.ref('SwitchAccountRequest') },
      ok: {
        status: 200,
        schema: sources.ref('Me'),
        description: 'The caller as GET /api/auth/me shows it in the new account, with the roles it holds there.',
        headers: SET_COOKIE,
      },
    }),
  }),
  changePassword: rpcOperation({
    method: 'post',
    path: '/api/auth/change-password',
    rpc: { service: 'core', method: AuthServiceService.changePassword, retry: 'write' },
    doc: (sources) => ({
      tag: 'auth',
      summary: "Change the caller's password",
      description: sources.rpc,
      body: { schema: sources.ref('ChangePasswordRequest') },
      ok: { status: 204, description: 'Changed; every token of the user is refused from now on.' },
    }),
  }),
  logout: rpcOperation({
    method: 'post',
    path: '/api/auth/logout',
    rpc: { service: 'core', method: AuthServiceService.logout, retry: 'write' },
    doc: (sources) => ({
      tag: 'auth',
      summary: 'Log out: ends the session and clears the cookie',
      description: sources.rpc,
      ok: { status: 204, description: 'Logged out (the cookie is sent with Max-Age=0).', headers: SET_COOKIE },
    }),
  }),
} as const satisfies OperationTable;
