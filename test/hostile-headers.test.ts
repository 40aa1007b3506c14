/**
 * Request headers a client made up: a Content-Encoding the body does not have, one the gateway
 * does not know, a charset other than UTF-8, an X-Project-Code that cannot travel on to the
 * services (docs/interface.md#authentication: "X-Project-Code (project identifier string)"). Each is 400
 * SVC-SYS-2001 with the error body naming the header (docs/interface.md#errors), never a 5xx.
 */
import { brotliCompressSync, deflateSync, gzipSync } from 'node:zlib';
import test from 'ava';
import { adminSession, freshTenant, sessionOf, unique } from './helpers/factories.ts';
import { assertErrorBody, assertInvalid } from './helpers/error-body.ts';
import { api, platform } from './helpers/platform.ts';
import { rawRequest } from './helpers/raw-http.ts';
import { claimsOf } from './helpers/tokens.ts';

test('a Content-Encoding the body does not have is 400 SVC-SYS-2001, even on a public path without credentials', async (t) => {
  const { token } = await adminSession();
  for (const encoding of ['gzip', 'br', 'deflate', 'GZIP']) {
    assertErrorBody(t, await rawRequest('POST', '/api/health', { headers: { 'content-encoding': encoding }, body: '{}' }), 400, 'SVC-SYS-2001');
    const res = await rawRequest('POST', '/api/business-partner/list', {
      token,
      headers: { 'content-encoding': encoding },
      body: JSON.stringify({ filter: { crProcessId: 1 } }),
    });
    assertErrorBody(t, res, 400, 'SVC-SYS-2001');
  }
});

test('an unknown Content-Encoding or a charset other than UTF-8 is 400 SVC-SYS-2001 naming the header', async (t) => {
  const { token } = await adminSession();
  const body = JSON.stringify({ filter: { crProcessId: 1 } });
  for (const encoding of ['compress', 'x-hostile', 'gzip, br', 'identity, gzip']) {
    assertInvalid(t, await rawRequest('POST', '/api/business-partner/list', { token, headers: { 'content-encoding': encoding }, body }), 'Content-Encoding');
  }
  for (const charset of ['latin1', 'utf-7', 'utf-16le', 'x-unknown']) {
    const headers = { 'content-type': `application/json; charset=${charset}` };
    assertInvalid(t, await rawRequest('POST', '/api/business-partner/list', { token, headers, body }), 'Content-Type');
  }
});

test('a body that really is gzip, deflate or br compressed JSON is read', async (t) => {
  const { token } = await adminSession();
  const tenant = freshTenant();
  for (const [encoding, compress] of [
    ['gzip', gzipSync],
    ['deflate', deflateSync],
    ['br', brotliCompressSync],
  ] as const) {
    const record = { crProcessId: tenant, partnerCode: unique('P-'), partnerName: `Packed ${encoding}`, partnerType: 'CUSTOMER' };
    const res = await rawRequest('POST', '/api/business-partner', { token, headers: { 'content-encoding': encoding }, body: compress(JSON.stringify(record)) });
    t.is(res.status, 200, `${encoding}: ${res.text}`);
    t.is(res.body.partnerName, record.partnerName);
  }
});

test('an X-Project-Code that is not printable ASCII of at most 100 characters is 400 naming the header, on every kind of path', async (t) => {
  const { token } = await adminSession();
  for (const code of ['PRJ-é', 'PRJ\t7', 'PRJ-\u00ff', 'x'.repeat(101)]) {
    const headers = { 'x-project-code': code };
    assertInvalid(t, await rawRequest('GET', '/api/branch/999999999', { token, headers }), 'X-Project-Code');
    assertInvalid(t, await rawRequest('GET', '/api/auth/me', { token, headers }), 'X-Project-Code');
    assertInvalid(t, await rawRequest('GET', '/api/session/stats', { apiKey: true, headers }), 'X-Project-Code');
    const login = await rawRequest('POST', '/api/auth/login', {
      apiKey: true,
      headers,
      body: JSON.stringify({ userCode: platform.adminUser, password: platform.adminPassword, languageCode: 'en' }),
    });
    assertInvalid(t, login, 'X-Project-Code');
  }
});

test('a printable X-Project-Code of up to 100 characters goes through to the services', async (t) => {
  // docs/interface.md#identity: "`X-Project-Code`, when sent, is recorded on the session": core-svc writes the
  // header it received on the session row, so reading the session back shows what reached it.
  for (const code of ['PRJ-7', 'x'.repeat(100), 'a b ~!@#$%^&*()']) {
    const login = await api('POST', '/api/auth/login', {
      apiKey: true,
      headers: { 'x-project-code': code },
      body: { userCode: platform.adminUser, password: platform.adminPassword, languageCode: 'en' },
    });
    t.is(login.status, 200, `${code}: ${login.text}`);
    const { token } = sessionOf(login);
    const me = await api('GET', '/api/auth/me', { token, headers: { 'x-project-code': code } });
    t.is(me.status, 200, `${code}: ${me.text}`);
    const session = await api('GET', `/api/session/${String(claimsOf(token).sid)}`, { apiKey: true });
    t.is(session.status, 200, session.text);
    t.is(session.body.projectCode, code, 'core-svc recorded the header it was sent');
  }
});
