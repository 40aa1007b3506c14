/**
 * validate-password's body under the rules of every JSON body of the platform
 * (docs/adr/0061-what-a-request-body-may-be.md: "A JSON body is UTF-8 … bytes that are not UTF-8 are 400 SVC-SYS-2001",
 * "a body that does not decode as its encoding says is 400", "a NUL character or a lone surrogate
 * is 400"; "Share links: public access"). dms-svc reads that body itself (the gateway hands it on
 * unread), with the gateway's reader (libs/kit/src/http/read-json-body.ts). Each such body is 400
 * SVC-SYS-2001, never a judged wrong password: no 403, no PASSWORD_FAIL row, nothing counted by the
 * throttle (the sixth wrong password within 15 minutes would be 429).
 */
import { gzipSync } from 'node:zlib';
import test from 'ava';
import { assertErrorBody, assertInvalid } from './helpers/error-body.ts';
import { sql } from './helpers/db.ts';
import { sharedWithPassword } from './helpers/files.ts';
import { rawRequest } from './helpers/raw-http.ts';
import { noteSecret } from './helpers/used-secrets.ts';

async function linkWithPassword() {
  const { crProcessId, link, password } = await sharedWithPassword((crProcessId) => `pw-${crProcessId}-open`);
  noteSecret(password);
  return { crProcessId, link, password, path: `${link.url}/validate-password` };
}

const json = (text: string) => Buffer.from(text, 'utf8');

test('bodies the platform refuses are 400 SVC-SYS-2001 at validate-password, not wrong passwords; none counts in the throttle', async (t) => {
  const { crProcessId, password, path } = await linkWithPassword();
  const cases: { label: string; headers: Record<string, string>; body: Buffer; names?: string }[] = [
    { label: 'bytes that are not UTF-8', headers: {}, body: Buffer.concat([json('{"password":"'), Buffer.from([0xff, 0xfe, 0x41]), json('"}')]) },
    { label: 'an encoded surrogate', headers: {}, body: Buffer.concat([json('{"password":"'), Buffer.from([0xed, 0xa0, 0x80]), json('"}')]) },
    { label: 'a Content-Encoding the body is not', headers: { 'content-encoding': 'gzip' }, body: json(`{"password":"${password}"}`) },
    { label: 'an unknown Content-Encoding', headers: { 'content-encoding': 'compress' }, body: json(`{"password":"${password}"}`), names: 'Content-Encoding' },
    {
      label: 'two Content-Encodings',
      headers: { 'content-encoding': 'gzip, br' },
      body: gzipSync(json(`{"password":"${password}"}`)),
      names: 'Content-Encoding',
    },
    { label: 'Content-Type text/plain', headers: { 'content-type': 'text/plain' }, body: json(`{"password":"${password}"}`) },
    {
      label: 'a charset other than UTF-8',
      headers: { 'content-type': 'application/json; charset=latin1' },
      body: json(`{"password":"${password}"}`),
      names: 'Content-Type',
    },
    { label: 'a NUL in the password', headers: {}, body: json('{"password":"wrong\\u0000pass"}'), names: 'password' },
    { label: 'a lone surrogate in the password', headers: {}, body: json('{"password":"wrong\\ud800"}'), names: 'password' },
    { label: 'a NUL in a key', headers: {}, body: json('{"pass\\u0000word":"x"}') },
    { label: '__proto__', headers: {}, body: json('{"password":"x","__proto__":{}}'), names: '__proto__' },
  ];
  for (const c of cases) {
    const res = await rawRequest('POST', path, { headers: c.headers, body: c.body });
    if (c.names) assertInvalid(t, res, c.names);
    else assertErrorBody(t, res, 400, 'SVC-SYS-2001');
    t.is(res.status, 400, `${c.label}: ${res.text}`);
  }
  // eleven refused bodies, more than the five wrong tries the throttle allows: the right password still passes
  const right = await rawRequest('POST', path, { body: json(`{"password":"${password}"}`) });
  t.is(right.status, 200, right.text);
  const judged = await sql<{ action: string }>("select action from dms.dms_audit_log where cr_process_id = $1 and action like 'PASSWORD_%' order by id", [
    crProcessId,
  ]);
  t.deepEqual(
    judged.map((row) => row.action),
    ['PASSWORD_OK'],
    'a refused body is not a judged password',
  );
});

test('a body over 4 KiB is 413 SVC-SYS-3001, as any JSON body over its limit; a gzip body is decoded and judged', async (t) => {
  const { password, path } = await linkWithPassword();
  assertErrorBody(t, await rawRequest('POST', path, { body: json(`{"password":"${'x'.repeat(5000)}"}`) }), 413, 'SVC-SYS-3001');
  const zipped = await rawRequest('POST', path, { headers: { 'content-encoding': 'gzip' }, body: gzipSync(json(`{"password":"${password}"}`)) });
  t.is(zipped.status, 200, zipped.text);
  t.is(zipped.body.valid, true);
  const wrong = await rawRequest('POST', path, { headers: { 'content-encoding': 'gzip' }, body: gzipSync(json('{"password":"not the one"}')) });
  t.is(wrong.status, 403, wrong.text);
  t.is(wrong.body.error_code, 'SVC-SYS-3005');
});
