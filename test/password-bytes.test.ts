/**
 * docs/interface.md#records: user-info "password (write-only, at least 8 characters)"; the project's decision:
 * at most 72 bytes of UTF-8, since bcrypt (docs/interface.md#auth: "checked against a stored
 * BCrypt hash") reads no further and two passwords that differ only past the 72nd byte would be one.
 */
import test from 'ava';
import { adminSession, create, unique } from './helpers/factories.ts';
import { assertInvalid } from './helpers/error-body.ts';
import { api } from './helpers/platform.ts';

test('a password is 8 characters to 72 bytes of UTF-8: bcrypt ignores every byte past the 72nd', async (t) => {
  const { token } = await adminSession();
  const user = (password: string) => ({ crProcessId: 1, userCode: unique('pw-'), userDescription: 'Password bytes', password });
  // 40 × "é" is 80 bytes: two passwords that differ only after byte 72 would be the same to bcrypt
  assertInvalid(t, await api('POST', '/api/user-info', { token, body: user(`${'é'.repeat(40)}tail1`) }), 'password');
  assertInvalid(t, await api('POST', '/api/user-info', { token, body: user('x'.repeat(73)) }), 'password');
  assertInvalid(t, await api('POST', '/api/user-info', { token, body: user('🔑'.repeat(19)) }), 'password');
  assertInvalid(t, await api('POST', '/api/user-info', { token, body: user('ééééééé') }), 'password');
  const atLimit = await create('user-info', user('é'.repeat(36)));
  t.truthy(atLimit.id);
  t.truthy((await create('user-info', user('x'.repeat(72)))).id);
  t.truthy((await create('user-info', user('éééééééé'))).id, '8 characters, 16 bytes');
  const update = await api('PUT', `/api/user-info/${atLimit.id}`, { token, body: { version: atLimit.version, password: `${'é'.repeat(36)}x` } });
  assertInvalid(t, update, 'password');
});
