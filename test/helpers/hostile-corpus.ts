/**
 * Hostile input for the fuzz test: what a careless or malicious client sends in a path parameter,
 * a query string, a header or a body, and the wrong JSON types of each field kind of a resource
 * declaration (libs/kit/src/resource/resource.ts).
 */
import type { FieldSpec } from '@platform/kit/resource/resource.ts';

/** Path parameter values, as they go on the wire (already percent-encoded where they are). */
export const PATH_VALUES: readonly string[] = [
  '%FF',
  '%E0%A4%A',
  '%ED%A0%80',
  '%C0%AF',
  '%00',
  'a%00b',
  '%',
  '-1',
  '0',
  '1.5',
  '1e3',
  '0x10',
  '99999999999999999999',
  '9007199254740993',
  '__proto__',
  'constructor',
  '%2e%2e',
  '..%2f..%2fetc%2fpasswd',
  '%C3%A9%F0%9F%94%91',
  '%27%20or%201%3D1--',
  'x'.repeat(3000),
];

/** Query strings (after the `?`), as they go on the wire. */
export const QUERY_STRINGS: readonly string[] = [
  '%FF=1',
  'a=%FF',
  'a=%00',
  '%00=1',
  'a=%',
  'userCode=%ED%A0%80',
  'crProcessId[]=1',
  'crProcessId[a]=1',
  'crProcessId=1&crProcessId=2',
  '__proto__=1',
  'constructor=1',
  'unknown=1',
  'crProcessId=-1',
  'crProcessId=99999999999999999999',
  'page=-1&size=99999999999',
  'from=not-a-date&to=%C3%A9',
  '&&&=&=',
];

/** Header sets, each sent with the body `{}`. */
export const HEADER_SETS: readonly Record<string, string>[] = [
  { 'x-project-code': 'PRJ-é' },
  { 'x-project-code': 'PRJ\t7' },
  { 'x-project-code': 'PRJ-\u00ff' },
  { 'x-project-code': 'x'.repeat(101) },
  { 'content-encoding': 'gzip' },
  { 'content-encoding': 'br' },
  { 'content-encoding': 'deflate' },
  { 'content-encoding': 'zstd' },
  { 'content-encoding': 'compress' },
  { 'content-encoding': 'gzip, br' },
  { 'content-type': 'application/json; charset=latin1' },
  { 'content-type': 'application/json; charset=utf-16le' },
  { 'content-type': 'application/json; charset=utf-7' },
  { 'content-type': 'text/plain' },
  { 'content-type': 'multipart/form-data; boundary=x' },
  { 'accept-language': `${'ü'.repeat(500)}, tr;q=\u00ff` },
  { cookie: 'SVC_SESSION=%FF%00; SVC_SESSION=\u00ff' },
];

/** A value nested `depth` arrays deep. */
const deepArray = (depth: number) => `${'['.repeat(depth)}${']'.repeat(depth)}`;
const deepObject = (depth: number) => `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`;

/** Bodies, sent with `Content-Type: application/json`. */
export const BODIES: readonly (string | Buffer)[] = [
  '{"a":"\\u0000"}',
  '{"a\\u0000":1}',
  '{"a":"\\ud800"}',
  '{"\\udc00":1}',
  '{"filter":{"crProcessId":1,"x\\ud800":1},"sorts":[{"field":"\\u0000"}]}',
  '{"filter":{"crProcessId":1,"ünvan":1},"sorts":[{"field":"名前"}]}',
  '{"__proto__":{"superUser":true}}',
  '{"filter":{"crProcessId":1,"__proto__":1}}',
  '{"constructor":{"prototype":{"polluted":true}}}',
  deepArray(5000),
  deepObject(5000),
  `{"filter":${deepObject(40)}}`,
  '[]',
  '"text"',
  '1',
  'null',
  'true',
  '',
  'nul',
  '{"a":1}}',
  Buffer.from([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xff, 0xfe, 0x22, 0x7d]),
  Buffer.from([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xed, 0xa0, 0x80, 0x22, 0x7d]),
  '{"a":1e400,"b":-1e400}',
  '{"page":-1,"size":1e300,"filter":{"crProcessId":-9007199254740993}}',
  '{"page":"0","size":"20","filter":{"crProcessId":"1","status":"true"}}',
  '{"crProcessId":1.5,"version":"0","status":"false","id":"1"}',
  '{"userCode":["admin"],"password":{"$ne":""},"languageCode":"en"}',
  '{"accountNo":{"$gt":""},"currentPassword":1,"newPassword":[]}',
  `{"x":"${'y'.repeat(300_000)}"}`,
  `{${Array.from({ length: 2000 }, (_, i) => `"k${i}":${i}`).join(',')}}`,
];

/**
 * JSON values of the wrong type for a field of `spec`'s kind: each must be refused with 400
 * SVC-SYS-2001 naming the field, on create, update and as a list filter (docs/interface.md#records: numbers
 * are numbers, booleans booleans; only decimals take a number or a string).
 */
export function wrongValues(spec: FieldSpec): unknown[] {
  switch (spec.kind) {
    case 'string':
    case 'text':
      return [1, true, {}, ['a']];
    case 'enum':
      return [1, true, 'NO-SUCH-VALUE', {}];
    case 'date':
      return [20240101, true, '2024-02-30', '01.01.2024'];
    case 'datetime':
      return [1_700_000_000, true, 'yesterday', '2024-01-01'];
    case 'long':
    case 'int':
      return ['1', '', 1.5, 2 ** 60, true, {}, [1]];
    case 'boolean':
      return ['true', 'false', 1, 0, {}];
    case 'decimal':
      return [true, {}, [], '1e5', 'NaN', '12,5', '0x10'];
    case 'objects':
      return ['x', 1, {}, [1], ['x'], [{ unknown: 'x' }]];
    case 'strings':
      return ['x', 1, {}, [1], [{}], [null]];
  }
}
