/**
 * gateway/src/unary-call.ts: a unary call made on the channel's createCall, without grpc-js's Client,
 * answers as the Client's makeUnaryRequest would: the response, or a ServiceError with the call's
 * code, details and metadata; INTERNAL for a request that does not serialise or a response that does
 * not parse; UNIMPLEMENTED for an OK without a response; DEADLINE_EXCEEDED at the deadline. Against
 * a real grpc-js server and, for the answer a grpc-js server cannot give, a bare HTTP/2 one.
 */
import http2 from 'node:http2';
import type { AddressInfo } from 'node:net';
import test from 'ava';
import { Channel, credentials, Metadata, Server, ServerCredentials, status, type sendUnaryData, type ServerUnaryCall, type ServiceError } from '@grpc/grpc-js';
import { unaryCall, type UnaryMethod } from '../gateway/src/unary-call.ts';

const text = (value: string) => Buffer.from(value, 'utf8');
const echo: UnaryMethod<string, string> = {
  path: '/platform.test.v1.Probe/Echo',
  requestSerialize: text,
  responseDeserialize: (bytes) => bytes.toString('utf8'),
};

/** A grpc-js server whose Echo answers `hello <request>`, fails with the code a request names (`fail:<code>`), or never answers (`hang`). */
async function grpcServer(): Promise<{ address: string; close: () => void }> {
  const server = new Server({ 'grpc.enable_channelz': 0 });
  server.register<Buffer, Buffer>(
    echo.path,
    (call: ServerUnaryCall<Buffer, Buffer>, callback: sendUnaryData<Buffer>) => {
      const request = call.request.toString('utf8');
      if (request === 'hang') return;
      const failing = /^fail:(\d+)$/.exec(request);
      if (!failing) return callback(null, text(`hello ${request}`));
      const metadata = new Metadata();
      metadata.set('x-error-code', 'SVC-SYS-4001');
      callback({ code: Number(failing[1]), details: 'no such record', metadata });
    },
    (bytes) => bytes,
    (bytes) => bytes,
    'unary',
  );
  const port = await new Promise<number>((resolve, reject) =>
    server.bindAsync('127.0.0.1:0', ServerCredentials.createInsecure(), (error, bound) => (error ? reject(error) : resolve(bound))),
  );
  return { address: `127.0.0.1:${port}`, close: () => server.forceShutdown() };
}

/** A bare HTTP/2 server answering every call with grpc-status 0 and `frames` as the body (a grpc-js server cannot answer OK without a message). */
async function bareServer(frames: Buffer): Promise<{ address: string; close: () => Promise<unknown> }> {
  const server = http2.createServer();
  server.on('stream', (stream) => {
    stream.respond({ ':status': 200, 'content-type': 'application/grpc' }, { waitForTrailers: true });
    stream.on('wantTrailers', () => stream.sendTrailers({ 'grpc-status': '0' }));
    stream.end(frames);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { address: `127.0.0.1:${(server.address() as AddressInfo).port}`, close: () => new Promise((resolve) => server.close(resolve)) };
}

const soon = () => Date.now() + 5_000;

/** Runs `use` with a channel to `server` (grpcServer's unless given), then closes both. */
async function withChannel<T>(use: (channel: Channel) => Promise<T>, server?: Promise<{ address: string; close: () => unknown }>): Promise<T> {
  const peer = await (server ?? grpcServer());
  const channel = new Channel(peer.address, credentials.createInsecure(), { 'grpc.enable_channelz': 0 });
  try {
    return await use(channel);
  } finally {
    channel.close();
    await peer.close();
  }
}

test('the response, and the status code heard by `ended`', async (t) => {
  const heard: number[] = [];
  await withChannel(async (channel) => {
    t.is(await unaryCall(channel, echo, 'world', new Metadata(), soon(), (code) => heard.push(code)), 'hello world');
    t.deepEqual(heard, [status.OK]);
  });
});

test("a service's error is a ServiceError with its code, details and metadata", async (t) => {
  const heard: number[] = [];
  await withChannel(async (channel) => {
    const error = await t.throwsAsync<ServiceError>(unaryCall(channel, echo, `fail:${status.NOT_FOUND}`, new Metadata(), soon(), (code) => heard.push(code)));
    t.is(error?.code, status.NOT_FOUND);
    t.is(error?.details, 'no such record');
    t.is(error?.message, '5 NOT_FOUND: no such record');
    t.deepEqual(error?.metadata.get('x-error-code'), ['SVC-SYS-4001']);
    t.deepEqual(heard, [status.NOT_FOUND]);
  });
});

test('a request that does not serialise fails INTERNAL, and a response that does not parse too', async (t) => {
  await withChannel(async (channel) => {
    const unserialisable: UnaryMethod<string, string> = {
      ...echo,
      requestSerialize: () => {
        throw new Error('not a message');
      },
    };
    const sent = await t.throwsAsync<ServiceError>(unaryCall(channel, unserialisable, 'world', new Metadata(), soon()));
    t.is(sent?.code, status.INTERNAL);
    t.is(sent?.details, 'Request message serialization failure: not a message');
    const unparsable: UnaryMethod<string, string> = {
      ...echo,
      responseDeserialize: () => {
        throw new Error('truncated');
      },
    };
    const received = await t.throwsAsync<ServiceError>(unaryCall(channel, unparsable, 'world', new Metadata(), soon()));
    t.is(received?.code, status.INTERNAL);
    t.is(received?.details, 'Response message parsing error: truncated');
  });
});

test('a call still unanswered at its deadline fails DEADLINE_EXCEEDED', async (t) => {
  await withChannel(async (channel) => {
    const error = await t.throwsAsync<ServiceError>(unaryCall(channel, echo, 'hang', new Metadata(), Date.now() + 200));
    t.is(error?.code, status.DEADLINE_EXCEEDED);
  });
});

test('an OK without a response fails UNIMPLEMENTED', async (t) => {
  await withChannel(
    async (channel) => {
      const error = await t.throwsAsync<ServiceError>(unaryCall(channel, echo, 'world', new Metadata(), soon()));
      t.is(error?.code, status.UNIMPLEMENTED);
      t.is(error?.details, 'No message received');
    },
    bareServer(Buffer.alloc(0)),
  );
});
