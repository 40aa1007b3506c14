/**
 * libs/kit/src/grpc/metadata.ts: a call carries two metadata entries of its own, the token and one
 * CallInfo (docs/adr/0057-call-metadata-travels-as-one-packed.md: each header value a process receives over HTTP/2 is
 * an external string in V8's old generation, which only a mark-compact frees). Checked on the wire:
 * what a grpc-js call made with toMetadata sends beyond grpc-js's own headers, and what a service
 * reads back from it (`full` must name every CallInfo field: a field the service does not read back fails).
 */
import http2, { type IncomingHttpHeaders } from 'node:http2';
import type { AddressInfo } from 'node:net';
import test from 'ava';
import { Client, credentials, Metadata } from '@grpc/grpc-js';
import { callOriginOf, toMetadata, type CallMetadata } from '@platform/kit/grpc/metadata.ts';

/** The HTTP/2 headers a grpc-js unary call with `metadata` arrives with. */
async function sentHeaders(metadata: Metadata): Promise<IncomingHttpHeaders> {
  const server = http2.createServer();
  let received: IncomingHttpHeaders | undefined;
  server.on('stream', (stream, headers) => {
    received = headers;
    stream.respond({ ':status': 200, 'content-type': 'application/grpc' }, { waitForTrailers: true });
    stream.on('wantTrailers', () => stream.sendTrailers({ 'grpc-status': '0' }));
    stream.end(Buffer.from([0, 0, 0, 0, 0]));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const client = new Client(`127.0.0.1:${(server.address() as AddressInfo).port}`, credentials.createInsecure(), { 'grpc.enable_channelz': 0 });
  try {
    await new Promise<void>((resolve, reject) =>
      client.makeUnaryRequest(
        '/platform.test.v1.Probe/Call',
        (x: Buffer) => x,
        (x: Buffer) => x,
        Buffer.alloc(0),
        metadata,
        { deadline: Date.now() + 5_000 },
        (error) => (error ? reject(error) : resolve()),
      ),
    );
  } finally {
    client.close();
    await new Promise((resolve) => server.close(resolve));
  }
  if (!received) throw new Error('no request arrived');
  return received;
}

const full = {
  token: 'header.payload.signature',
  lang: 'tr',
  projectCode: 'PRJ-7',
  httpPath: '/api/branch/42',
  httpMethod: 'GET',
  clientIp: '203.0.113.9',
  userAgent: 'Navigateur/1.0 (\u00e9t\u00e9; \u00ff)',
  requestId: 'req-42.a_b',
  idempotencyKey: 'order-7 retry',
} as const satisfies Required<CallMetadata>;

test('a call carries the token and one CallInfo entry, and nothing else of its own', async (t) => {
  const own = await sentHeaders(new Metadata());
  const sent = await sentHeaders(toMetadata(full));
  const added = Object.keys(sent)
    .filter((name) => !(name in own))
    .sort();
  t.deepEqual(added, ['authorization', 'x-call-info-bin']);
  t.is(sent.authorization, `Bearer ${full.token}`);
});

test('a service reads back every field the gateway sent, the latin1 User-Agent as sent', async (t) => {
  const sent = await sentHeaders(toMetadata(full));
  const origin = callOriginOf(Metadata.fromHttp2Headers(sent));
  const { token: _token, ...fields } = full;
  t.deepEqual(origin, fields);
});

test('what was not given reads as undefined; a long address and User-Agent are cut as the audit rows keep them', (t) => {
  const origin = callOriginOf(toMetadata({ token: 't', lang: 'en', clientIp: '1'.repeat(100), userAgent: 'u'.repeat(5_000) }));
  t.deepEqual(origin, {
    lang: 'en',
    projectCode: undefined,
    httpPath: undefined,
    httpMethod: undefined,
    clientIp: '1'.repeat(64),
    userAgent: 'u'.repeat(1_000),
    requestId: undefined,
    idempotencyKey: undefined,
  });
});

test('a call without a CallInfo, or with bytes that are none, reads as one that gave nothing', (t) => {
  t.deepEqual(callOriginOf(new Metadata()), {});
  const garbage = new Metadata();
  garbage.set('x-call-info-bin', Buffer.from([0xff, 0xff, 0xff, 0xff, 0x0f]));
  t.deepEqual(callOriginOf(garbage), {});
});

test('a field holding NUL reads as not given (PostgreSQL cannot store it in an audit or exception row); the others stay', (t) => {
  const origin = callOriginOf(toMetadata({ token: 't', lang: 'en', clientIp: '10.0.0.1\u0000', userAgent: 'agent\u0000x', projectCode: 'PRJ-1' }));
  t.is(origin.clientIp, undefined);
  t.is(origin.userAgent, undefined);
  t.is(origin.projectCode, 'PRJ-1');
  t.is(origin.lang, 'en');
});

test('each call keeps its own CallInfo bytes: encoding the next call (one writer per process) changes none sent before', (t) => {
  const first = toMetadata(full);
  const bytes = Buffer.from(first.get('x-call-info-bin')[0] as Buffer);
  const second = toMetadata({
    token: 't2',
    lang: 'en',
    httpPath: '/api/x/'.padEnd(300, 'y'),
    userAgent: 'a much longer agent '.repeat(20),
    requestId: 'other',
  });
  t.deepEqual(first.get('x-call-info-bin')[0], bytes);
  const { token: _token, ...fields } = full;
  t.deepEqual(callOriginOf(first), fields);
  t.is(callOriginOf(second).requestId, 'other');
  t.is(callOriginOf(second).httpPath, '/api/x/'.padEnd(300, 'y'));
});
