/**
 * The one-hop reference of bench/branch-get.ts: the baseline's work (bench/baseline-server.ts)
 * split over one @grpc/grpc-js unary call, as the platform splits it between the gateway and a
 * service, and nothing else: no express, no filters, no tokens, no ORM. Its ratio to the baseline
 * is what one gRPC hop alone costs on the machine at hand (the "one grpc-js hop alone
 * measures about 0.35× here"), against which the gateway's own ratio can be read.
 *
 *   HOP_ROLE=back  DATABASE_URL=postgres://… node bench/grpc-hop-server.ts   gRPC: reads the row
 *   HOP_ROLE=front HOP_BACKEND=127.0.0.1:port node bench/grpc-hop-server.ts  HTTP: GET /branch/{id}
 *
 * The **checked hop** is the same pair with the two checks the platform may never skip or defer
 * (bench/README.md "branch-get"), made with the platform's own parts and nothing else:
 *
 *   HOP_LIMITER=redis://…  HOP_LIMITER_PREFIX=…  (front)  before each call, the gateway's token
 *     bucket (gateway/src/limits/token-bucket.ts, one EVALSHA on a connection set up as the
 *     gateway's), RateLimit-* headers on the answer, 429 past the limit
 *   HOP_ACCESS={"userCode","sid","tokenVersion","crProcessId"}  (back)  the row read as bpm-svc
 *     reads it for a get (libs/service-kit/src/auth/access.ts accessReader: the caller's live user, session,
 *     tenant and the role asked, with the row; once kept, the access stamp with the row), 401 / 403
 *     as the service answers
 *
 * A checked process also runs as the platform's processes do: finished HTTP/2 streams released and
 * the shared bind accessor (bench/README.md "Garbage collection"), so that its collector pauses are
 * the platform's and not plain grpc-js's; the plain hop keeps Node's and grpc-js's own behaviour.
 *
 * Both report `{ type: 'ready', name, address }` over IPC once they listen.
 */
import { createServer, type ServerResponse } from 'node:http';
import { Client, credentials, Metadata, Server, ServerCredentials, status, type ServiceError } from '@grpc/grpc-js';
import pg from 'pg';
import { accessReader } from '../libs/service-kit/src/auth/access.ts';
import { holds } from '../libs/service-kit/src/auth/caller.ts';
import { createLogger } from '../libs/kit/src/log/logger.ts';
import { installRuntimePatches } from '../libs/kit/src/runtime/patches/index.ts';
import { clientKey } from '../gateway/src/limits/client-key.ts';
import { connectRedis } from '../gateway/src/limits/redis-connection.ts';
import { setLimitHeaders } from '../gateway/src/middleware/rate-limit.ts';
import { TokenBucketMemory, TokenBucketRedis, TokenBucketRes } from '../gateway/src/limits/token-bucket.ts';
import { SELECT_BRANCH, SELECT_BRANCH_ALONG, toJson, type BranchRow } from './branch-row.ts';

const identity = (bytes: Buffer): Buffer => bytes;
const METHOD = {
  path: '/bench.v1.BranchRead/GetBranch',
  requestStream: false,
  responseStream: false,
  requestSerialize: identity,
  requestDeserialize: identity,
  responseSerialize: identity,
  responseDeserialize: identity,
} as const;

if (process.env.HOP_ACCESS || process.env.HOP_LIMITER) {
  installRuntimePatches();
}

function ready(name: string, address: string): void {
  process.send?.({ type: 'ready', name, address });
  if (!process.send) console.log(`${name} listening on ${address}`);
}

function onStop(stop: () => void): void {
  for (const signal of ['SIGTERM', 'SIGINT'] as const) process.on(signal, stop);
  process.on('disconnect', stop);
}

if (process.env.HOP_ROLE === 'back') {
  const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: Number(process.env.BASELINE_POOL_MAX ?? 10) });
  pool.on('error', (error) => console.error('grpc-hop back: idle client error:', error.message));
  const read = readOf(pool, process.env.HOP_ACCESS);
  const server = new Server({ 'grpc.enable_channelz': 0 });
  server.addService(
    { GetBranch: METHOD },
    {
      GetBranch: (call: { request: Buffer }, callback: (error: Partial<ServiceError> | null, value?: Buffer) => void) => {
        read(call.request.readUInt32BE(0)).then(
          ({ row, refused }) => {
            if (refused) callback(refused);
            else if (row && row.id !== null) callback(null, Buffer.from(JSON.stringify(toJson(row))));
            else callback({ code: status.NOT_FOUND, details: 'branch not found' });
          },
          (error: unknown) => callback({ code: status.INTERNAL, details: error instanceof Error ? error.message : String(error) }),
        );
      },
    },
  );
  server.bindAsync('127.0.0.1:0', ServerCredentials.createInsecure(), (error, port) => {
    if (error) throw error;
    ready('grpc-hop back', `127.0.0.1:${port}`);
  });
  onStop(() => server.tryShutdown(() => void pool.end().finally(() => process.exit(0))));
} else {
  const client = new Client(process.env.HOP_BACKEND ?? '', credentials.createInsecure(), { 'grpc.enable_channelz': 0 });
  const limit = limiterOf(process.env.HOP_LIMITER, process.env.HOP_LIMITER_PREFIX ?? 'bench-hop');
  const PATH = /^\/branch\/([1-9]\d{0,8})$/;
  const server = createServer((req, res) => {
    const match = req.method === 'GET' && req.url ? PATH.exec(req.url) : null;
    const reply = (code: number, body: Buffer | string) => {
      res.writeHead(code, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(body) });
      res.end(body);
    };
    if (!match) return reply(404, '{"message":"not found"}');
    const id = Buffer.alloc(4);
    id.writeUInt32BE(Number(match[1]));
    const call = () =>
      client.makeUnaryRequest(METHOD.path, identity, identity, id, new Metadata(), { deadline: Date.now() + 10_000 }, (error, body) => {
        if (error || !body) reply(httpStatusOf(error?.code), JSON.stringify({ message: error?.details ?? 'empty' }));
        else reply(200, body);
      });
    if (!limit) return call();
    void limit(req.socket.remoteAddress ?? '', res).then((allowed) => (allowed ? call() : reply(429, '{"message":"too many requests"}')));
  });
  server.keepAliveTimeout = 65_000;
  server.headersTimeout = 66_000;
  server.listen(0, '127.0.0.1', () => {
    const address = server.address();
    ready('grpc-hop', `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`);
  });
  onStop(() => {
    setTimeout(() => process.exit(0), 3_000).unref();
    server.close(() => process.exit(0));
    server.closeAllConnections();
    client.close();
  });
}

/** The back's read of a branch: the row, or the status the service would answer instead. */
type BranchRead = (id: number) => Promise<{ row?: BranchRow; refused?: Partial<ServiceError> }>;

/** The back's read: the bare row, or with HOP_ACCESS the row along with the caller's live access. */
function readOf(pool: pg.Pool, access: string | undefined): BranchRead {
  const query = async (statement: { name: string; text: string }, values: unknown[]) =>
    (await pool.query<BranchRow & Record<string, unknown>>({ ...statement, values })).rows;
  if (!access) {
    const statement = { name: 'bench-branch-by-id', text: SELECT_BRANCH };
    return async (id) => ({ row: (await query(statement, [id]))[0] });
  }
  const claims = JSON.parse(access) as { userCode: string; sid: string; tokenVersion: number; crProcessId: number };
  const role = 'branch:read';
  const asked = new Set([role]);
  const read = accessReader(query);
  return async (id) => {
    const live = await read(claims, { roles: asked, along: { name: 'bench-branch-along', text: SELECT_BRANCH_ALONG, values: [id] } });
    if (!live) return { refused: { code: status.UNAUTHENTICATED, details: 'session not live' } };
    if (!holds(live.access, role)) return { refused: { code: status.PERMISSION_DENIED, details: 'role not held' } };
    return { row: live.along as unknown as BranchRow };
  };
}

/** With HOP_LIMITER, the gateway's token bucket in Redis per client address: true when the request may pass. */
function limiterOf(url: string | undefined, keyPrefix: string): ((address: string, res: ServerResponse) => Promise<boolean>) | undefined {
  if (!url) return undefined;
  const points = 100_000_000;
  const options = { points, duration: 60, keyPrefix: `${keyPrefix}:rl:hop` };
  const limiter = new TokenBucketRedis({
    ...options,
    storeClient: connectRedis(url, createLogger('grpc-hop', 'warn'), 'grpc-hop-limit'),
    insuranceLimiter: new TokenBucketMemory(options),
  });
  return (address, res) => {
    const headers = (result: unknown): boolean => {
      if (!(result instanceof TokenBucketRes)) return false;
      setLimitHeaders(res, points, result);
      return true;
    };
    return limiter.consume(clientKey(address)).then(headers, (refusal: unknown) => (headers(refusal), false));
  };
}

function httpStatusOf(code: status | undefined): number {
  if (code === status.NOT_FOUND) return 404;
  if (code === status.UNAUTHENTICATED) return 401;
  if (code === status.PERMISSION_DENIED) return 403;
  return 500;
}
