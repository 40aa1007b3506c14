/**
 * Requests that Node's HTTP parser refuses before the gateway's app sees them: headers over the
 * server's limit, a request line or header that is not HTTP. docs/interface.md#errors: "Every error body is
 * {status: "ERROR", error_code, message}" — these too, on the public port and on the management
 * port: 431 for headers too large and 400 for the rest, with SVC-SYS-2001 (docs/adr/0023-x-project-code-and-requests-node.md).
 */
import test from 'ava';
import type { Platform } from '../scripts/lib/processes.ts';
import { assertErrorBody } from './helpers/error-body.ts';
import { platform } from './helpers/platform.ts';
import { rawExchange } from './helpers/raw-http.ts';
import { startGateway, uniquePrefix } from './helpers/redis.ts';

let managed: Platform;
let management: string;

test.before(async () => {
  // MANAGEMENT_PORT 0: the gateway takes a free port and reports it, so none is picked beforehand
  managed = await startGateway(platform.env, { REDIS_KEY_PREFIX: uniquePrefix('edge-ce'), MANAGEMENT_PORT: '0' });
  management = `http://${managed.metrics.gateway}`;
});

test.after.always(async () => {
  await managed?.stop();
});

const ports = () =>
  [
    ['public', platform.url],
    ['management', management],
  ] as const;

test('headers over the limit are 431 with the error body SVC-SYS-2001, on both ports', async (t) => {
  for (const [name, url] of ports()) {
    const res = await rawExchange(`GET /api/health HTTP/1.1\r\nHost: x\r\nX-Padding: ${'a'.repeat(64 * 1024)}\r\n\r\n`, url);
    assertErrorBody(t, res, 431, 'SVC-SYS-2001');
    t.regex(res.head, /^content-type: application\/json/im, name);
    t.regex(res.head, /^connection: close/im, name);
    t.regex(res.head, /^x-request-id: [0-9a-f-]{36}\r?$/im, `${name}: a new request id (the client's could not be read)`);
  }
});

test('a request that is not HTTP is 400 with the error body SVC-SYS-2001, on both ports', async (t) => {
  for (const [name, url] of ports()) {
    for (const bytes of [
      'GET /a b c HTTP/1.1\r\nHost: x\r\n\r\n',
      'GET /api/health HTTP/1.1\r\nHost: x\r\nBad Header\r\n\r\n',
      'GET /api/health HTTP/1.1\r\nHost: x\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\n',
      Buffer.from('GET /api/\xff HTTP/1.1\r\nHost: x\r\n\r\n', 'latin1'),
      '\u0000\u0001\u0002\r\n\r\n',
    ]) {
      const res = await rawExchange(bytes, url);
      assertErrorBody(t, res, 400, 'SVC-SYS-2001');
      t.regex(res.head, /^content-type: application\/json/im, `${name}: ${JSON.stringify(String(bytes))}`);
    }
  }
});

test('a chunked body that breaks off into something that is not HTTP is 400 with the error body while its request waits for it', async (t) => {
  const res = await rawExchange(
    'POST /api/health HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n2\r\n{}\r\nzz\r\n',
  );
  assertErrorBody(t, res, 400, 'SVC-SYS-2001');
});
