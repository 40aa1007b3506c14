/**
 * The gateway's download relay (gateway/src/relay/download-relay.ts): file bytes from dms-svc to the
 * client through a few reusable buffers. Against the real platform: a download far larger than the
 * relay's buffers, read by a client that keeps stopping, arrives byte-exact. Against a dms-svc that
 * is gone or answers what it never should (a test's own TCP server standing in for DMS_HTTP_ADDR): the
 * error body of docs/interface.md#errors with 503 SVC-SYS-5002 while nothing was sent, and a cut-off
 * response (never a short body passed off as whole) once the head has gone out. And the proxy of
 * bodies (gateway/src/relay/dms-proxy.ts): a body it could not hand on leaves the client's
 * connection answering its next request.
 */
import { createHash, randomBytes } from 'node:crypto';
import { Agent, request } from 'node:http';
import { createServer, type Server, type Socket } from 'node:net';
import test from 'ava';
import { startPlatform } from '../scripts/lib/processes.ts';
import { freePort } from '../scripts/lib/os-probes.ts';
import { assertErrorBody } from './helpers/error-body.ts';
import { adminSession } from './helpers/factories.ts';
import { signDownload, upload } from './helpers/files.ts';
import { exceptionEntry } from './helpers/exception-entry.ts';
import { api, platform } from './helpers/platform.ts';
import { suiteLog } from './helpers/suite-log.ts';
import { READY_STUB } from './helpers/stand-in.ts';

const SIGNED = (id: number) => {
  const expires = Math.floor(Date.now() / 1000) + 600;
  return `/api/dms-file/download/${id}?token=${signDownload(id, expires, false)}&expires=${expires}&inline=false`;
};

test('a 12 MiB download read by a client that pauses every MiB arrives byte-exact through the relay', async (t) => {
  const { token } = await adminSession();
  const content = randomBytes(12 * 1024 * 1024);
  const uploaded = await upload({ token, crProcessId: 1, content, fileName: 'slow-reader.bin', type: 'application/octet-stream' });
  t.is(uploaded.status, 200, uploaded.text);
  const received = await new Promise<{ status: number; bytes: number; sha256: string }>((resolve, reject) => {
    request(`${platform.url}${SIGNED(uploaded.body.fileId)}`, (res) => {
      const hash = createHash('sha256');
      let bytes = 0;
      let nextPause = 1024 * 1024;
      res.on('data', (chunk: Buffer) => {
        hash.update(chunk);
        bytes += chunk.length;
        if (bytes >= nextPause) {
          // every buffer of the relay fills up meanwhile, and it must stop reading dms-svc, then go on
          nextPause += 1024 * 1024;
          res.pause();
          setTimeout(() => res.resume(), 60);
        }
      });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, bytes, sha256: hash.digest('hex') }));
      res.on('error', reject);
    })
      .on('error', reject)
      .end();
  });
  t.is(received.status, 200);
  t.is(received.bytes, content.length);
  t.is(received.sha256, createHash('sha256').update(content).digest('hex'));
});

/** A gateway whose DMS_HTTP_ADDR is `port` (the other services: the suite's own). */
async function gatewayWithDmsAt(port: number) {
  return startPlatform({
    env: { ...platform.env, GATEWAY_PORT: '0', DMS_HTTP_ADDR: `127.0.0.1:${port}` },
    entries: { 'core-svc': READY_STUB, 'bpm-svc': READY_STUB, 'dms-svc': READY_STUB },
    log: suiteLog(),
  });
}

/** A TCP server that answers every connection, once its request head has arrived, with `answer`. */
async function fakeDms(answer: (socket: Socket) => void): Promise<{ server: Server; port: number }> {
  const server = createServer((socket) => {
    let head = '';
    socket.on('data', (chunk) => {
      head += chunk.toString('latin1');
      if (head.includes('\r\n\r\n')) answer(socket);
    });
    socket.on('error', () => undefined);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  return { server, port: typeof address === 'object' && address ? address.port : 0 };
}

test('dms-svc unreachable: a download, a public share-link GET and validate-password are 503 SVC-SYS-5002 with the error body and a refId the gateway logged', async (t) => {
  const gateway = await gatewayWithDmsAt(await freePort());
  try {
    const requests: [string, string, unknown][] = [
      ['GET', SIGNED(1), undefined],
      ['GET', '/api/dms-share-link/public/some-token', undefined],
      ['POST', '/api/dms-share-link/public/some-token/validate-password', { password: 'not-the-one' }],
    ];
    for (const [method, path, body] of requests) {
      const res = await api(method, path, { baseUrl: gateway.url, body });
      // decisions §6: "Every error body is {status: "ERROR", error_code, message} (and refId on 5xx)"
      assertErrorBody(t, res, 503, 'SVC-SYS-5002');
      t.regex(String(res.body.refId), /^[0-9a-f-]{36}$/, `${method} ${path}: ${res.text}`);
      const entry = await exceptionEntry(res.body.refId);
      t.is(entry.status, 200, `${method} ${path}: the exception log holds ${res.body.refId}`);
      t.like(entry.body, { service: 'gateway', errorCode: 'SVC-SYS-5002', method });
    }
  } finally {
    await gateway.stop();
  }
});

const BROKEN_ANSWERS: Record<string, string> = {
  'a malformed status line': 'HTTP/1.1 OK\r\ncontent-length: 0\r\n\r\n',
  'a header line without a colon': 'HTTP/1.1 200 OK\r\ncontent-length: 2\r\nbroken\r\n\r\nhi',
  'chunked framing, which dms-svc never sends': 'HTTP/1.1 200 OK\r\ntransfer-encoding: chunked\r\n\r\n2\r\nhi\r\n0\r\n\r\n',
  'two different content-lengths': 'HTTP/1.1 200 OK\r\ncontent-length: 2\r\ncontent-length: 3\r\n\r\nhi',
  'an interim 100 Continue': 'HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 200 OK\r\ncontent-length: 2\r\n\r\nhi',
  'a head that never ends': `HTTP/1.1 200 OK\r\nx-filler: ${'a'.repeat(20_000)}\r\n`,
  'nothing at all before closing': '',
};

for (const [what, bytes] of Object.entries(BROKEN_ANSWERS)) {
  test(`dms-svc answering ${what}: the download is 503 SVC-SYS-5002 with the error body`, async (t) => {
    const fake = await fakeDms((socket) => socket.end(bytes, 'latin1'));
    const gateway = await gatewayWithDmsAt(fake.port);
    try {
      const res = await api('GET', SIGNED(7), { baseUrl: gateway.url });
      t.is(res.status, 503, res.text);
      t.is(res.body.error_code, 'SVC-SYS-5002');
    } finally {
      await gateway.stop();
      fake.server.close();
    }
  });
}

test('dms-svc closing after part of the announced body: the client sees the response cut off, not a short file', async (t) => {
  const fake = await fakeDms((socket) =>
    socket.end('HTTP/1.1 200 OK\r\ncontent-type: application/octet-stream\r\ncontent-length: 1000\r\n\r\n' + 'x'.repeat(400), 'latin1'),
  );
  const gateway = await gatewayWithDmsAt(fake.port);
  try {
    const outcome = await new Promise<string>((resolve) => {
      request(`${gateway.url}${SIGNED(7)}`, (res) => {
        let bytes = 0;
        res.on('data', (chunk: Buffer) => (bytes += chunk.length));
        res.on('end', () => resolve(`ended whole after ${bytes} bytes`));
        res.on('aborted', () => resolve(`cut off after ${bytes} bytes`));
        res.on('error', () => resolve(`cut off after ${bytes} bytes`));
      })
        .on('error', (error) => resolve(`request failed: ${error.message}`))
        .end();
    });
    t.is(outcome, 'cut off after 400 bytes');
  } finally {
    await gateway.stop();
    fake.server.close();
  }
});

test('the relay hands dms-svc the client address it proved and drops hop-by-hop fields', async (t) => {
  let seen = '';
  const fake = await fakeDms((socket) => socket.end('HTTP/1.1 200 OK\r\ncontent-length: 2\r\nconnection: keep-alive\r\nx-from-dms: yes\r\n\r\nok'));
  fake.server.on('connection', (socket) => socket.on('data', (chunk) => (seen += chunk.toString('latin1'))));
  const gateway = await gatewayWithDmsAt(fake.port);
  try {
    // node:http, not fetch: fetch refuses to send a Keep-Alive field
    const res = await new Promise<{ status: number; text: string; headers: Record<string, unknown> }>((resolve, reject) => {
      request(
        `${gateway.url}${SIGNED(7)}`,
        { headers: { 'x-forwarded-for': '203.0.113.9', 'keep-alive': 'timeout=5', 'user-agent': 'relay-test' } },
        (answer) => {
          let text = '';
          answer.on('data', (chunk: Buffer) => (text += chunk.toString('latin1')));
          answer.on('end', () => resolve({ status: answer.statusCode ?? 0, text, headers: answer.headers }));
        },
      )
        .on('error', reject)
        .end();
    });
    t.is(res.status, 200);
    t.is(res.text, 'ok');
    t.is(res.headers['x-from-dms'], 'yes');
    const head = seen.toLowerCase();
    t.regex(head, /^get \/api\/dms-file\/download\/7\?token=/);
    t.regex(head, /\r\nx-forwarded-for: (::ffff:)?127\.0\.0\.1\r\n/, "one address: the peer the gateway saw, not the client's header");
    t.false(head.includes('203.0.113.9'));
    t.false(head.includes('keep-alive: timeout'));
    t.true(head.includes('\r\nconnection: close\r\n'));
    t.true(head.includes('\r\nuser-agent: relay-test\r\n'));
  } finally {
    await gateway.stop();
    fake.server.close();
  }
});

/**
 * Two requests in turn on one kept-alive connection (an Agent of one socket): the first a POST of
 * `bytes`, then a GET; each outcome, or 'no answer' after `waitMs`.
 */
async function postThenGet(baseUrl: string, post: string, bytes: Buffer, get: string, waitMs: number): Promise<string[]> {
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  const one = (method: string, path: string, body?: Buffer) =>
    new Promise<string>((resolve) => {
      const timer = setTimeout(() => resolve(`${method}: no answer within ${waitMs} ms`), waitMs);
      const req = request(
        `${baseUrl}${path}`,
        { method, agent, headers: body ? { 'content-type': 'application/json', 'content-length': String(body.length) } : {} },
        (res) => {
          res.resume();
          res.on('end', () => {
            clearTimeout(timer);
            resolve(`${method}: ${res.statusCode}`);
          });
        },
      );
      req.on('error', (error) => {
        clearTimeout(timer);
        resolve(`${method}: ${error.message}`);
      });
      req.end(body);
    });
  try {
    return [await one('POST', post, bytes), await one('GET', get)];
  } finally {
    agent.destroy();
  }
}

test('a body the proxy could not hand on to dms-svc: its answer is 503, and the connection it came on answers the next request', async (t) => {
  // dms-svc's connection cut once the request's head has arrived (a replica killed): the proxy fails
  // with the body under way, and reads no more of it
  const fake = await fakeDms((socket) => socket.destroy());
  const gateway = await gatewayWithDmsAt(fake.port);
  try {
    const body = Buffer.from(JSON.stringify({ password: 'x'.repeat(512 * 1024) }));
    const outcomes = await postThenGet(
      gateway.url,
      '/api/dms-share-link/public/some-token/validate-password',
      body,
      '/api/dms-share-link/public/some-token',
      10_000,
    );
    t.deepEqual(outcomes, ['POST: 503', 'GET: 503']);
  } finally {
    await gateway.stop();
    fake.server.close();
  }
});
