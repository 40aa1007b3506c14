/** Login, me, the session cookie and the token (docs/interface.md#auth, docs/interface.md#token-and-cookie; docs/interface.md#identity, docs/interface.md#sessions-and-logs). */
import test from 'ava';
import { createAccount, createUser, login } from './helpers/factories.ts';
import { api, platform } from './helpers/platform.ts';
import { decode, otherKeyThan, sign } from './helpers/tokens.ts';
import { sessionCookieOf } from '@platform/kit/auth/request-token.ts';

test('login answers the session response with an empty token and sets SVC_SESSION', async (t) => {
  const res = await api('POST', '/api/auth/login', {
    apiKey: true,
    body: { userCode: platform.adminUser, password: platform.adminPassword, languageCode: 'en' },
  });
  t.is(res.status, 200);
  t.like(res.body, { success: true, token: '', userCode: 'admin', source: 'DB', superUser: true });
  t.regex(res.body.expiresAt, /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
  const expiresIn = (Date.parse(res.body.expiresAt) - Date.now()) / 1000;
  t.true(expiresIn > 28_700 && expiresIn <= 28_800, String(expiresIn));
  t.like(res.body.userProcess, { userCode: 'admin' });
  t.true(Number.isSafeInteger(res.body.userProcess.id));
  t.deepEqual(res.body.userProcess.userProcessSelects, [{ accountNo: 'DEFAULT', accountName: 'Default', crProcessId: 1 }]);
});

test('the cookie is HttpOnly, SameSite=Lax, Path=/, Max-Age=28800, without Domain or Secure outside production', async (t) => {
  const { cookie } = await login(platform.adminUser, platform.adminPassword);
  const attributes = cookie
    .split(';')
    .slice(1)
    .map((a) => a.trim().toLowerCase());
  t.true(attributes.includes('httponly'));
  t.true(attributes.includes('samesite=lax'));
  t.true(attributes.includes('path=/'));
  t.true(attributes.includes('max-age=28800'));
  t.false(attributes.some((a) => a.startsWith('domain')));
  t.false(attributes.includes('secure'));
});

test('the JWT is HS512 with the interface claims plus accountNo, crProcessId, sid and lang, for 8 hours', async (t) => {
  const { token, body } = await login(platform.adminUser, platform.adminPassword, 'tr');
  const [header, payload] = token.split('.');
  t.deepEqual(decode(header), { alg: 'HS512', typ: 'JWT' });
  const claims = decode(payload);
  t.like(claims, {
    sub: 'admin',
    userCode: 'admin',
    userProcessId: body.userProcess.id,
    userDescription: 'Administrator',
    superUser: true,
    tokenVersion: 0,
    accountNo: 'DEFAULT',
    crProcessId: 1,
    lang: 'tr',
  });
  t.regex(String(claims.sid), /^[0-9a-f-]{36}$/);
  t.is(Number(claims.exp) - Number(claims.iat), 28_800);
});

test('me answers by cookie and by bearer token', async (t) => {
  const { token, cookie } = await login(platform.adminUser, platform.adminPassword);
  const byCookie = await api('GET', '/api/auth/me', { headers: { cookie: cookie.split(';')[0] ?? '' } });
  t.is(byCookie.status, 200);
  t.like(byCookie.body, { success: true, userCode: 'admin', superUser: true, accountNo: 'DEFAULT', crProcessId: 1 });
  t.like(byCookie.body.userProcess, { userCode: 'admin' });
  const byBearer = await api('GET', '/api/auth/me', { token });
  t.deepEqual(byBearer.body, byCookie.body);
});

test('the cookie is read before the bearer header', async (t) => {
  const { token } = await login(platform.adminUser, platform.adminPassword);
  const res = await api('GET', '/api/auth/me', { token, headers: { cookie: 'SVC_SESSION=not-a-token' } });
  t.is(res.status, 401);
  t.is(res.body.error_code, 'SVC-SYS-1001');
});

test('twelve wrong passwords at once for one user from one address: exactly five are tried (401), the others 429', async (t) => {
  // docs/interface.md#limits: "The sixth wrong … login password for one … user from one IP within 15
  // minutes gets 429": also when they all arrive before the first has been judged.
  const { user, password } = await createUser([(await createAccount()).accountNo]);
  const attempt = (pw: string) => api('POST', '/api/auth/login', { apiKey: true, body: { userCode: user.userCode, password: pw, languageCode: 'en' } });
  const answers = await Promise.all(Array.from({ length: 12 }, (_, i) => attempt(`wrong-${i}-password`)));
  t.is(answers.filter((a) => a.status === 401).length, 5, answers.map((a) => a.status).join(' '));
  t.is(answers.filter((a) => a.status === 429).length, 7);
  t.is((await attempt(password)).status, 429, 'the right password does not slip through afterwards');
});

test('a wrong password and an unknown user get the same 401 SVC-SYS-1002', async (t) => {
  const { user } = await createUser([(await createAccount()).accountNo]);
  const wrong = await api('POST', '/api/auth/login', { apiKey: true, body: { userCode: user.userCode, password: 'not-the-password', languageCode: 'en' } });
  const unknown = await api('POST', '/api/auth/login', { apiKey: true, body: { userCode: 'nobody-here', password: 'not-the-password', languageCode: 'en' } });
  t.is(wrong.status, 401);
  t.is(wrong.body.error_code, 'SVC-SYS-1002');
  t.deepEqual(unknown.body, wrong.body);
  t.is(sessionCookieOf(wrong.headers.getSetCookie()), undefined);
});

test('login without or with a wrong API key is 401 SVC-SYS-1004', async (t) => {
  const body = { userCode: platform.adminUser, password: platform.adminPassword, languageCode: 'en' };
  for (const apiKey of [undefined, 'f'.repeat(32), platform.apiKey.slice(0, -1)]) {
    const res = await api('POST', '/api/auth/login', { body, ...(apiKey ? { apiKey } : {}) });
    t.is(res.status, 401);
    t.is(res.body.error_code, 'SVC-SYS-1004');
  }
});

test('login checks its body: languageCode is en or tr, unknown fields are refused', async (t) => {
  const base = { userCode: platform.adminUser, password: platform.adminPassword };
  for (const body of [
    { ...base, languageCode: 'de' },
    { ...base },
    { ...base, languageCode: 'en', remember: true },
    { ...base, languageCode: 'en', password: 12 },
  ]) {
    const res = await api('POST', '/api/auth/login', { apiKey: true, body });
    t.is(res.status, 400, JSON.stringify(body));
    t.is(res.body.error_code, 'SVC-SYS-2001');
  }
});

test('me without a token, with garbage, forged, alg none, HS256 or expired tokens is 401 SVC-SYS-1001', async (t) => {
  const { token } = await login(platform.adminUser, platform.adminPassword);
  const claims = decode(token.split('.')[1]);
  const now = Math.floor(Date.now() / 1000);
  const forged = [
    undefined,
    'garbage',
    sign({ alg: 'HS512', typ: 'JWT' }, claims, 'a'.repeat(64), 'sha512'),
    `${Buffer.from(JSON.stringify({ alg: 'none', typ: 'JWT' })).toString('base64url')}.${token.split('.')[1]}.`,
    sign({ alg: 'HS256', typ: 'JWT' }, claims, platform.jwtSecret, 'sha256'),
    sign({ alg: 'HS512', typ: 'JWT' }, { ...claims, iat: now - 7200, exp: now - 3600 }, platform.jwtSecret, 'sha512'),
    sign({ alg: 'HS512', typ: 'JWT' }, { ...claims, superUser: true, userCode: 'x' }, otherKeyThan(platform.jwtSecret), 'sha512'),
  ];
  for (const candidate of forged) {
    const res = await api('GET', '/api/auth/me', candidate ? { token: candidate } : {});
    t.is(res.status, 401, String(candidate));
    t.is(res.body.error_code, 'SVC-SYS-1001');
  }
  // the control: the same claims signed right are accepted
  const good = sign({ alg: 'HS512', typ: 'JWT' }, claims, platform.jwtSecret, 'sha512');
  t.is((await api('GET', '/api/auth/me', { token: good })).status, 200);
});

test('login picks the user-process own tenant when it is among the selects, else the smallest accountNo', async (t) => {
  const zeta = await createAccount({ accountNo: `ZZ-${Date.now()}` });
  const alpha = await createAccount({ accountNo: `AA-${Date.now()}` });
  // own tenant 1 (DEFAULT) is not among the selects: the smallest accountNo wins
  const other = await createUser([zeta.accountNo, alpha.accountNo]);
  const first = await login(other.user.userCode, other.password);
  t.is(decode(first.token.split('.')[1]).accountNo, alpha.accountNo);
  t.deepEqual(
    first.body.userProcess.userProcessSelects.map((s: { accountNo: string }) => s.accountNo),
    [alpha.accountNo, zeta.accountNo],
  );
  // own tenant among the selects: it wins
  const own = await createUser([alpha.accountNo, zeta.accountNo], {}, { crProcessId: zeta.crProcessId });
  const second = await login(own.user.userCode, own.password);
  t.like(decode(second.token.split('.')[1]), { accountNo: zeta.accountNo, crProcessId: zeta.crProcessId });
});

test('the sixth wrong password for one user from one address within 15 minutes gets 429 with the rate-limit body', async (t) => {
  const account = await createAccount();
  const { user, password } = await createUser([account.accountNo]);
  const attempt = (pw: string) => api('POST', '/api/auth/login', { apiKey: true, body: { userCode: user.userCode, password: pw, languageCode: 'en' } });
  for (let i = 1; i <= 5; i++) {
    const wrong = await attempt(`wrong-${i}-password`);
    t.is(wrong.status, 401, `attempt ${i}`);
    t.is(wrong.body.error_code, 'SVC-SYS-1002');
  }
  const sixth = await attempt('wrong-6-password');
  t.is(sixth.status, 429);
  t.like(sixth.body, { status: 429, error: 'Too Many Requests', retryAfter: 60 });
  t.regex(sixth.body.message, /\d/);
  t.true(Number(sixth.headers.get('retry-after')) > 0);
  // the right password does not slip through while the user is blocked from this address
  t.is((await attempt(password)).status, 429);
  // another user from the same address is not blocked
  const other = await createUser([account.accountNo]);
  t.is((await login(other.user.userCode, other.password)).body.success, true);
});
