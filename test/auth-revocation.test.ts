/**
 * Ending what a token stands for, and what follows on the very next request (docs/interface.md#token-and-cookie,
 * docs/interface.md#sessions-and-logs): change-password, logout, the logged-out token on every path,
 * and switch-account.
 */
import test from 'ava';
import { createAccount, createUser, freshTenant, login, sessionOf } from './helpers/factories.ts';
import { upload } from './helpers/files.ts';
import { api } from './helpers/platform.ts';
import { claimsOf } from './helpers/tokens.ts';
import { sessionCookieOf } from '@platform/kit/auth/request-token.ts';

test('change-password answers 204, and the very next request with any older token of the user is 401', async (t) => {
  const account = await createAccount();
  const { user, password } = await createUser([account.accountNo]);
  const first = await login(user.userCode, password);
  const second = await login(user.userCode, password);
  t.is((await api('GET', '/api/auth/me', { token: first.token })).status, 200);

  const wrong = await api('POST', '/api/auth/change-password', {
    token: first.token,
    body: { currentPassword: 'not-it-at-all', newPassword: 'a-new-password' },
  });
  t.is(wrong.status, 400);
  t.is(wrong.body.error_code, 'SVC-SYS-1006');
  const short = await api('POST', '/api/auth/change-password', { token: first.token, body: { currentPassword: password, newPassword: 'short' } });
  t.is(short.status, 400);
  t.is(short.body.error_code, 'SVC-SYS-2001');

  const changed = await api('POST', '/api/auth/change-password', { token: first.token, body: { currentPassword: password, newPassword: 'a-new-password' } });
  t.is(changed.status, 204);
  t.is(changed.text, '');
  for (const token of [first.token, second.token]) {
    const res = await api('GET', '/api/auth/me', { token });
    t.is(res.status, 401);
    t.is(res.body.error_code, 'SVC-SYS-1001');
  }
  // "on every request the tokenVersion claim is compared": the second token's session is still open,
  // yet a service's path, the gateway's own answers and an upload refuse it too
  const elsewhere = [
    api('GET', '/api/branch/999999999', { token: second.token }),
    api('GET', '/api/no-such-thing/1', { token: second.token }),
    api('POST', '/api/branch', { token: second.token, raw: '{"crProcessId":', headers: { 'content-type': 'application/json' } }),
    upload({ token: second.token, crProcessId: account.crProcessId, content: 'x' }),
  ];
  for (const res of await Promise.all(elsewhere)) {
    t.is(res.status, 401, res.text);
    t.is(res.body.error_code, 'SVC-SYS-1001');
  }
  const old = await api('POST', '/api/auth/login', { apiKey: true, body: { userCode: user.userCode, password, languageCode: 'en' } });
  t.is(old.body.error_code, 'SVC-SYS-1002');
  const fresh = await login(user.userCode, 'a-new-password');
  t.is(claimsOf(fresh.token).tokenVersion, 1);
  t.is((await api('GET', '/api/auth/me', { token: fresh.token })).status, 200);
});

test('logout answers 204, clears the cookie with Max-Age=0, and refuses the token from then on', async (t) => {
  const account = await createAccount();
  const { user, password } = await createUser([account.accountNo]);
  const session = await login(user.userCode, password);
  const other = await login(user.userCode, password);
  const res = await api('POST', '/api/auth/logout', { headers: { cookie: session.cookie.split(';')[0] ?? '' } });
  t.is(res.status, 204);
  const cleared = sessionCookieOf(res.headers.getSetCookie())?.line;
  t.regex(cleared ?? '', /^SVC_SESSION=;/);
  t.regex(cleared ?? '', /Max-Age=0/);
  const after = await api('GET', '/api/auth/me', { token: session.token });
  t.is(after.status, 401);
  t.is(after.body.error_code, 'SVC-SYS-1001');
  // only that session ends
  t.is((await api('GET', '/api/auth/me', { token: other.token })).status, 200);
  const history = await api('GET', `/api/session/history/list?userCode=${user.userCode}`, { apiKey: true });
  t.is(history.status, 200);
  t.deepEqual(
    history.body.content.map((s: { sessionId: string }) => s.sessionId),
    [claimsOf(session.token).sid],
  );
  t.false(history.body.content[0].active);
  t.truthy(history.body.content[0].logoutAt);
});

test('a logged-out token is 401 SVC-SYS-1001 on every JWT path, whether a service or the gateway itself would answer', async (t) => {
  const account = await createAccount();
  const { user, password } = await createUser([account.accountNo]);
  const session = await login(user.userCode, password);
  const crProcessId = account.crProcessId;
  // What each would answer a live token: me, a record, an unknown path, a body the gateway cannot
  // read, a field the gateway refuses, an upload. (A service the gateway cannot reach: the 503 test below.)
  const requests = [
    { name: 'me (core-svc)', send: (token: string) => api('GET', '/api/auth/me', { token }), live: 200 },
    { name: 'a record without a role for it (bpm-svc)', send: (token: string) => api('GET', '/api/branch/999999999', { token }), live: 403 },
    { name: 'an unknown path (the gateway)', send: (token: string) => api('GET', '/api/no-such-thing/1', { token }), live: 404 },
    {
      name: 'malformed JSON (the gateway)',
      send: (token: string) => api('POST', '/api/branch', { token, raw: '{"crProcessId":', headers: { 'content-type': 'application/json' } }),
      live: 400,
    },
    { name: 'an unknown field (the gateway)', send: (token: string) => api('POST', '/api/branch', { token, body: { crProcessId, colour: 'x' } }), live: 400 },
    { name: 'an upload without a role for it (dms-svc)', send: (token: string) => upload({ token, crProcessId, content: 'x' }), live: 403 },
  ];
  for (const request of requests) t.is((await request.send(session.token)).status, request.live, `live: ${request.name}`);
  t.is((await api('POST', '/api/auth/logout', { token: session.token })).status, 204);
  for (const request of requests) {
    const res = await request.send(session.token);
    t.is(res.status, 401, `logged out: ${request.name}`);
    t.is(res.body.error_code, 'SVC-SYS-1001', `logged out: ${request.name}`);
  }
});

test('switch-account issues a new cookie for an account among the selects; another account is 403 SVC-SYS-1003', async (t) => {
  const home = await createAccount({ accountNo: `AA-${freshTenant()}` });
  const branch = await createAccount({ accountNo: `BB-${freshTenant()}` });
  const outside = await createAccount();
  const { user, password } = await createUser([home.accountNo, branch.accountNo]);
  const session = await login(user.userCode, password);
  t.is(claimsOf(session.token).accountNo, home.accountNo);

  const res = await api('POST', '/api/auth/switch-account', { token: session.token, body: { accountNo: branch.accountNo } });
  t.is(res.status, 200, res.text);
  t.like(res.body, { success: true, userCode: user.userCode, superUser: false, accountNo: branch.accountNo, crProcessId: branch.crProcessId });
  const { token } = sessionOf(res);
  t.like(claimsOf(token), { accountNo: branch.accountNo, crProcessId: branch.crProcessId, sid: claimsOf(session.token).sid });
  const me = await api('GET', '/api/auth/me', { token });
  t.deepEqual(me.body, res.body);

  const refused = await api('POST', '/api/auth/switch-account', { token, body: { accountNo: outside.accountNo } });
  t.is(refused.status, 403);
  t.is(refused.body.error_code, 'SVC-SYS-1003');
  t.is((await api('POST', '/api/auth/switch-account', { token, body: { accountNo: home.accountNo, extra: 1 } })).status, 400);
});
