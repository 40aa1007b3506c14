/**
 * JSON bodies a client made up. docs/interface.md#errors: "SVC-SYS-2001 400 body, parameter or field invalid
 * (malformed JSON, wrong type, unknown sort or filter field ...)"; docs/interface.md#records: "Unknown body fields are
 * refused: 400 SVC-SYS-2001 naming the field". A string that PostgreSQL cannot store (a NUL) or that
 * is not Unicode text (a lone surrogate, bytes that are not UTF-8) is refused by the gateway wherever
 * it stands, naming where; so is a `__proto__` key.
 */
import test from 'ava';
import { adminSession, createPartner, freshTenant, unique } from './helpers/factories.ts';
import { assertInvalid } from './helpers/error-body.ts';
import { api, platform } from './helpers/platform.ts';
import { rawRequest } from './helpers/raw-http.ts';

const partnerBody = (crProcessId: number) => ({ crProcessId, partnerCode: unique('P-'), partnerName: 'Hostile', partnerType: 'CUSTOMER' });

test('a NUL or a lone surrogate in any string of a JSON body is 400 SVC-SYS-2001 naming the field path', async (t) => {
  const { token } = await adminSession();
  const tenant = freshTenant();
  for (const bad of ['\ud800', 'tail \udfff', 'a\u0000b']) {
    assertInvalid(t, await api('POST', '/api/business-partner', { token, body: { ...partnerBody(tenant), partnerName: bad } }), 'partnerName');
    const listed = await api('POST', '/api/business-partner/list', { token, body: { filter: { crProcessId: tenant, partnerName: bad } } });
    assertInvalid(t, listed, 'filter.partnerName');
    const sorted = await api('POST', '/api/business-partner/list', {
      token,
      body: { sorts: [{ field: `partnerName${bad}` }], filter: { crProcessId: tenant } },
    });
    assertInvalid(t, sorted, 'sorts[0].field');
    const selects = await api('POST', '/api/user-process', {
      token,
      body: { crProcessId: 1, userCode: unique('u-'), userProcessSelects: [{ accountNo: 'DEFAULT' }, { accountNo: bad }] },
    });
    assertInvalid(t, selects, 'userProcessSelects[1].accountNo');
    const login = await api('POST', '/api/auth/login', {
      apiKey: true,
      body: { userCode: `${platform.adminUser}${bad}`, password: 'whatever-1', languageCode: 'en' },
    });
    assertInvalid(t, login, 'userCode');
    const session = await api('POST', '/api/session', { apiKey: true, body: { userCode: platform.adminUser, accountNo: 'DEFAULT', userAgent: bad } });
    assertInvalid(t, session, 'userAgent');
  }
  t.is((await api('POST', '/api/business-partner/list', { token, body: { filter: { crProcessId: tenant } } })).body.totalElements, 0, 'nothing was stored');
});

test('a NUL or a lone surrogate in a key of a JSON body is 400 SVC-SYS-2001', async (t) => {
  const { token } = await adminSession();
  for (const key of ['partner\u0000Name', '\ud800', 'x\udc00y']) {
    const res = await api('POST', '/api/business-partner/list', { token, raw: `{"filter":{"crProcessId":1,${JSON.stringify(key)}:1}}` });
    assertInvalid(t, res, 'filter.');
  }
});

test('a body whose bytes are not UTF-8 is 400 SVC-SYS-2001, not stored with replacement characters', async (t) => {
  const { token } = await adminSession();
  const tenant = freshTenant();
  const head = Buffer.from(`{"crProcessId":${tenant},"partnerCode":"${unique('P-')}","partnerType":"CUSTOMER","partnerName":"`, 'utf8');
  for (const bytes of [[0xff], [0xc3], [0xed, 0xa0, 0x80], [0xc0, 0xaf], [0xf8, 0x88, 0x80, 0x80, 0x80]]) {
    const body = Buffer.concat([head, Buffer.from(bytes), Buffer.from('"}')]);
    const res = await rawRequest('POST', '/api/business-partner', { token, body });
    t.is(res.status, 400, `${Buffer.from(bytes).toString('hex')}: ${res.text}`);
    t.is(res.body.error_code, 'SVC-SYS-2001');
  }
  t.is((await api('POST', '/api/business-partner/list', { token, body: { filter: { crProcessId: tenant } } })).body.totalElements, 0);
});

test('__proto__ is an unknown field anywhere in a body, a filter key included', async (t) => {
  const { token } = await adminSession();
  const tenant = freshTenant();
  await createPartner(tenant);
  for (const [path, filter] of [
    ['/api/business-partner/list', `{"crProcessId":${tenant},"__proto__":1}`],
    ['/api/business-partner/list', `{"crProcessId":${tenant},"__proto__":"x"}`],
    ['/api/session/active/list', '{"__proto__":1}'],
    ['/api/logs/exceptions/list', '{"__proto__":true}'],
  ] as const) {
    const res = await api('POST', path, { token, apiKey: true, raw: `{"filter":${filter}}` });
    assertInvalid(t, res, 'filter.__proto__');
  }
  const nested = await api('POST', '/api/user-process', {
    token,
    raw: '{"crProcessId":1,"userCode":"x","userProcessSelects":[{"accountNo":"DEFAULT","__proto__":1}]}',
  });
  assertInvalid(t, nested, 'userProcessSelects[0].__proto__');
});
