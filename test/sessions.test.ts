/**
 * The rest of /api/auth and the API-key endpoints of sessions and exception logs
 * (platform-interface.md §4.3, §4.4, §5 login flow; decisions.md §2, §7, §9).
 */
import { createServer, type Server } from 'node:http';
import test from 'ava';
import pg from 'pg';
import { freePort, startPlatform } from '../scripts/lib/processes.ts';
import { adminSession, createAccount, createUser, freshTenant, login } from './helpers/factories.ts';
import { upload } from './helpers/files.ts';
import { api, platform } from './helpers/platform.ts';
import { suiteLog } from './helpers/suite-log.ts';

function claimsOf(token: string): Record<string, unknown> {
  return JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString('utf8')) as Record<string, unknown>;
}

test('change-password answers 204, and the very next request with any older token of the user is 401', async (t) => {
  const account = await createAccount();
  const { user, password } = await createUser([account.accountNo]);
  const first = await login(user.userCode, password);
  const second = await login(user.userCode, password);
  t.is((await api('GET', '/api/auth/me', { token: first.token })).status, 200);

  const wrong = await api('POST', '/api/auth/change-password', { token: first.token, body: { currentPassword: 'not-it-at-all', newPassword: 'a-new-password' } });
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
  const cleared = res.headers.getSetCookie().find((c) => c.startsWith('SVC_SESSION='));
  t.regex(cleared ?? '', /^SVC_SESSION=;/);
  t.regex(cleared ?? '', /Max-Age=0/);
  const after = await api('GET', '/api/auth/me', { token: session.token });
  t.is(after.status, 401);
  t.is(after.body.error_code, 'SVC-SYS-1001');
  // only that session ends
  t.is((await api('GET', '/api/auth/me', { token: other.token })).status, 200);
  const history = await api('GET', `/api/session/history/list?userCode=${user.userCode}`, { apiKey: true });
  t.is(history.status, 200);
  t.deepEqual(history.body.content.map((s: { sessionId: string }) => s.sessionId), [claimsOf(session.token).sid]);
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
  const cookie = res.headers.getSetCookie().find((c) => c.startsWith('SVC_SESSION=')) ?? '';
  const token = /^SVC_SESSION=([^;]*)/.exec(cookie)?.[1] ?? '';
  t.like(claimsOf(token), { accountNo: branch.accountNo, crProcessId: branch.crProcessId, sid: claimsOf(session.token).sid });
  const me = await api('GET', '/api/auth/me', { token });
  t.deepEqual(me.body, res.body);

  const refused = await api('POST', '/api/auth/switch-account', { token, body: { accountNo: outside.accountNo } });
  t.is(refused.status, 403);
  t.is(refused.body.error_code, 'SVC-SYS-1003');
  t.is((await api('POST', '/api/auth/switch-account', { token, body: { accountNo: home.accountNo, extra: 1 } })).status, 400);
});

test('session endpoints need the API key (401 SVC-SYS-1004) and show the session of a login', async (t) => {
  for (const [method, path] of [['GET', '/api/session/active'], ['GET', '/api/session/stats'], ['POST', '/api/logs/exceptions/list']] as const) {
    const res = await api(method, path, { body: method === 'POST' ? {} : undefined });
    t.is(res.status, 401, path);
    t.is(res.body.error_code, 'SVC-SYS-1004');
  }
  const account = await createAccount();
  const { user, password } = await createUser([account.accountNo]);
  const session = await login(user.userCode, password);
  const sid = String(claimsOf(session.token).sid);
  const one = await api('GET', `/api/session/${sid}`, { apiKey: true });
  t.is(one.status, 200);
  t.like(one.body, { sessionId: sid, userCode: user.userCode, accountNo: account.accountNo, crProcessId: account.crProcessId, active: true, logoutAt: null });
  for (const field of ['loginAt', 'lastSeenAt', 'expiresAt']) t.regex(one.body[field], /Z$/);
  const active = await api('GET', '/api/session/active', { apiKey: true });
  t.true(active.body.some((s: { sessionId: string }) => s.sessionId === sid));
  const listed = await api('POST', '/api/session/active/list', { apiKey: true, body: { page: 0, size: 10, filter: { userCode: user.userCode } } });
  t.like(listed.body, { totalElements: 1, page: 0, size: 10 });
  t.is(listed.body.content[0].sessionId, sid);
  // decisions.md §7: "a PageRequest whose filter may hold userCode, accountNo, crProcessId (none required here)"
  for (const filter of [{ accountNo: account.accountNo }, { crProcessId: account.crProcessId }, { accountNo: account.accountNo, crProcessId: account.crProcessId }]) {
    const byTenant = await api('POST', '/api/session/active/list', { apiKey: true, body: { page: 0, size: 10, filter } });
    t.deepEqual(byTenant.body.content.map((s: { sessionId: string }) => s.sessionId), [sid], JSON.stringify(filter));
  }
  const stats = await api('GET', '/api/session/stats', { apiKey: true });
  t.true(stats.body.activeCount >= 1);
  t.is(stats.body.totalCount, stats.body.activeCount + stats.body.passiveCount);
  t.is(one.body.projectCode, null, 'no X-Project-Code on that login');

  // decisions.md §2: "`X-Project-Code`, when sent, is recorded on the session".
  const withProject = await api('POST', '/api/auth/login', {
    apiKey: true,
    headers: { 'x-project-code': 'PRJ-42' },
    body: { userCode: user.userCode, password, languageCode: 'en' },
  });
  t.is(withProject.status, 200, withProject.text);
  const projectToken = /^SVC_SESSION=([^;]*)/.exec(withProject.headers.getSetCookie().find((c) => c.startsWith('SVC_SESSION=')) ?? '')?.[1] ?? '';
  const projectSession = await api('GET', `/api/session/${String(claimsOf(projectToken).sid)}`, { apiKey: true });
  t.like(projectSession.body, { userCode: user.userCode, projectCode: 'PRJ-42', active: true });
  t.is((await api('GET', '/api/session/not-a-uuid', { apiKey: true })).status, 400);
  t.is((await api('GET', '/api/session/00000000-0000-4000-8000-000000000000', { apiKey: true })).status, 404);
});

test('session stats count real sessions: logins raise activeCount; logout, PUT active false and a past expiresAt each raise passiveCount', async (t) => {
  // The statistics count every session of the platform, and other tests log in and out meanwhile,
  // so each move is checked with a bound their sessions cannot break. Ended sessions stay ended (no
  // test reopens one): totalCount and passiveCount only grow, and the sessions others end while
  // this test reads are at most what the history list grew by around those reads.
  const K = 3;
  const { user, password } = await createUser([(await createAccount()).accountNo]);
  const stats = async () => {
    const res = await api('GET', '/api/session/stats', { apiKey: true });
    t.is(res.status, 200, res.text);
    t.is(res.body.totalCount, res.body.activeCount + res.body.passiveCount);
    return res.body as { totalCount: number; activeCount: number; passiveCount: number };
  };
  const endedCount = async () => (await api('GET', '/api/session/history/list?page=0&size=1', { apiKey: true })).body.totalElements as number;
  const mine = async () => {
    const open = await api('POST', '/api/session/active/list', { apiKey: true, body: { page: 0, size: 50, filter: { userCode: user.userCode } } });
    const ended = await api('GET', `/api/session/history/list?page=0&size=50&userCode=${user.userCode}`, { apiKey: true });
    const ids = (res: typeof open) => res.body.content.map((s: { sessionId: string }) => s.sessionId).sort();
    return { open: ids(open), ended: ids(ended) };
  };

  const endedBefore = await endedCount();
  const s0 = await stats();
  const sessions = await Promise.all(Array.from({ length: 3 * K }, () => login(user.userCode, password)));
  const s1 = await stats();
  const endedByOthers = (await endedCount()) - endedBefore;
  const sids = sessions.map((session) => String(claimsOf(session.token).sid));
  t.true(s1.totalCount - s0.totalCount >= 3 * K, `totalCount ${s0.totalCount} → ${s1.totalCount} after ${3 * K} logins`);
  t.true(
    s1.activeCount - s0.activeCount >= 3 * K - endedByOthers,
    `activeCount ${s0.activeCount} → ${s1.activeCount} after ${3 * K} logins, while at most ${endedByOthers} other sessions ended`,
  );
  t.deepEqual(await mine(), { open: [...sids].sort(), ended: [] }, 'the user\'s sessions are all open');

  const ways: [string, (session: (typeof sessions)[number], sid: string) => Promise<number>][] = [
    ['logout', async (session) => (await api('POST', '/api/auth/logout', { headers: { cookie: session.cookie.split(';')[0] ?? '' } })).status],
    ['PUT active false', async (_session, sid) => (await api('PUT', `/api/session/${sid}`, { apiKey: true, body: { active: false } })).status],
    [
      'PUT a past expiresAt',
      async (_session, sid) => (await api('PUT', `/api/session/${sid}`, { apiKey: true, body: { expiresAt: new Date(Date.now() - 1000).toISOString() } })).status,
    ],
  ];
  for (const [index, [way, end]] of ways.entries()) {
    const group = sessions.slice(index * K, (index + 1) * K);
    const before = await stats();
    const statuses = await Promise.all(group.map((session) => end(session, String(claimsOf(session.token).sid))));
    t.deepEqual(statuses, group.map(() => (way === 'logout' ? 204 : 200)), way);
    const after = await stats();
    t.true(after.passiveCount - before.passiveCount >= K, `${way}: passiveCount ${before.passiveCount} → ${after.passiveCount} after ending ${K}`);
    t.true(after.totalCount >= before.totalCount, `${way}: totalCount never falls`);
  }
  t.deepEqual(await mine(), { open: [], ended: [...sids].sort() }, 'the user\'s sessions are all ended');
});

test('session stats are counted in one snapshot: while sessions only open, passiveCount never falls', async (t) => {
  // Counted one after the other, a login between the total and the open count made passiveCount
  // (total minus open) fall. Others' tests only ever end sessions, which cannot make it fall.
  const { user, password } = await createUser([(await createAccount()).accountNo]);
  let opening = true;
  const logins = (async () => {
    while (opening) await Promise.all(Array.from({ length: 4 }, () => login(user.userCode, password)));
  })();
  const falls: string[] = [];
  try {
    let last = -1;
    for (let i = 0; i < 200; i++) {
      const { passiveCount } = (await api('GET', '/api/session/stats', { apiKey: true })).body as { passiveCount: number };
      if (passiveCount < last) falls.push(`${last} → ${passiveCount}`);
      last = passiveCount;
    }
  } finally {
    opening = false;
    await logins;
  }
  t.deepEqual(falls, []);
});

test('lastSeenAt follows the requests of a session, to within the gateway\'s flush interval', async (t) => {
  // decisions.md §7 lists lastSeenAt among a session's fields: when it was last used, not its login.
  const { user, password } = await createUser([(await createAccount()).accountNo]);
  const session = await login(user.userCode, password);
  const sid = String(claimsOf(session.token).sid);
  const atLogin = (await api('GET', `/api/session/${sid}`, { apiKey: true })).body;
  t.is(atLogin.lastSeenAt, atLogin.loginAt);
  await new Promise((resolve) => setTimeout(resolve, 300));
  const before = Date.now();
  t.is((await api('GET', '/api/auth/me', { token: session.token })).status, 200);
  let seen = atLogin.lastSeenAt as string;
  for (let i = 0; i < 50 && seen === atLogin.lastSeenAt; i++) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    seen = (await api('GET', `/api/session/${sid}`, { apiKey: true })).body.lastSeenAt;
  }
  t.true(Date.parse(seen) >= before - 50, `lastSeenAt ${seen} is the time of the request`);
  t.true(Date.parse(seen) <= Date.now());
  t.is((await api('GET', `/api/session/${sid}`, { apiKey: true })).body.loginAt, atLogin.loginAt, 'loginAt stays');

  // An ended session's lastSeenAt no longer moves.
  t.is((await api('PUT', `/api/session/${sid}`, { apiKey: true, body: { active: false } })).status, 200);
  const ended = (await api('GET', `/api/session/${sid}`, { apiKey: true })).body;
  await api('GET', '/api/auth/me', { token: session.token });
  await new Promise((resolve) => setTimeout(resolve, 600));
  t.is((await api('GET', `/api/session/${sid}`, { apiKey: true })).body.lastSeenAt, ended.lastSeenAt);
});

test('ending a session with PUT /api/session/{id} active false refuses the tokens bound to it', async (t) => {
  const account = await createAccount();
  const { user, password } = await createUser([account.accountNo]);
  const session = await login(user.userCode, password);
  const sid = String(claimsOf(session.token).sid);
  const extended = await api('PUT', `/api/session/${sid}`, { apiKey: true, body: { expiresAt: new Date(Date.now() + 3_600_000).toISOString() } });
  t.is(extended.status, 200);
  t.true(extended.body.active);
  const ended = await api('PUT', `/api/session/${sid}`, { apiKey: true, body: { active: false } });
  t.is(ended.status, 200);
  t.false(ended.body.active);
  t.truthy(ended.body.logoutAt);
  t.is((await api('GET', '/api/auth/me', { token: session.token })).status, 401);
  t.is((await api('PUT', `/api/session/${sid}`, { apiKey: true, body: { colour: 'red' } })).status, 400);
});

test('"A session past its expiresAt counts as ended": its tokens are refused, it leaves the active list and shows in history', async (t) => {
  const account = await createAccount();
  const { user, password } = await createUser([account.accountNo]);
  const session = await login(user.userCode, password);
  const sid = String(claimsOf(session.token).sid);
  const past = new Date(Date.now() - 1000).toISOString();
  const moved = await api('PUT', `/api/session/${sid}`, { apiKey: true, body: { expiresAt: past } });
  t.is(moved.status, 200);
  t.like(moved.body, { sessionId: sid, active: false, logoutAt: null }, 'ended by time, not by logout');
  const me = await api('GET', '/api/auth/me', { token: session.token });
  t.is(me.status, 401);
  t.is(me.body.error_code, 'SVC-SYS-1001');
  const active = await api('POST', '/api/session/active/list', { apiKey: true, body: { page: 0, size: 10, filter: { userCode: user.userCode } } });
  t.is(active.body.totalElements, 0);
  const history = await api('GET', `/api/session/history/list?page=0&size=10&userCode=${user.userCode}`, { apiKey: true });
  t.deepEqual(history.body.content.map((s: { sessionId: string }) => s.sessionId), [sid]);
});

test('a trusted tool creates a session with POST /api/session', async (t) => {
  const account = await createAccount();
  const { user } = await createUser([account.accountNo]);
  const created = await api('POST', '/api/session', {
    apiKey: true,
    body: { userCode: user.userCode, accountNo: account.accountNo, ipAddress: '10.1.2.3', userAgent: 'batch-tool/1.0' },
  });
  t.is(created.status, 200, created.text);
  t.like(created.body, { userCode: user.userCode, accountNo: account.accountNo, crProcessId: account.crProcessId, ipAddress: '10.1.2.3', userAgent: 'batch-tool/1.0', active: true });
  const outside = await api('POST', '/api/session', { apiKey: true, body: { userCode: user.userCode, accountNo: 'DEFAULT' } });
  t.is(outside.status, 400);
  t.is((await api('POST', '/api/session', { apiKey: true, body: { userCode: 'nobody-at-all', accountNo: 'DEFAULT' } })).status, 400);
});

test('a 5xx in a service writes an exception entry under the refId its error body carries', async (t) => {
  const db = new pg.Client({ connectionString: platform.databaseUrl });
  await db.connect();
  const marker = `boom-${Date.now()}`;
  // a real database failure, scoped to one partner name so that no other test meets it
  await db.query(`create or replace function bpm.fail_${marker.replace('-', '_')}() returns trigger language plpgsql as $$
    begin if new.partner_name = '${marker}' then raise exception 'injected failure'; end if; return new; end $$`);
  await db.query(`create trigger fail_${marker.replace('-', '_')} before insert on bpm.business_partner for each row execute function bpm.fail_${marker.replace('-', '_')}()`);
  try {
    const { token } = await adminSession();
    const res = await api('POST', '/api/business-partner', {
      token,
      headers: { 'x-project-code': 'PRJ-7' },
      body: { crProcessId: freshTenant(), partnerCode: marker, partnerName: marker, partnerType: 'CUSTOMER' },
    });
    t.is(res.status, 500);
    t.is(res.body.error_code, 'SVC-SYS-5001');
    t.regex(res.body.refId, /^[0-9a-f-]{36}$/);
    t.false(res.text.includes('injected failure'), 'the cause never reaches the client');
    let entry = await api('GET', `/api/logs/exceptions/${res.body.refId}`, { apiKey: true });
    for (let i = 0; i < 20 && entry.status === 404; i++) {
      await new Promise((r) => setTimeout(r, 100));
      entry = await api('GET', `/api/logs/exceptions/${res.body.refId}`, { apiKey: true });
    }
    t.is(entry.status, 200);
    t.like(entry.body, { refId: res.body.refId, service: 'bpm', errorCode: 'SVC-SYS-5001', path: '/api/business-partner', method: 'POST', userCode: 'admin', projectCode: 'PRJ-7' });
    t.regex(entry.body.message, /injected failure/);
    t.truthy(entry.body.stack);
    const listed = await api('POST', '/api/logs/exceptions/list', { apiKey: true, body: { filter: { service: 'bpm', errorCode: 'SVC-SYS-5001' } } });
    t.is(listed.status, 200);
    t.true(listed.body.content.some((e: { refId: string }) => e.refId === res.body.refId));
  } finally {
    await db.query(`drop trigger if exists fail_${marker.replace('-', '_')} on bpm.business_partner`);
    await db.query(`drop function if exists bpm.fail_${marker.replace('-', '_')}()`);
    await db.end();
  }
});

test('an unreachable service is 503 SVC-SYS-5002 with a refId that the gateway logged', async (t) => {
  const gateway = await startPlatform({
    env: { ...platform.env, GATEWAY_PORT: '0', BPM_GRPC_ADDR: `127.0.0.1:${await freePort()}`, GRPC_DEADLINE_MS: '2000' },
    entries: { 'core-svc': stub(), 'bpm-svc': stub(), 'dms-svc': stub() },
    log: suiteLog(),
  });
  try {
    const { token } = await adminSession();
    const res = await api('GET', '/api/branch/1', { token, baseUrl: gateway.url });
    t.is(res.status, 503);
    t.is(res.body.error_code, 'SVC-SYS-5002');
    t.regex(res.body.refId, /^[0-9a-f-]{36}$/);
    let entry = await api('GET', `/api/logs/exceptions/${res.body.refId}`, { apiKey: true });
    for (let i = 0; i < 20 && entry.status === 404; i++) {
      await new Promise((r) => setTimeout(r, 100));
      entry = await api('GET', `/api/logs/exceptions/${res.body.refId}`, { apiKey: true });
    }
    t.like(entry.body, { service: 'gateway', errorCode: 'SVC-SYS-5002', path: '/api/branch/1', method: 'GET', userCode: 'admin' });
    // the gateway's own 503 is given to a live session only: a logged-out token is 401 there too
    const account = await createAccount();
    const { user, password } = await createUser([account.accountNo]);
    const ended = await login(user.userCode, password);
    t.is((await api('POST', '/api/auth/logout', { token: ended.token })).status, 204);
    const refused = await api('GET', '/api/branch/1', { token: ended.token, baseUrl: gateway.url });
    t.is(refused.status, 401);
    t.is(refused.body.error_code, 'SVC-SYS-1001');
  } finally {
    await gateway.stop();
  }
  t.is((await api('GET', '/api/logs/exceptions/not-a-uuid', { apiKey: true })).status, 400);
  t.is((await api('GET', '/api/logs/exceptions/00000000-0000-4000-8000-000000000000', { apiKey: true })).status, 404);
});

test('with a reCAPTCHA secret, login verifies captchaToken at the verify URL and score threshold (400 SVC-SYS-1005)', async (t) => {
  const seen: string[] = [];
  const verifier: Server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString()));
    req.on('end', () => {
      const form = new URLSearchParams(body);
      seen.push(form.get('secret') ?? '');
      const token = form.get('response');
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify(token === 'human' ? { success: true, score: 0.9 } : token === 'bot' ? { success: true, score: 0.1 } : { success: false }));
    });
  });
  await new Promise<void>((resolve) => verifier.listen(0, '127.0.0.1', resolve));
  const address = verifier.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  const captchaPlatform = await startPlatform({
    env: {
      ...platform.env,
      GATEWAY_PORT: '0',
      CORE_GRPC_ADDR: `127.0.0.1:${await freePort()}`,
      RECAPTCHA_SECRET: 'captcha-test-secret',
      RECAPTCHA_VERIFY_URL: `http://127.0.0.1:${port}/verify`,
      RECAPTCHA_MIN_SCORE: '0.5',
    },
    entries: { 'bpm-svc': stub(), 'dms-svc': stub() },
    log: suiteLog(),
  });
  try {
    const attempt = (captchaToken?: string) =>
      api('POST', '/api/auth/login', {
        baseUrl: captchaPlatform.url,
        apiKey: true,
        body: { userCode: platform.adminUser, password: platform.adminPassword, languageCode: 'en', ...(captchaToken ? { captchaToken } : {}) },
      });
    for (const token of [undefined, 'bot', 'forged']) {
      const res = await attempt(token);
      t.is(res.status, 400, String(token));
      t.is(res.body.error_code, 'SVC-SYS-1005');
    }
    t.is((await attempt('human')).status, 200);
    t.true(seen.every((secret) => secret === 'captcha-test-secret'));
    await new Promise<void>((resolve) => verifier.close(() => resolve()));
    const down = await attempt('human');
    t.is(down.status, 503);
    t.is(down.body.error_code, 'SVC-SYS-5002');
  } finally {
    verifier.close();
    await captchaPlatform.stop();
  }
});

function stub(): string {
  return new URL('./helpers/ready-stub.ts', import.meta.url).pathname;
}
