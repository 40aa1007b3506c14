/**
 * Session lines of the contract that the session tests elsewhere only touch: the history's order and
 * bounds (decisions.md §9: "`history/list` is newest first by `loginAt`; `from` and `to` are ISO
 * 8601 instants bounding `loginAt`"), `POST /api/session` with `expiresAt` (§7), and a configured
 * token lifetime (platform-interface.md §5; JWT_TTL_SECONDS, docs/decisions.md).
 */
import test from 'ava';
import { freePort, startPlatform } from '../scripts/lib/processes.ts';
import { createAccount, createUser, login } from './helpers/factories.ts';
import { api, platform } from './helpers/platform.ts';
import { suiteLog } from './helpers/suite-log.ts';

const STUB = new URL('./helpers/ready-stub.ts', import.meta.url).pathname;

interface SessionRecord {
  sessionId: string;
  loginAt: string;
  expiresAt: string;
  active: boolean;
}

const sidOf = (token: string): string => String(JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString('utf8')).sid);

/** The ended sessions of `userCode`, as history/list gives them with the extra query `bounds`. */
async function history(userCode: string, bounds = ''): Promise<SessionRecord[]> {
  const res = await api('GET', `/api/session/history/list?page=0&size=50&userCode=${userCode}${bounds}`, { apiKey: true });
  if (res.status !== 200) throw new Error(`history/list: ${res.status} ${res.text}`);
  return res.body.content as SessionRecord[];
}

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
  t.deepEqual(all.map((s) => s.sessionId), [...sids].reverse());
  const loginAt = all.map((s) => Date.parse(s.loginAt));
  t.true(loginAt[0]! > loginAt[1]! && loginAt[1]! > loginAt[2]!, all.map((s) => s.loginAt).join(' > '));
  const middle = all[1]!.loginAt;
  const q = encodeURIComponent;
  t.deepEqual((await history(user.userCode, `&from=${q(middle)}`)).map((s) => s.sessionId), [sids[2], sids[1]]);
  t.deepEqual((await history(user.userCode, `&to=${q(middle)}`)).map((s) => s.sessionId), [sids[1], sids[0]]);
  t.deepEqual((await history(user.userCode, `&from=${q(middle)}&to=${q(middle)}`)).map((s) => s.sessionId), [sids[1]]);
  const later = new Date(Date.parse(all[0]!.loginAt) + 1).toISOString();
  t.deepEqual(await history(user.userCode, `&from=${q(later)}`), []);
  const bad = await api('GET', `/api/session/history/list?userCode=${user.userCode}&from=yesterday`, { apiKey: true });
  t.is(bad.status, 400);
  t.is(bad.body.error_code, 'SVC-SYS-2001');
});

test('POST /api/session takes expiresAt: the session lasts until then, and one given in the past is ended at once', async (t) => {
  const account = await createAccount();
  const { user } = await createUser([account.accountNo]);
  const until = new Date(Date.now() + 3_600_000);
  until.setMilliseconds(0);
  const created = await api('POST', '/api/session', { apiKey: true, body: { userCode: user.userCode, accountNo: account.accountNo, expiresAt: until.toISOString() } });
  t.is(created.status, 200, created.text);
  t.is(Date.parse(created.body.expiresAt), until.getTime());
  t.true(created.body.active);
  const open = await api('POST', '/api/session/active/list', { apiKey: true, body: { page: 0, size: 10, filter: { userCode: user.userCode } } });
  t.deepEqual(open.body.content.map((s: SessionRecord) => s.sessionId), [created.body.sessionId]);

  const past = new Date(Date.now() - 60_000).toISOString();
  const ended = await api('POST', '/api/session', { apiKey: true, body: { userCode: user.userCode, accountNo: account.accountNo, expiresAt: past } });
  t.is(ended.status, 200, ended.text);
  t.deepEqual((await history(user.userCode)).map((s) => s.sessionId), [ended.body.sessionId], '"a session past its expiresAt counts as ended"');
  const malformed = await api('POST', '/api/session', { apiKey: true, body: { userCode: user.userCode, accountNo: account.accountNo, expiresAt: 'tomorrow' } });
  t.is(malformed.status, 400);
  t.is(malformed.body.error_code, 'SVC-SYS-2001');
});

test('JWT_TTL_SECONDS sets the token lifetime: exp - iat, the cookie Max-Age, the expiresAt of the login and of its session', async (t) => {
  // a core-svc and a gateway of the test's own with a two-minute lifetime (bpm and dms stubbed)
  const own = await startPlatform({
    env: { ...platform.env, JWT_TTL_SECONDS: '120', GATEWAY_PORT: '0', CORE_GRPC_ADDR: `127.0.0.1:${await freePort()}` },
    entries: { 'bpm-svc': STUB, 'dms-svc': STUB },
    log: suiteLog(),
  });
  try {
    const account = await createAccount();
    const { user, password } = await createUser([account.accountNo]);
    const res = await api('POST', '/api/auth/login', { apiKey: true, baseUrl: own.url, body: { userCode: user.userCode, password, languageCode: 'en' } });
    t.is(res.status, 200, res.text);
    const cookie = res.headers.getSetCookie().find((c) => c.startsWith('SVC_SESSION=')) ?? '';
    t.true(cookie.toLowerCase().split(/;\s*/).includes('max-age=120'), cookie);
    const token = /^SVC_SESSION=([^;]*)/.exec(cookie)?.[1] ?? '';
    const claims = JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString('utf8')) as { exp: number; iat: number; sid: string };
    t.is(claims.exp - claims.iat, 120);
    const expiresIn = (Date.parse(res.body.expiresAt) - Date.now()) / 1000;
    t.true(expiresIn > 110 && expiresIn <= 120, String(expiresIn));
    const session = await api('GET', `/api/session/active`, { apiKey: true, baseUrl: own.url });
    const mine = (session.body as SessionRecord[]).find((s) => s.sessionId === claims.sid);
    t.truthy(mine);
    const lifetime = Date.parse(mine!.expiresAt) - Date.parse(mine!.loginAt);
    t.true(Math.abs(lifetime - 120_000) < 2_000, `${lifetime} ms`);
  } finally {
    await own.stop();
  }
});
