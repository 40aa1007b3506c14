/**
 * The second factor of password logins (docs/interface.md#auth, "Second factor";
 * docs/adr/0127-a-second-factor-for-password-logins.md): TOTP enrolment, the login's two steps with
 * a code or a recovery code, replays refused, wrong codes throttled as wrong passwords are.
 */
import test from 'ava';
import { adminSession, createAccount, createUser, login, sessionOf } from './helpers/factories.ts';
import { assertErrorBody, assertInvalid } from './helpers/error-body.ts';
import { api } from './helpers/platform.ts';
import { codeOf, enrol, passwordStep, secondStep, wrongCodeOf } from './helpers/totp.ts';

/** A user of a new account, signed in with its password alone. */
async function freshUser() {
  const account = await createAccount();
  const { user, password } = await createUser([account.accountNo]);
  const session = await login(user.userCode, password);
  return { account, userCode: user.userCode as string, userId: user.id as number, password, session };
}

test('a user without a second factor gets the login answer it always got: the session at once', async (t) => {
  const { userCode, password } = await freshUser();
  const res = await passwordStep(userCode, password);
  t.is(res.status, 200);
  t.deepEqual(Object.keys(res.body).sort(), ['expiresAt', 'source', 'success', 'superUser', 'token', 'userCode', 'userProcess']);
  t.like(res.body, { success: true, token: '', userCode });
  t.truthy(sessionOf(res).token);
});

test('enrolment gives a secret, its otpauth URI and an SVG QR code; a code from it confirms it and shows ten recovery codes', async (t) => {
  const { userCode, session } = await freshUser();
  t.like((await api('GET', '/api/auth/second-factor', { token: session.token })).body, { enrolled: false, required: false, recoveryCodesLeft: 0 });
  const started = await api('POST', '/api/auth/second-factor/enrolment', { token: session.token });
  t.is(started.status, 200, started.text);
  t.regex(started.body.secret, /^[A-Z2-7]{32}$/);
  t.is(started.body.otpauthUri, `otpauth://totp/Platform:${userCode}?secret=${started.body.secret}&issuer=Platform`);
  t.regex(started.body.qrCode, /^data:image\/svg\+xml;base64,/);
  t.true(Buffer.from(started.body.qrCode.split(',')[1], 'base64').toString().includes('<svg'));
  const wrong = await api('POST', '/api/auth/second-factor/enrolment/confirm', {
    token: session.token,
    body: { code: await wrongCodeOf(started.body.secret) },
  });
  assertInvalid(t, wrong, 'code');
  const confirmed = await api('POST', '/api/auth/second-factor/enrolment/confirm', { token: session.token, body: { code: await codeOf(started.body.secret) } });
  t.is(confirmed.status, 200, confirmed.text);
  t.is(confirmed.body.recoveryCodes.length, 10);
  t.is(new Set(confirmed.body.recoveryCodes).size, 10);
  for (const code of confirmed.body.recoveryCodes) t.regex(code, /^[A-Z2-7]{4}-[A-Z2-7]{4}-[A-Z2-7]{4}-[A-Z2-7]{4}$/);
  t.like((await api('GET', '/api/auth/second-factor', { token: session.token })).body, { enrolled: true, recoveryCodesLeft: 10 });
  // "409 SVC-SYS-4004 while one is confirmed"
  assertErrorBody(t, await api('POST', '/api/auth/second-factor/enrolment', { token: session.token }), 409, 'SVC-SYS-4004');
});

test('with a second factor the password step answers a challenge without a cookie; the code completes the login', async (t) => {
  const { userCode, password, session } = await freshUser();
  const { secret } = await enrol(session);
  const first = await passwordStep(userCode, password);
  t.is(first.status, 200);
  t.like(first.body, { success: false, userCode, secondFactor: 'totp' });
  t.regex(first.body.challenge, /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]{43}$/);
  t.true(Date.parse(first.body.expiresAt) > Date.now());
  t.is(first.headers.getSetCookie().length, 0, 'no session before the second factor');
  t.is(first.body.enrolment, undefined);
  // the step after the enrolment's: the enrolment's own code is used
  const second = await secondStep({ challenge: first.body.challenge, code: await codeOf(secret, 1) });
  t.is(second.status, 200, second.text);
  t.like(second.body, { success: true, token: '', userCode, source: 'DB' });
  t.is(second.body.recoveryCodes, undefined);
  const me = await api('GET', '/api/auth/me', { token: sessionOf(second).token });
  t.is(me.status, 200);
  t.is(me.body.userCode, userCode);
  // a challenge completes one login
  assertErrorBody(t, await secondStep({ challenge: first.body.challenge, code: await codeOf(secret, 1) }), 401, 'SVC-SYS-1002');
});

test('a code used once is refused in its window: a replay of it gets 401 SVC-SYS-1002', async (t) => {
  const { userCode, password, session } = await freshUser();
  const { secret, code: usedByEnrolment } = await enrol(session);
  const first = await passwordStep(userCode, password);
  assertErrorBody(t, await secondStep({ challenge: first.body.challenge, code: usedByEnrolment }), 401, 'SVC-SYS-1002');
  // the next step's code is new: accepted, then replayed in vain
  const next = await codeOf(secret, 1);
  t.not(next, usedByEnrolment);
  t.is((await secondStep({ challenge: first.body.challenge, code: next })).status, 200);
  const again = await passwordStep(userCode, password);
  assertErrorBody(t, await secondStep({ challenge: again.body.challenge, code: next }), 401, 'SVC-SYS-1002');
});

test('a recovery code completes a login once; the second use of it fails', async (t) => {
  const { userCode, password, session } = await freshUser();
  const { recoveryCodes } = await enrol(session);
  const code = recoveryCodes[0] ?? '';
  const first = await passwordStep(userCode, password);
  // typed in lower case, without hyphens: the same code
  const used = await secondStep({ challenge: first.body.challenge, recoveryCode: code.toLowerCase().replaceAll('-', '') });
  t.is(used.status, 200, used.text);
  t.truthy(sessionOf(used).token);
  t.like((await api('GET', '/api/auth/second-factor', { token: sessionOf(used).token })).body, { recoveryCodesLeft: 9 });
  const again = await passwordStep(userCode, password);
  assertErrorBody(t, await secondStep({ challenge: again.body.challenge, recoveryCode: code }), 401, 'SVC-SYS-1002');
  t.is((await secondStep({ challenge: again.body.challenge, recoveryCode: recoveryCodes[1] })).status, 200);
});

test('wrong codes are throttled as wrong passwords: the sixth attempt within 15 minutes is 429, the right code and password too', async (t) => {
  const { userCode, password, session } = await freshUser();
  const { secret } = await enrol(session);
  const first = await passwordStep(userCode, password);
  const wrong = await wrongCodeOf(secret);
  for (let i = 1; i <= 5; i++) assertErrorBody(t, await secondStep({ challenge: first.body.challenge, code: wrong }), 401, 'SVC-SYS-1002');
  const sixth = await secondStep({ challenge: first.body.challenge, code: await codeOf(secret, 1) });
  t.is(sixth.status, 429);
  t.like(sixth.body, { status: 429, error: 'Too Many Requests' });
  t.true(Number(sixth.headers.get('retry-after')) > 0);
  // and the password step of that user from this address: "as to passwords"
  t.is((await passwordStep(userCode, password)).status, 429);
});

test('a right password does not clear the wrong codes counted: password, codes, password, codes still reach 429', async (t) => {
  const { userCode, password, session } = await freshUser();
  const { secret } = await enrol(session);
  const wrong = await wrongCodeOf(secret);
  let statuses: number[] = [];
  for (let round = 0; round < 2; round++) {
    const first = await passwordStep(userCode, password);
    if (first.status !== 200) {
      statuses.push(first.status);
      break;
    }
    for (let i = 0; i < 3; i++) statuses.push((await secondStep({ challenge: first.body.challenge, code: wrong })).status);
  }
  statuses = statuses.slice(0, 6);
  t.deepEqual(statuses, [401, 401, 401, 401, 401, 429]);
});

test('regenerating recovery codes needs a current code and ends the old codes; disabling turns the second factor off', async (t) => {
  const { userCode, password, session } = await freshUser();
  const { secret, recoveryCodes } = await enrol(session);
  assertInvalid(t, await api('POST', '/api/auth/second-factor/recovery-codes', { token: session.token, body: { code: await wrongCodeOf(secret) } }), 'code');
  const renewed = await api('POST', '/api/auth/second-factor/recovery-codes', { token: session.token, body: { code: await codeOf(secret, 1) } });
  t.is(renewed.status, 200, renewed.text);
  t.is(renewed.body.recoveryCodes.length, 10);
  const first = await passwordStep(userCode, password);
  assertErrorBody(t, await secondStep({ challenge: first.body.challenge, recoveryCode: recoveryCodes[0] }), 401, 'SVC-SYS-1002');
  const viaNew = await secondStep({ challenge: first.body.challenge, recoveryCode: renewed.body.recoveryCodes[0] });
  t.is(viaNew.status, 200);
  // the step +1 code is used: a used code does not serve again here either
  assertInvalid(t, await api('POST', '/api/auth/second-factor/disable', { token: session.token, body: { code: await codeOf(secret, 1) } }), 'code');
});

test('disabling needs a current code; then the login opens its session at once again, and the user history says so', async (t) => {
  const { userCode, userId, password, session } = await freshUser();
  const { secret } = await enrol(session);
  const off = await api('POST', '/api/auth/second-factor/disable', { token: session.token, body: { code: await codeOf(secret, 1) } });
  t.is(off.status, 204, off.text);
  t.like((await api('GET', '/api/auth/second-factor', { token: session.token })).body, { enrolled: false, recoveryCodesLeft: 0 });
  const res = await passwordStep(userCode, password);
  t.like(res.body, { success: true, userCode });
  t.truthy(sessionOf(res).token);
  const history = await api('GET', `/api/user-info/${userId}/history`, { token: (await adminSession()).token });
  t.deepEqual(history.body.content.map((event: { type: string }) => event.type).slice(0, 2), [
    'user-info.second-factor-disabled',
    'user-info.second-factor-enrolled',
  ]);
  assertErrorBody(t, await api('POST', '/api/auth/second-factor/disable', { token: session.token, body: { code: await codeOf(secret) } }), 409, 'SVC-SYS-4004');
});

test('malformed second steps are 400 SVC-SYS-2001 naming the field; a challenge not of the form is 401 SVC-SYS-1002', async (t) => {
  const { userCode, password, session } = await freshUser();
  await enrol(session);
  const { body } = await passwordStep(userCode, password);
  assertInvalid(t, await secondStep({ code: '123456' }), 'challenge');
  assertInvalid(t, await secondStep({ challenge: body.challenge }), 'code');
  assertInvalid(t, await secondStep({ challenge: body.challenge, code: '12345' }), 'code');
  assertInvalid(t, await secondStep({ challenge: body.challenge, code: 123456 }), 'code');
  assertInvalid(t, await secondStep({ challenge: body.challenge, code: '123456', recoveryCode: 'ABCD-EFGH-IJKL-MNOP' }), 'recoveryCode');
  assertInvalid(t, await secondStep({ challenge: body.challenge, code: '123456', extra: 1 }), 'extra');
  assertErrorBody(
    t,
    await api('POST', '/api/auth/login/second-factor', { apiKey: true, raw: '{"challenge":', headers: { 'content-type': 'application/json' } }),
    400,
    'SVC-SYS-2001',
  );
  assertErrorBody(t, await secondStep({ challenge: 'not-a-challenge', code: '123456' }), 401, 'SVC-SYS-1002');
  assertErrorBody(t, await api('POST', '/api/auth/login/second-factor', { body: { challenge: body.challenge, code: '123456' } }), 401, 'SVC-SYS-1004');
  // the console's second step takes the console's proof, not the API key
  assertErrorBody(
    t,
    await api('POST', '/api/auth/console-login/second-factor', { apiKey: true, body: { challenge: body.challenge, code: '123456' } }),
    401,
    'SVC-SYS-1004',
  );
  assertInvalid(t, await api('POST', '/api/auth/second-factor/enrolment/confirm', { token: session.token, body: { code: 'abcdef' } }), 'code');
  assertInvalid(t, await api('POST', '/api/auth/second-factor/disable', { token: session.token, body: {} }), 'code');
  assertErrorBody(t, await api('GET', '/api/auth/second-factor'), 401, 'SVC-SYS-1001');
});

test("a code in the login's own body completes it in one request; a wrong one is 401 SVC-SYS-1002, counted; a malformed one 400", async (t) => {
  const { userCode, password, session } = await freshUser();
  const { secret, code: usedByEnrolment } = await enrol(session);
  const withCode = (secondFactorCode: unknown) =>
    api('POST', '/api/auth/login', { apiKey: true, body: { userCode, password, languageCode: 'en', secondFactorCode } });
  assertInvalid(t, await withCode('12 456'), 'secondFactorCode');
  assertInvalid(t, await withCode(123456), 'secondFactorCode');
  // a used code, as at the second step
  assertErrorBody(t, await withCode(usedByEnrolment), 401, 'SVC-SYS-1002');
  const res = await withCode(await codeOf(secret, 1));
  t.is(res.status, 200, res.text);
  t.deepEqual(Object.keys(res.body).sort(), ['expiresAt', 'source', 'success', 'superUser', 'token', 'userCode', 'userProcess']);
  t.truthy(sessionOf(res).token);
  // the success started the count again: five wrong ones, and the sixth attempt is 429, as for passwords
  const wrong = await wrongCodeOf(secret);
  for (let i = 1; i <= 5; i++) assertErrorBody(t, await withCode(wrong), 401, 'SVC-SYS-1002');
  t.is((await withCode(wrong)).status, 429);
});

test('a code sent along by a user without a second factor is ignored: the login answers as always', async (t) => {
  const { userCode, password } = await freshUser();
  const res = await api('POST', '/api/auth/login', { apiKey: true, body: { userCode, password, languageCode: 'en', secondFactorCode: '123456' } });
  t.is(res.status, 200, res.text);
  t.like(res.body, { success: true, userCode });
  t.truthy(sessionOf(res).token);
});

test('the same new code sent in two second steps at once completes one login, not two', async (t) => {
  const { userCode, password, session } = await freshUser();
  const { secret } = await enrol(session);
  const [a, b] = await Promise.all([passwordStep(userCode, password), passwordStep(userCode, password)]);
  const code = await codeOf(secret, 1);
  const answers = await Promise.all([secondStep({ challenge: a.body.challenge, code }), secondStep({ challenge: b.body.challenge, code })]);
  t.deepEqual(answers.map((res) => res.status).sort(), [200, 401]);
});

test('on the security page, five wrong codes lock the second factor for 15 minutes: the sixth, even right, is 409 and it stays on', async (t) => {
  const { userCode, password, session } = await freshUser();
  const { secret } = await enrol(session);
  const wrong = await wrongCodeOf(secret);
  for (let i = 1; i <= 5; i++) assertInvalid(t, await api('POST', '/api/auth/second-factor/disable', { token: session.token, body: { code: wrong } }), 'code');
  const sixth = await api('POST', '/api/auth/second-factor/disable', { token: session.token, body: { code: await codeOf(secret, 1) } });
  assertErrorBody(t, sixth, 409, 'SVC-SYS-4004');
  t.regex(sixth.body.message, /15 minutes/);
  assertErrorBody(
    t,
    await api('POST', '/api/auth/second-factor/recovery-codes', { token: session.token, body: { code: await codeOf(secret, 1) } }),
    409,
    'SVC-SYS-4004',
  );
  t.like((await api('GET', '/api/auth/second-factor', { token: session.token })).body, { enrolled: true, recoveryCodesLeft: 10 });
  // the login's codes are the login guard's: the step +1 code was never accepted, so it logs in
  const first = await passwordStep(userCode, password);
  t.is((await secondStep({ challenge: first.body.challenge, code: await codeOf(secret, 1) })).status, 200);
});
