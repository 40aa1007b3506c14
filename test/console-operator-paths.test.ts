/**
 * The operator paths from the console (docs/adr/0085-the-console-operator-paths.md,
 * docs/interface.md#sessions-and-logs): `/api/session/**` and `/api/logs/**` answer, without the API
 * key, the console's own request (its signed CSRF token in cookie and header, Origin this origin)
 * carrying the session cookie of a user who is a super user in the live state. Anything less is
 * 401 SVC-SYS-1004 as before; another user 403 SVC-SYS-1003, a super user demoted too, at once.
 */
import test from 'ava';
import { parseSetCookie } from 'cookie';
import { ConsoleCsrf } from '../gateway/src/console/csrf.ts';
import { adminSession, createAccount, createUser, login } from './helpers/factories.ts';
import { assertErrorBody } from './helpers/error-body.ts';
import { api, platform, type ApiResponse } from './helpers/platform.ts';
import { claimsOf } from './helpers/tokens.ts';

/** A CSRF token as the gateway's console page would set it: signed under the console's own secret (CONSOLE_CSRF_SECRET). */
function csrfToken(secret = platform.env.CONSOLE_CSRF_SECRET ?? ''): string {
  return parseSetCookie(new ConsoleCsrf(secret, false).cookie()).value ?? '';
}

interface ConsoleCall {
  /** The session token sent in the SVC_SESSION cookie (none: no session cookie). */
  session?: string;
  /** The token in the SVC_CONSOLE_CSRF cookie, and the one in X-CSRF-Token (undefined: left out). */
  cookieToken?: string;
  headerToken?: string;
  origin?: string;
  body?: unknown;
  apiKey?: string | boolean;
}

/** A call as the console's page makes it, with each of its parts open to change. */
function consoleCall(method: string, path: string, call: ConsoleCall): Promise<ApiResponse> {
  const cookies = [
    call.session !== undefined && `SVC_SESSION=${call.session}`,
    call.cookieToken !== undefined && `SVC_CONSOLE_CSRF=${call.cookieToken}`,
  ].filter(Boolean);
  const headers: Record<string, string> = {};
  if (cookies.length > 0) headers.cookie = cookies.join('; ');
  if (call.headerToken !== undefined) headers['x-csrf-token'] = call.headerToken;
  if (call.origin !== undefined) headers.origin = call.origin;
  return api(method, path, { headers, body: call.body, apiKey: call.apiKey });
}

/** The console's genuine request with `session`. */
function genuine(session: string): ConsoleCall {
  const token = csrfToken();
  return { session, cookieToken: token, headerToken: token, origin: platform.url };
}

/** A fresh super user (not the shared admin, whose demotion would touch every other test) and its session. */
async function superUser(): Promise<{ id: number; userCode: string; token: string }> {
  const account = await createAccount();
  const { user, password } = await createUser([account.accountNo], { superUser: true, crProcessId: account.crProcessId }, { crProcessId: account.crProcessId });
  return { id: user.id, userCode: user.userCode, token: (await login(user.userCode, password)).token };
}

/** A user who is not a super user, and its session. */
async function clerk(): Promise<{ userCode: string; token: string }> {
  const account = await createAccount();
  const { user, password } = await createUser([account.accountNo], { crProcessId: account.crProcessId }, { crProcessId: account.crProcessId });
  return { userCode: user.userCode, token: (await login(user.userCode, password)).token };
}

test("a super user's genuine console request lists sessions and the exception log, reads stats, and ends a session", async (t) => {
  const operator = await superUser();
  const other = await clerk();
  const sid = String(claimsOf(other.token).sid);

  const active = await consoleCall('GET', '/api/session/active', genuine(operator.token));
  t.is(active.status, 200, active.text);
  t.true(
    active.body.some((s: { sessionId: string }) => s.sessionId === sid),
    "the other user's session is listed",
  );
  const page = await consoleCall('POST', '/api/session/active/list', {
    ...genuine(operator.token),
    body: { page: 0, size: 10, filter: { userCode: other.userCode } },
  });
  t.is(page.status, 200, page.text);
  t.deepEqual(
    page.body.content.map((s: { sessionId: string }) => s.sessionId),
    [sid],
  );
  const stats = await consoleCall('GET', '/api/session/stats', genuine(operator.token));
  t.is(stats.status, 200, stats.text);
  t.true(stats.body.activeCount >= 2, stats.text);
  const exceptions = await consoleCall('POST', '/api/logs/exceptions/list', { ...genuine(operator.token), body: { page: 0, size: 5 } });
  t.is(exceptions.status, 200, exceptions.text);
  t.true(Array.isArray(exceptions.body.content));

  t.is((await api('GET', '/api/auth/me', { token: other.token })).status, 200, 'the control: the session is live');
  const ended = await consoleCall('PUT', `/api/session/${sid}`, { ...genuine(operator.token), body: { active: false } });
  t.is(ended.status, 200, ended.text);
  t.like(ended.body, { sessionId: sid, active: false });
  assertErrorBody(t, await api('GET', '/api/auth/me', { token: other.token }), 401, 'SVC-SYS-1001');
  const byKey = await api('GET', `/api/session/${sid}`, { apiKey: true });
  t.like(byKey.body, { sessionId: sid, active: false }, 'the API key sees it ended');
});

test('without the console proof or the session cookie, the operator paths ask for the API key: 401 SVC-SYS-1004', async (t) => {
  const operator = await superUser();
  const token = csrfToken();
  const forged = csrfToken(platform.jwtSecret);
  const refusals: [string, ConsoleCall][] = [
    ['no X-CSRF-Token', { ...genuine(operator.token), headerToken: undefined }],
    ['no CSRF cookie', { ...genuine(operator.token), cookieToken: undefined }],
    ['a header that is not the cookie', { ...genuine(operator.token), cookieToken: token, headerToken: csrfToken() }],
    ['a token signed with another key', { ...genuine(operator.token), cookieToken: forged, headerToken: forged }],
    ['a foreign Origin', { ...genuine(operator.token), origin: 'https://elsewhere.example' }],
    ['no Origin', { ...genuine(operator.token), origin: undefined }],
    ['no session cookie', { ...genuine(operator.token), session: undefined }],
    ['a wrong API key beside a genuine console request', { ...genuine(operator.token), apiKey: 'not-the-key' }],
  ];
  for (const [what, call] of refusals) {
    for (const [method, path, body] of [
      ['GET', '/api/session/active', undefined],
      ['POST', '/api/logs/exceptions/list', { page: 0, size: 1 }],
    ] as const) {
      const res = await consoleCall(method, path, { ...call, body });
      t.is(res.status, 401, `${what}, ${path}: ${res.text}`);
      t.is(res.body.error_code, 'SVC-SYS-1004', `${what}, ${path}`);
    }
  }
  // the session as a bearer header is no console request either
  const bearer = await api('GET', '/api/session/active', {
    token: operator.token,
    headers: { cookie: `SVC_CONSOLE_CSRF=${token}`, 'x-csrf-token': token, origin: platform.url },
  });
  assertErrorBody(t, bearer, 401, 'SVC-SYS-1004');
  // the console's path list is the operator paths alone: /api/admin/** keeps to the API key
  assertErrorBody(t, await consoleCall('GET', '/api/admin/anything', genuine(operator.token)), 401, 'SVC-SYS-1004');
  // a genuine console request whose session cookie is no valid token: the session has ended, as on every JWT path
  assertErrorBody(t, await consoleCall('GET', '/api/session/active', genuine('not-a-token')), 401, 'SVC-SYS-1001');
  t.is((await consoleCall('GET', '/api/session/active', genuine(operator.token))).status, 200, 'the control: the genuine request passes');
});

test('a user who is not a super user is refused 403 SVC-SYS-1003, and a super user demoted is at the next request', async (t) => {
  const other = await clerk();
  assertErrorBody(t, await consoleCall('GET', '/api/session/active', genuine(other.token)), 403, 'SVC-SYS-1003');
  assertErrorBody(
    t,
    await consoleCall('PUT', `/api/session/${String(claimsOf(other.token).sid)}`, { ...genuine(other.token), body: { active: false } }),
    403,
    'SVC-SYS-1003',
  );
  t.is((await api('GET', '/api/auth/me', { token: other.token })).status, 200, 'its own session is untouched');

  const operator = await superUser();
  t.is((await consoleCall('GET', '/api/session/stats', genuine(operator.token))).status, 200, 'the control: served while a super user');
  const { token: admin } = await adminSession();
  const current = await api('GET', `/api/user-info/${operator.id}`, { token: admin });
  const demoted = await api('PUT', `/api/user-info/${operator.id}`, { token: admin, body: { version: current.body.version, superUser: false } });
  t.is(demoted.status, 200, demoted.text);
  t.is(claimsOf(operator.token).superUser, true, 'the token still claims it');
  for (const [method, path, body] of [
    ['GET', '/api/session/stats', undefined],
    ['GET', '/api/session/active', undefined],
    ['POST', '/api/logs/exceptions/list', { page: 0, size: 1 }],
  ] as const) {
    assertErrorBody(t, await consoleCall(method, path, { ...genuine(operator.token), body }), 403, 'SVC-SYS-1003');
  }
});
