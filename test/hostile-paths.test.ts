/**
 * Paths and query strings a client made up (docs/interface.md#errors: "SVC-SYS-2001 400 body, parameter or
 * field invalid"): anything that does not percent-decode as UTF-8, a NUL, a parameter the route
 * does not take, one given twice or in array shape is 400 with the error body naming it, never a
 * 5xx.
 */
import test from 'ava';
import { adminSession, createPartner, freshTenant, unique } from './helpers/factories.ts';
import { assertErrorBody, assertInvalid } from './helpers/error-body.ts';
import { api } from './helpers/platform.ts';
import { rawRequest } from './helpers/raw-http.ts';

test('a path that does not percent-decode as UTF-8 is 400 SVC-SYS-2001, whatever the route', async (t) => {
  const { token } = await adminSession();
  for (const path of [
    '/api/account/%FF',
    '/api/account/%E0%A4%A',
    '/api/branch/%C0%AF',
    '/api/business-partner/1%ED%A0%80',
    '/api/branch/by-partner/%FF',
    '/api/%FF',
    '/api/branch/%',
  ]) {
    assertInvalid(t, await rawRequest('GET', path, { token }), 'path');
    assertInvalid(t, await rawRequest('DELETE', path, { token }), 'path');
  }
  for (const path of ['/api/session/%FF', '/api/logs/exceptions/%E0%A4%A']) {
    assertInvalid(t, await rawRequest('GET', path, { apiKey: true }), 'path');
  }
  // before any credential is asked for: the request is not one the gateway can read
  assertInvalid(t, await rawRequest('GET', '/api/account/%FF'), 'path');
});

test('a NUL in a path parameter is 400 SVC-SYS-2001 at the gateway', async (t) => {
  const { token } = await adminSession();
  assertInvalid(t, await rawRequest('GET', '/api/account/A%00B', { token }), 'path');
  assertInvalid(t, await rawRequest('GET', '/api/session/%00', { apiKey: true }), 'path');
});

test('a query string that does not percent-decode, or holds a NUL, is 400 SVC-SYS-2001 naming the parameter', async (t) => {
  const { token } = await adminSession();
  assertInvalid(t, await rawRequest('GET', '/api/business-partner/stats?crProcessId=%FF', { token }), 'crProcessId');
  assertInvalid(t, await rawRequest('GET', '/api/business-partner/stats?%FF=1', { token }), 'query');
  assertInvalid(t, await rawRequest('GET', '/api/session/history/list?userCode=a%00b', { apiKey: true }), 'userCode');
  assertInvalid(t, await rawRequest('GET', '/api/session/history/list?userCode=%ED%A0%80', { apiKey: true }), 'userCode');
});

test('stats takes crProcessId alone: an array-shaped, repeated or unknown parameter is 400, not a count of every tenant', async (t) => {
  const { token } = await adminSession();
  const tenant = freshTenant();
  await createPartner(tenant);
  // docs/interface.md#crud "all tenants for a super user unless ?crProcessId= narrows it": a key that is
  // almost crProcessId must not silently widen the count to every tenant
  assertInvalid(t, await api('GET', `/api/business-partner/stats?crProcessId[]=${tenant}`, { token }), 'crProcessId[]');
  assertInvalid(t, await api('GET', `/api/business-partner/stats?crProcessId[0]=${tenant}`, { token }), 'crProcessId[0]');
  assertInvalid(t, await api('GET', `/api/business-partner/stats?crProcessId=${tenant}&crProcessId=${tenant}`, { token }), 'crProcessId');
  assertInvalid(t, await api('GET', `/api/business-partner/stats?crProcessId=${tenant}&tenant=${tenant}`, { token }), 'tenant');
  assertInvalid(t, await api('GET', `/api/business-partner/stats?__proto__=${tenant}`, { token }), '__proto__');
  const narrowed = await api('GET', `/api/business-partner/stats?crProcessId=${tenant}`, { token });
  t.is(narrowed.status, 200, narrowed.text);
  t.like(narrowed.body, { totalCount: 1, activeCount: 1, passiveCount: 0 });
});

test('session history takes page, size, userCode, from and to alone, each once', async (t) => {
  for (const query of ['unknown=1', 'size[]=5', 'page=0&page=1', 'userCode[a]=x', 'from=2020-01-01T00:00:00Z&from=2021-01-01T00:00:00Z']) {
    const name = query.split('=')[0] ?? '';
    assertInvalid(t, await api('GET', `/api/session/history/list?${query}`, { apiKey: true }), name);
  }
  const ok = await api('GET', `/api/session/history/list?page=0&size=5&userCode=${unique('nobody-')}&from=2020-01-01T00:00:00Z&to=2999-01-01T00:00:00Z`, {
    apiKey: true,
  });
  t.is(ok.status, 200, ok.text);
  t.is(ok.body.totalElements, 0);
});

test('the statistics of a resource without them stay 404, whatever the query', async (t) => {
  const { token } = await adminSession();
  assertErrorBody(t, await api('GET', '/api/group-member/stats?crProcessId=1', { token }), 404, 'SVC-SYS-4001');
});
