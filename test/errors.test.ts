/**
 * Bad input gets the error body of docs/interface.md#errors and a 4xx, never a 5xx, a stack trace or a hang;
 * a failed write leaves nothing behind. Messages come in en or tr (docs/interface.md#errors).
 */
import test from 'ava';
import { adminSession, create, createPartner, freshTenant, login, unique } from './helpers/factories.ts';
import { assertErrorBody, assertInvalid } from './helpers/error-body.ts';
import { api, platform } from './helpers/platform.ts';

test('malformed JSON is 400 SVC-SYS-2001', async (t) => {
  const { token } = await adminSession();
  for (const raw of ['{', '{"crProcessId": 1,}', 'nul', '{"a":1}}', '\u0000']) {
    const res = await api('POST', '/api/business-partner', { token, raw });
    assertErrorBody(t, res, 400, 'SVC-SYS-2001');
  }
});

test('a body that is not a JSON object, or not JSON at all, is 400 SVC-SYS-2001', async (t) => {
  const { token } = await adminSession();
  for (const raw of ['[]', '"text"', '42', 'null']) {
    assertErrorBody(t, await api('POST', '/api/business-partner', { token, raw }), 400, 'SVC-SYS-2001');
  }
  const form = await api('POST', '/api/business-partner', { token, raw: 'a=1', headers: { 'content-type': 'application/x-www-form-urlencoded' } });
  assertErrorBody(t, form, 400, 'SVC-SYS-2001');
  const noBody = await api('POST', '/api/branch/list', { token });
  assertErrorBody(t, noBody, 400, 'SVC-SYS-2001');
});

test('wrong types are 400 SVC-SYS-2001 naming the field', async (t) => {
  const { token } = await adminSession();
  const tenant = freshTenant();
  const valid = { crProcessId: tenant, partnerCode: unique('P-'), partnerName: 'Typed', partnerType: 'CUSTOMER' };
  for (const [field, value] of [
    ['crProcessId', 'one'],
    ['crProcessId', 1.5],
    ['crProcessId', 2 ** 60],
    ['partnerName', 12],
    ['partnerName', ['a']],
    ['status', 'yes'],
    ['countryId', {}],
    ['partnerType', 'FRIEND'],
  ] as const) {
    const res = await api('POST', '/api/business-partner', { token, body: { ...valid, [field]: value } });
    assertErrorBody(t, res, 400, 'SVC-SYS-2001');
    t.true(res.body.message.includes(field), `${field}: ${res.body.message}`);
  }
});

test('unknown fields are refused naming the field; __proto__ and constructor included', async (t) => {
  const { token } = await adminSession();
  const valid = { crProcessId: freshTenant(), partnerCode: unique('P-'), partnerName: 'X', partnerType: 'CUSTOMER' };
  for (const field of ['colour', '__proto__', 'constructor', 'toString', 'partner_name']) {
    const raw = JSON.stringify(valid).replace(/}$/, `,${JSON.stringify(field)}:{"superUser":true}}`);
    const res = await api('POST', '/api/business-partner', { token, raw });
    assertErrorBody(t, res, 400, 'SVC-SYS-2001');
    t.true(res.body.message.includes(field), res.body.message);
  }
});

test('required fields missing on create are 400 SVC-SYS-2001; crProcessId too', async (t) => {
  const { token } = await adminSession();
  for (const body of [
    { partnerCode: unique('P-'), partnerName: 'X', partnerType: 'CUSTOMER' },
    { crProcessId: freshTenant(), partnerName: 'X', partnerType: 'CUSTOMER' },
    { crProcessId: freshTenant(), partnerCode: '   ', partnerName: 'X', partnerType: 'CUSTOMER' },
  ]) {
    assertErrorBody(t, await api('POST', '/api/business-partner', { token, body }), 400, 'SVC-SYS-2001');
  }
});

test('a 5 MB body is answered 413 with the error body, not read into memory, and the gateway stays up', async (t) => {
  const { token } = await adminSession();
  const huge = JSON.stringify({ crProcessId: 1, partnerName: 'x'.repeat(5 * 1024 * 1024) });
  const res = await api('POST', '/api/business-partner', { token, raw: huge });
  assertErrorBody(t, res, 413, 'SVC-SYS-3001');
  t.is((await api('GET', '/api/health')).status, 200);
});

test('non-numeric, negative, huge and fractional ids are 400 SVC-SYS-2001', async (t) => {
  const { token } = await adminSession();
  for (const id of ['abc', '-1', '0', '1.5', '99999999999999999999', '1e3', '%27%20or%201=1', 'NaN']) {
    assertErrorBody(t, await api('GET', `/api/branch/${id}`, { token }), 400, 'SVC-SYS-2001');
    assertErrorBody(t, await api('DELETE', `/api/business-partner/${id}`, { token }), 400, 'SVC-SYS-2001');
  }
  assertErrorBody(t, await api('GET', '/api/branch/999999999', { token }), 404, 'SVC-SYS-4001');
});

test('hostile strings are stored literally or refused with 400, never a 5xx', async (t) => {
  const { token } = await adminSession();
  const tenant = freshTenant();
  const literal = ["Robert'); DROP TABLE bpm.branch;--", '<script>alert(1)</script>', '${jndi:ldap://x}', 'Ünïcödé 🚀 İıŞş', '\\%_\\'];
  for (const partnerName of literal) {
    const partner = await createPartner(tenant, { partnerName });
    t.is(partner.partnerName, partnerName);
    t.is((await api('GET', `/api/business-partner/${partner.id}`, { token })).body.partnerName, partnerName);
  }
  // docs/adr/0002-field-rules-immutable-keys-strict.md: "Strings are at most 255 characters ...; a
  // NUL character or a lone surrogate is 400" (characters are code points: 255 rockets are 255
  // characters)
  const cases: [string, string, 200 | 400][] = [
    ['a NUL', 'nul\u0000byte', 400],
    ['256 characters', 'x'.repeat(256), 400],
    ['a lone surrogate', '\ud800 lone surrogate', 400],
    ['255 characters', 'x'.repeat(255), 200],
    ['255 astral characters', '🚀'.repeat(255), 200],
  ];
  for (const [what, partnerName, expected] of cases) {
    const res = await api('POST', '/api/business-partner', {
      token,
      raw: `{"crProcessId":${tenant},"partnerCode":"${unique('P-')}","partnerName":${JSON.stringify(partnerName)},"partnerType":"CUSTOMER"}`,
    });
    if (expected === 400) {
      assertInvalid(t, res, 'partnerName');
      continue;
    }
    t.is(res.status, 200, `${what}: ${res.text}`);
    // accepted means stored literally: the record reads back with exactly the string sent
    t.is(res.body.partnerName, partnerName, `${what} as created`);
    const stored = await api('GET', `/api/business-partner/${res.body.id}`, { token });
    t.is(stored.status, 200, stored.text);
    t.is(stored.body.partnerName, partnerName, `${what} as read back`);
  }
  const search = await api('POST', '/api/business-partner/list', { token, body: { searchTerm: 'a\u0000b', filter: { crProcessId: tenant } } });
  assertErrorBody(t, search, 400, 'SVC-SYS-2001');
});

test('an unknown path is 404 SVC-SYS-4001 and an unknown method on a known path too', async (t) => {
  const { token } = await adminSession();
  assertErrorBody(t, await api('GET', '/api/no-such-entity/1', { token }), 404, 'SVC-SYS-4001');
  assertErrorBody(t, await api('PATCH', '/api/branch/1', { token, body: {} }), 404, 'SVC-SYS-4001');
  assertErrorBody(t, await api('GET', '/api/admin/anything', { apiKey: true }), 404, 'SVC-SYS-4001');
});

test('paths are case-sensitive: another spelling of an API-key path is no route, even with a valid token', async (t) => {
  // The filter chain's categories (docs/interface.md#path-categories) read the path as written, so a route
  // reached by /API/session/active would be an API-key endpoint reached with a JWT alone.
  const { token } = await adminSession();
  const record = await createPartner(freshTenant());
  for (const path of ['/API/session/active', '/api/Session/active', '/api/LOGS/exceptions/list', '/Api/Auth/me']) {
    assertErrorBody(t, await api('GET', path, { token }), 404, 'SVC-SYS-4001');
  }
  assertErrorBody(t, await api('GET', `/api/Business-Partner/${record.id}`, { token }), 404, 'SVC-SYS-4001');
  assertErrorBody(t, await api('GET', `/API/business-partner/${record.id}`, { token }), 404, 'SVC-SYS-4001');
  t.is((await api('GET', `/api/business-partner/${record.id}`, { token })).status, 200);
});

test('a duplicate unique field is 409 SVC-SYS-4005 and leaves the first record as it was', async (t) => {
  const tenant = freshTenant();
  const first = await createPartner(tenant);
  const { token } = await adminSession();
  const res = await api('POST', '/api/business-partner', {
    token,
    body: { crProcessId: tenant, partnerCode: first.partnerCode, partnerName: 'Copy', partnerType: 'CUSTOMER' },
  });
  assertErrorBody(t, res, 409, 'SVC-SYS-4005');
  t.true(res.body.message.includes('partnerCode'), res.body.message);
  // unique per tenant: the same code in another tenant is fine
  await t.notThrowsAsync(createPartner(freshTenant(), { partnerCode: first.partnerCode }));
  t.is((await api('POST', '/api/business-partner/list', { token, body: { filter: { crProcessId: tenant } } })).body.totalElements, 1);
});

test('a failed write leaves no partial state: a user-process naming an unknown account creates nothing', async (t) => {
  const { token } = await adminSession();
  const user = await create('user-info', { crProcessId: 1, userCode: unique('partial-'), userDescription: 'Partial', password: 'partial-pass-1' });
  const res = await api('POST', '/api/user-process', {
    token,
    body: { crProcessId: 1, userCode: user.userCode, userProcessSelects: [{ accountNo: 'DEFAULT' }, { accountNo: unique('NOPE-') }] },
  });
  assertErrorBody(t, res, 400, 'SVC-SYS-2001');
  const left = await api('POST', '/api/user-process/list', { token, body: { filter: { crProcessId: 1, userCode: user.userCode } } });
  t.is(left.body.totalElements, 0);
  // and the same create without the bad account succeeds: nothing half-written blocks it
  const ok = await api('POST', '/api/user-process', {
    token,
    body: { crProcessId: 1, userCode: user.userCode, userProcessSelects: [{ accountNo: 'DEFAULT' }] },
  });
  t.is(ok.status, 200, ok.text);
});

test('error messages follow Accept-Language, then the login languageCode, then en', async (t) => {
  const en = await adminSession();
  const tr = await login(platform.adminUser, platform.adminPassword, 'tr');
  const missing = '/api/branch/999999999';
  const english = await api('GET', missing, { token: en.token });
  const turkish = await api('GET', missing, { token: tr.token });
  const overridden = await api('GET', missing, { token: tr.token, headers: { 'accept-language': 'en-US,en;q=0.9' } });
  const header = await api('GET', missing, { token: en.token, headers: { 'accept-language': 'de-DE, tr;q=0.8, en;q=0.5' } });
  t.is(english.body.message, 'Record not found: branch');
  t.is(turkish.body.message, 'Kayıt bulunamadı: branch');
  t.is(overridden.body.message, english.body.message);
  t.is(header.body.message, turkish.body.message);
  for (const res of [english, turkish, overridden, header]) t.is(res.body.error_code, 'SVC-SYS-4001');
  const unauthenticated = await api('GET', '/api/auth/me', { headers: { 'accept-language': 'tr' } });
  t.is(unauthenticated.body.error_code, 'SVC-SYS-1001');
  t.regex(unauthenticated.body.message, /oturum/i);
});
