/**
 * SessionService.CheckSession (docs/adr/0038-where-a-token-s-session-is-checked.md): what the
 * gateway asks of core-svc before an answer of its own on a JWT path. Served to the internal
 * credential alone; live exactly when the services' own check of a call would let the token through.
 */
import test from 'ava';
import { credentials, Metadata, status, type ServiceError } from '@grpc/grpc-js';
import { TokenService } from '@platform/kit/auth/jwt.ts';
import { SessionServiceClient } from '@platform/kit/gen/platform/core/v1/session.ts';
import { createAccount, createUser, login } from './helpers/factories.ts';
import { api, platform } from './helpers/platform.ts';
import { claimsOf } from './helpers/tokens.ts';

const tokens = new TokenService(platform.jwtSecret);

function bearer(token: string): Metadata {
  const metadata = new Metadata();
  metadata.set('authorization', `Bearer ${token}`);
  return metadata;
}

test('CheckSession: live for an open session, not live once logged out, ended, or after change-password; refused to a user token', async (t) => {
  const client = new SessionServiceClient(platform.grpc.core, credentials.createInsecure());
  const check = (token: string, caller = tokens.internalToken('gateway')) =>
    new Promise<{ error: ServiceError | null; live: boolean | undefined }>((resolve) =>
      client.checkSession({ token }, bearer(caller), (error, answer) => resolve({ error, live: answer?.live })),
    );
  try {
    const account = await createAccount();
    const { user, password } = await createUser([account.accountNo]);
    const session = () => login(user.userCode, password);
    const [open, loggedOut, ended, older] = await Promise.all([session(), session(), session(), session()]);
    t.deepEqual(await check(open.token), { error: null, live: true }, 'an open session');

    const asUser = await check(open.token, open.token);
    t.is(asUser.error?.code, status.UNAUTHENTICATED, 'a user token may not ask');
    t.deepEqual(asUser.error?.metadata.get('x-error-code'), ['SVC-SYS-1001']);

    t.is((await api('POST', '/api/auth/logout', { token: loggedOut.token })).status, 204);
    t.deepEqual(await check(loggedOut.token), { error: null, live: false }, 'logged out');

    const sessionId = String(claimsOf(ended.token).sid);
    await new Promise<void>((resolve, reject) =>
      client.updateSession({ sessionId, active: false }, bearer(tokens.internalToken('gateway')), (error) => (error ? reject(error) : resolve())),
    );
    t.deepEqual(await check(ended.token), { error: null, live: false }, 'ended by a trusted tool');

    t.deepEqual(await check('not.a.token'), { error: null, live: false }, 'a token that does not verify');
    t.deepEqual(await check(tokens.internalToken('gateway')), { error: null, live: false }, 'the internal credential is no user token');

    t.deepEqual(await check(older.token), { error: null, live: true }, 'still live before change-password');
    const changed = await api('POST', '/api/auth/change-password', {
      token: open.token,
      body: { currentPassword: password, newPassword: 'another-password-1' },
    });
    t.is(changed.status, 204, changed.text);
    t.deepEqual(await check(older.token), { error: null, live: false }, 'an older tokenVersion');
  } finally {
    client.close();
  }
});
