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
 * Both report `{ type: 'ready', name, address }` over IPC once they listen.
 */
import { createServer } from 'node:http';
import { Client, credentials, Metadata, Server, ServerCredentials, status, type ServiceError } from '@grpc/grpc-js';
import pg from 'pg';
import { SELECT_BRANCH, toJson, type BranchRow } from './branch-row.ts';

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
  const server = new Server({ 'grpc.enable_channelz': 0 });
  server.addService({ GetBranch: METHOD }, {
    GetBranch: (call: { request: Buffer }, callback: (error: Partial<ServiceError> | null, value?: Buffer) => void) => {
      pool.query<BranchRow>({ name: 'bench-branch-by-id', text: SELECT_BRANCH, values: [call.request.readUInt32BE(0)] }).then(
        (result) => {
          const row = result.rows[0];
          if (row) callback(null, Buffer.from(JSON.stringify(toJson(row))));
          else callback({ code: status.NOT_FOUND, details: 'branch not found' });
        },
        (error: unknown) => callback({ code: status.INTERNAL, details: error instanceof Error ? error.message : String(error) }),
      );
    },
  });
  server.bindAsync('127.0.0.1:0', ServerCredentials.createInsecure(), (error, port) => {
    if (error) throw error;
    ready('grpc-hop back', `127.0.0.1:${port}`);
  });
  onStop(() => server.tryShutdown(() => void pool.end().finally(() => process.exit(0))));
} else {
  const client = new Client(process.env.HOP_BACKEND ?? '', credentials.createInsecure(), { 'grpc.enable_channelz': 0 });
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
    client.makeUnaryRequest(METHOD.path, identity, identity, id, new Metadata(), { deadline: Date.now() + 10_000 }, (error, body) => {
      if (error || !body) reply(error?.code === status.NOT_FOUND ? 404 : 500, JSON.stringify({ message: error?.details ?? 'empty' }));
      else reply(200, body);
    });
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
