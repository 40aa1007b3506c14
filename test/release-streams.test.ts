// libs/kit/src/runtime/patches/release-streams.ts, installed through the patches' entry: once a gRPC
// call has answered, neither its client stream nor its server stream keeps a listener that reaches
// the call (bench/README.md, "Garbage collection").
// Real grpc-js over real HTTP/2 on a loopback port.
import { subscribe } from 'node:diagnostics_channel';
import type { Http2Stream } from 'node:http2';
import { setTimeout as sleep } from 'node:timers/promises';
import test from 'ava';
import { makeGenericClientConstructor, Server, ServerCredentials, credentials, status, type ServiceDefinition, type ServiceError } from '@grpc/grpc-js';
import { installRuntimePatches } from '@platform/kit/runtime/patches/index.ts';

const bytes = { serialize: (value: Buffer) => value, deserialize: (value: Buffer) => value };
const service: ServiceDefinition = {
  echo: {
    path: '/test.Echo/Echo',
    requestStream: false,
    responseStream: false,
    requestSerialize: bytes.serialize,
    requestDeserialize: bytes.deserialize,
    responseSerialize: bytes.serialize,
    responseDeserialize: bytes.deserialize,
  },
};
const EchoClient = makeGenericClientConstructor(service, 'Echo');
type Echo = (request: Buffer, options: { deadline?: number }, callback: (error: ServiceError | null, value?: Buffer) => void) => void;

const closed: { client: Http2Stream[]; server: Http2Stream[] } = { client: [], server: [] };
subscribe('http2.client.stream.close', (message) => closed.client.push((message as { stream: Http2Stream }).stream));
subscribe('http2.server.stream.close', (message) => closed.server.push((message as { stream: Http2Stream }).stream));

let server: Server;
let client: InstanceType<typeof EchoClient>;
let echo: Echo;
let delayMs = 0;

test.before(async () => {
  installRuntimePatches();
  installRuntimePatches(); // a second call subscribes nothing more
  server = new Server();
  server.addService(service, {
    echo: (call: { request: Buffer }, callback: (error: null, value: Buffer) => void) => {
      setTimeout(() => callback(null, call.request), delayMs);
    },
  });
  const port = await new Promise<number>((resolve, reject) =>
    server.bindAsync('127.0.0.1:0', ServerCredentials.createInsecure(), (error, bound) => (error ? reject(error) : resolve(bound))),
  );
  client = new EchoClient(`127.0.0.1:${port}`, credentials.createInsecure());
  echo = (client as unknown as { echo: Echo }).echo.bind(client);
});

test.after.always(() => {
  client?.close();
  server?.forceShutdown();
});

const call = (request: Buffer, deadline?: number): Promise<Buffer> =>
  new Promise((resolve, reject) => echo(request, deadline ? { deadline } : {}, (error, value) => (error ? reject(error) : resolve(value ?? Buffer.alloc(0)))));

/** The listeners left on a stream, by event. */
const listeners = (stream: Http2Stream): Record<string, number> =>
  Object.fromEntries(stream.eventNames().map((name) => [String(name), stream.listenerCount(name)]));

test.serial('a finished call leaves only an inert error listener on its client and server streams', async (t) => {
  closed.client.length = 0;
  closed.server.length = 0;
  delayMs = 0;
  t.deepEqual(await call(Buffer.from('one')), Buffer.from('one'));
  t.deepEqual(await call(Buffer.from('two')), Buffer.from('two'));
  await sleep(20); // the release runs on the immediate after 'close'
  t.is(closed.client.length, 2);
  t.is(closed.server.length, 2);
  for (const stream of [...closed.client, ...closed.server]) {
    t.true(stream.destroyed);
    t.deepEqual(listeners(stream), { error: 1 });
    t.notThrows(() => stream.emit('error', new Error('late')));
  }
});

test.serial('a call cancelled by its deadline while the server still works answers DEADLINE_EXCEEDED, and the late answer harms nothing', async (t) => {
  closed.client.length = 0;
  closed.server.length = 0;
  delayMs = 150;
  const error = await t.throwsAsync(call(Buffer.from('slow'), Date.now() + 30));
  t.is((error as ServiceError).code, status.DEADLINE_EXCEEDED);
  await sleep(250); // the handler answers on a stream that is gone
  delayMs = 0;
  t.deepEqual(await call(Buffer.from('after')), Buffer.from('after'));
  await sleep(20);
  t.true(closed.server.length >= 1);
  for (const stream of [...closed.client, ...closed.server]) t.deepEqual(listeners(stream), { error: 1 });
});
