/**
 * The API-key endpoints of sessions (docs/interface.md#sessions-and-logs): who may call them, the active list and
 * stats, lastSeenAt, ending a session by PUT or by time, the history's order and bounds ("`history/list`
 * is newest first by `loginAt`; `from` and `to` are ISO 8601 instants bounding `loginAt`") and
 * `POST /api/session`.
 */
import test from 'ava';
import { createAccount, createUser, login, sessionOf } from './helpers/factories.ts';
import { api } from './helpers/platform.ts';
import { claimsOf } from './helpers/tokens.ts';

interface SessionRecord {
  sessionId: string;
  loginAt: string;
  expiresAt: string;
  active: boolean;
}

const sidOf = (token: string): string => String(claimsOf(token).sid);

/** The ended sessions of `userCode`, as history/list gives them with the extra query `bounds`. */
async function history(userCode: string, bounds = ''): Promise<SessionRecord[]> {
  const res = await api('GET', `/api/session/history/list?page=0&size=50&userCode=${userCode}${bounds}`, { apiKey: true });
  if (res.status !== 200) throw new Error(`history/list: ${res.status} ${res.text}`);
  return res.body.content as SessionRecord[];
}

test('session endpoints need the API key (401 SVC-SYS-1004) and show the session of a login', async (t) => {
  for (const [method, path] of [
    ['GET', '/api/session/active'],
    ['GET', '/api/session/stats'],
    ['POST', '/api/logs/exceptions/list'],
  ] as const) {
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
  // docs/interface.md#sessions-and-logs: "a PageRequest whose filter may hold userCode, accountNo, crProcessId (none required here)"
  for (const filter of [
    { accountNo: account.accountNo },
    { crProcessId: account.crProcessId },
    { accountNo: account.accountNo, crProcessId: account.crProcessId },
  ]) {
    const byTenant = await api('POST', '/api/session/active/list', { apiKey: true, body: { page: 0, size: 10, filter } });
    t.deepEqual(
      byTenant.body.content.map((s: { sessionId: string }) => s.sessionId),
      [sid],
      JSON.stringify(filter),
    );
  }
  const stats = await api('GET', '/api/session/stats', { apiKey: true });
  t.true(stats.body.activeCount >= 1);
  t.is(stats.body.totalCount, stats.body.activeCount + stats.body.passiveCount);
  t.is(one.body.projectCode, null, 'no X-Project-Code on that login');

  // docs/interface.md#identity: "`X-Project-Code`, when sent, is recorded on the session".
  const withProject = await api('POST', '/api/auth/login', {
    apiKey: true,
    headers: { 'x-project-code': 'PRJ-42' },
    body: { userCode: user.userCode, password, languageCode: 'en' },
  });
  t.is(withProject.status, 200, withProject.text);
  const projectToken = sessionOf(withProject).token;
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
  t.deepEqual(await mine(), { open: [...sids].sort(), ended: [] }, "the user's sessions are all open");

  const ways: [string, (session: (typeof sessions)[number], sid: string) => Promise<number>][] = [
    ['logout', async (session) => (await api('POST', '/api/auth/logout', { headers: { cookie: session.cookie.split(';')[0] ?? '' } })).status],
    ['PUT active false', async (_session, sid) => (await api('PUT', `/api/session/${sid}`, { apiKey: true, body: { active: false } })).status],
    [
      'PUT a past expiresAt',
      async (_session, sid) =>
        (await api('PUT', `/api/session/${sid}`, { apiKey: true, body: { expiresAt: new Date(Date.now() - 1000).toISOString() } })).status,
    ],
  ];
  for (const [index, [way, end]] of ways.entries()) {
    const group = sessions.slice(index * K, (index + 1) * K);
    const before = await stats();
    const statuses = await Promise.all(group.map((session) => end(session, String(claimsOf(session.token).sid))));
    t.deepEqual(
      statuses,
      group.map(() => (way === 'logout' ? 204 : 200)),
      way,
    );
    const after = await stats();
    t.true(after.passiveCount - before.passiveCount >= K, `${way}: passiveCount ${before.passiveCount} → ${after.passiveCount} after ending ${K}`);
    t.true(after.totalCount >= before.totalCount, `${way}: totalCount never falls`);
  }
  t.deepEqual(await mine(), { open: [], ended: [...sids].sort() }, "the user's sessions are all ended");
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

test("lastSeenAt follows the requests of a session, to within the gateway's flush interval", async (t) => {
  // docs/interface.md#sessions-and-logs lists lastSeenAt among a session's fields: when it was last used, not its login.
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
  t.deepEqual(
    history.body.content.map((s: { sessionId: string }) => s.sessionId),
    [sid],
  );
});

test('history/list is newest first by loginAt, and from/to bound loginAt, both ends included', async (t) => {
  const account = await createAccount();
  const { user, password } = await createUser([account.accountNo]);
  const sids: string[] = [];
  for (let i = 0; i < 3; i++) {
    sids.push(sidOf((await login(user.userCode, password)).token));
    await new Promise((resolve) => setTimeout(resolve, 20)); // distinct loginAt instants
  }
  // ended in another order than they opened: the order must come from loginAt
  for (const sid of [sids[1], sids[0], sids[2]]) {
    t.is((await api('PUT', `/api/session/${sid}`, { apiKey: true, body: { active: false } })).status, 200);
  }
  const all = await history(user.userCode);
  t.deepEqual(
    all.map((s) => s.sessionId),
    [...sids].reverse(),
  );
  const loginAt = all.map((s) => Date.parse(s.loginAt));
  t.true(loginAt[0]! > loginAt[1]! && loginAt[1]! > loginAt[2]!, all.map((s) => s.loginAt).join(' > '));
  const middle = all[1]!.loginAt;
  const q = encodeURIComponent;
  t.deepEqual(
    (await history(user.userCode, `&from=${q(middle)}`)).map((s) => s.sessionId),
    [sids[2], sids[1]],
  );
  t.deepEqual(
    (await history(user.userCode, `&to=${q(middle)}`)).map((s) => s.sessionId),
    [sids[1], sids[0]],
  );
  t.deepEqual(
    (await history(user.userCode, `&from=${q(middle)}&to=${q(middle)}`)).map((s) => s.sessionId),
    [sids[1]],
  );
  const later = new Date(Date.parse(all[0]!.loginAt) + 1).toISOString();
  t.deepEqual(await history(user.userCode, `&from=${q(later)}`), []);
  const bad = await api('GET', `/api/session/history/list?userCode=${user.userCode}&from=yesterday`, { apiKey: true });
  t.is(bad.status, 400);
  t.is(bad.body.error_code, 'SVC-SYS-2001');
});

test('a trusted tool creates a session with POST /api/session', async (t) => {
  const account = await createAccount();
  const { user } = await createUser([account.accountNo]);
  const created = await api('POST', '/api/session', {
    apiKey: true,
    body: { userCode: user.userCode, accountNo: account.accountNo, ipAddress: '10.1.2.3', userAgent: 'batch-tool/1.0' },
  });
  t.is(created.status, 200, created.text);
  t.like(created.body, {
    userCode: user.userCode,
    accountNo: account.accountNo,
    crProcessId: account.crProcessId,
    ipAddress: '10.1.2.3',
    userAgent: 'batch-tool/1.0',
    active: true,
  });
  const outside = await api('POST', '/api/session', { apiKey: true, body: { userCode: user.userCode, accountNo: 'DEFAULT' } });
  t.is(outside.status, 400);
  t.is((await api('POST', '/api/session', { apiKey: true, body: { userCode: 'nobody-at-all', accountNo: 'DEFAULT' } })).status, 400);
});

test('POST /api/session takes expiresAt: the session lasts until then, and one given in the past is ended at once', async (t) => {
  const account = await createAccount();
  const { user } = await createUser([account.accountNo]);
  const until = new Date(Date.now() + 3_600_000);
  until.setMilliseconds(0);
  const created = await api('POST', '/api/session', {
    apiKey: true,
    body: { userCode: user.userCode, accountNo: account.accountNo, expiresAt: until.toISOString() },
  });
  t.is(created.status, 200, created.text);
  t.is(Date.parse(created.body.expiresAt), until.getTime());
  t.true(created.body.active);
  const open = await api('POST', '/api/session/active/list', { apiKey: true, body: { page: 0, size: 10, filter: { userCode: user.userCode } } });
  t.deepEqual(
    open.body.content.map((s: SessionRecord) => s.sessionId),
    [created.body.sessionId],
  );

  const past = new Date(Date.now() - 60_000).toISOString();
  const ended = await api('POST', '/api/session', { apiKey: true, body: { userCode: user.userCode, accountNo: account.accountNo, expiresAt: past } });
  t.is(ended.status, 200, ended.text);
  t.deepEqual(
    (await history(user.userCode)).map((s) => s.sessionId),
    [ended.body.sessionId],
    '"a session past its expiresAt counts as ended"',
  );
  const malformed = await api('POST', '/api/session', { apiKey: true, body: { userCode: user.userCode, accountNo: account.accountNo, expiresAt: 'tomorrow' } });
  t.is(malformed.status, 400);
  t.is(malformed.body.error_code, 'SVC-SYS-2001');
});
