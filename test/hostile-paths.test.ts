/**
 * Paths and query strings a client made up (decisions.md §6: "SVC-SYS-2001 400 body, parameter or
 * field invalid"): anything that does not percent-decode as UTF-8, a NUL, a parameter the route
 * does not take, one given twice or in array shape is 400 with the error body naming it, never a
 * 5xx.
 */
import test from 'ava';
import { adminSession } from './helpers/factories.ts';
import { assertInvalid } from './helpers/error-body.ts';
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
