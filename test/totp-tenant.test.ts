/**
 * A tenant that requires the second factor, and a user administrator's reset of a user's second
 * factor (docs/interface.md#auth, "Second factor"; docs/adr/0128-a-tenant-requires-the-second-factor.md,
 * docs/adr/0129-a-second-factor-reset-by-the-tenant-s-administrator.md).
 */
import test from 'ava';
import { adminSession, createAccount, createUser, login, sessionOf, userWithRoles } from './helpers/factories.ts';
import { assertErrorBody, assertInvalid } from './helpers/error-body.ts';
import { api } from './helpers/platform.ts';
import { codeOf, enrol, passwordStep, secondStep, wrongCodeOf } from './helpers/totp.ts';

/** A user of `account`'s tenant (its user-info and user-process kept there). */
async function tenantUser(account: { accountNo: string; crProcessId: number }) {
  const tenant = { crProcessId: account.crProcessId };
  const { user, password } = await createUser([account.accountNo], tenant, tenant);
  return { userCode: user.userCode as string, userId: user.id as number, password };
}

test('in a tenant that requires it, a user without a second factor enrols at the login before it gets a session', async (t) => {
  const account = await createAccount({ secondFactorRequired: true });
  t.is(account.secondFactorRequired, true);
  const { userCode, password } = await tenantUser(account);
  const first = await passwordStep(userCode, password);
  t.is(first.status, 200);
  t.like(first.body, { success: false, userCode, secondFactor: 'enrol' });
  t.is(first.headers.getSetCookie().length, 0, 'no session before the enrolment');
  const { secret, otpauthUri, qrCode } = first.body.enrolment;
  t.true(otpauthUri.includes(`secret=${secret}`));
  t.regex(qrCode, /^data:image\/svg\+xml;base64,/);
  assertErrorBody(t, await secondStep({ challenge: first.body.challenge, code: await wrongCodeOf(secret) }), 401, 'SVC-SYS-1002');
  // no recovery code exists before the enrolment
  assertErrorBody(t, await secondStep({ challenge: first.body.challenge, recoveryCode: 'AAAA-BBBB-CCCC-DDDD' }), 401, 'SVC-SYS-1002');
  const second = await secondStep({ challenge: first.body.challenge, code: await codeOf(secret) });
  t.is(second.status, 200, second.text);
  t.like(second.body, { success: true, userCode });
  t.is(second.body.recoveryCodes.length, 10);
  const { token } = sessionOf(second);
  t.like((await api('GET', '/api/auth/second-factor', { token })).body, { enrolled: true, required: true, recoveryCodesLeft: 10 });
  // from now on, the code of the secret it enrolled
  const again = await passwordStep(userCode, password);
  t.like(again.body, { secondFactor: 'totp' });
  t.is(again.body.enrolment, undefined);
  t.is((await secondStep({ challenge: again.body.challenge, code: await codeOf(secret, 1) })).status, 200);
});

test('the requirement holds for every user who works in the tenant, and takes effect at the next login once set', async (t) => {
  const home = await createAccount();
  const strict = await createAccount();
  const { user, password } = await createUser([home.accountNo, strict.accountNo]);
  t.like((await passwordStep(user.userCode, password)).body, { success: true });
  const admin = (await adminSession()).token;
  const current = await api('GET', `/api/account/${strict.accountNo}`, { token: admin });
  const set = await api('PUT', `/api/account/${strict.accountNo}`, { token: admin, body: { version: current.body.version, secondFactorRequired: true } });
  t.is(set.status, 200, set.text);
  t.like((await passwordStep(user.userCode, password)).body, { success: false, secondFactor: 'enrol' });
  assertInvalid(
    t,
    await api('PUT', `/api/account/${strict.accountNo}`, { token: admin, body: { version: set.body.version, secondFactorRequired: 'yes' } }),
    'secondFactorRequired',
  );
});

test("a user administrator resets a user's second factor in its tenant; the user's history records who did", async (t) => {
  const account = await createAccount();
  const administrator = await userWithRoles(account, ['user-info:read', 'user-info:write']);
  const { userCode, userId, password } = await tenantUser(account);
  await enrol(await login(userCode, password));
  t.like((await passwordStep(userCode, password)).body, { secondFactor: 'totp' });
  const reset = await api('POST', `/api/user-info/${userId}/second-factor/reset`, { token: administrator.token });
  t.is(reset.status, 204, reset.text);
  // the next login opens its session with the password alone
  const res = await passwordStep(userCode, password);
  t.like(res.body, { success: true, userCode });
  const history = await api('GET', `/api/user-info/${userId}/history`, { token: administrator.token });
  t.is(history.status, 200, history.text);
  t.like(history.body.content[0], { type: 'user-info.second-factor-reset', userCode: administrator.userCode });
  // nothing left to reset
  assertErrorBody(t, await api('POST', `/api/user-info/${userId}/second-factor/reset`, { token: administrator.token }), 409, 'SVC-SYS-4004');
});

test("the reset is refused to a user without user-info:write (403) and to another tenant's administrator (404)", async (t) => {
  const account = await createAccount();
  const other = await createAccount();
  const clerk = await userWithRoles(account, ['user-info:read']);
  const stranger = await userWithRoles(other, ['user-info:read', 'user-info:write']);
  const { userCode, userId, password } = await tenantUser(account);
  await enrol(await login(userCode, password));
  assertErrorBody(t, await api('POST', `/api/user-info/${userId}/second-factor/reset`, { token: clerk.token }), 403, 'SVC-SYS-1003');
  assertErrorBody(t, await api('POST', `/api/user-info/${userId}/second-factor/reset`, { token: stranger.token }), 404, 'SVC-SYS-4001');
  assertErrorBody(t, await api('POST', `/api/user-info/${userId}/second-factor/reset`), 401, 'SVC-SYS-1001');
  assertErrorBody(t, await api('POST', '/api/user-info/abc/second-factor/reset', { token: stranger.token }), 400, 'SVC-SYS-2001');
  // still on: the refusals changed nothing
  t.like((await passwordStep(userCode, password)).body, { secondFactor: 'totp' });
  // a super user resets anyone's
  t.is((await api('POST', `/api/user-info/${userId}/second-factor/reset`, { token: (await adminSession()).token })).status, 204);
});
