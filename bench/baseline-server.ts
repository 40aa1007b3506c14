/**
 * The baseline of bench/branch-get.ts: a bare `node:http` server that answers
 * `GET /branch/{id}` with the row of `bpm.branch`, read with a named prepared statement through a
 * `pg` Pool and serialised in the shape the gateway answers `GET /api/branch/{id}`: the fields in
 * the same order, camelCase, numbers for ids, ISO 8601 strings for timestamps, `null` where unset.
 * No authentication, no framework, no gRPC: the least a process must do to serve that record.
 *
 * Started by the bench as a child process; reports `{ type: 'ready', name, address }` over IPC
 * once it listens (the platform's own convention).
 *
 *   DATABASE_URL=postgres://… BASELINE_PORT=0 node bench/baseline-server.ts
 *
 * Env: DATABASE_URL (required), BASELINE_PORT (default 0: any free port), BASELINE_POOL_MAX
 * (default 10, the pool size the services' MikroORM uses).
 */
import { createServer, type ServerResponse } from 'node:http';
import pg from 'pg';
import { SELECT_BRANCH, toJson, type BranchRow } from './branch-row.ts';

const databaseUrl = process.env.DATABASE_URL;
if (!databaseUrl) {
  console.error('baseline-server: DATABASE_URL is not set');
  process.exit(1);
}
const port = Number(process.env.BASELINE_PORT ?? 0);
const poolMax = Number(process.env.BASELINE_POOL_MAX ?? 10);

const pool = new pg.Pool({ connectionString: databaseUrl, max: poolMax });
pool.on('error', (error) => console.error('baseline-server: idle client error:', error.message));

function send(res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(text) });
  res.end(text);
}

const PATH = /^\/branch\/([1-9]\d{0,15})$/;

const server = createServer((req, res) => {
  const match = req.method === 'GET' && req.url ? PATH.exec(req.url) : null;
  if (!match) return send(res, 404, { message: 'not found' });
  pool.query<BranchRow>({ name: 'bench-branch-by-id', text: SELECT_BRANCH, values: [Number(match[1])] }).then(
    (result) => {
      const row = result.rows[0];
      if (row) send(res, 200, toJson(row));
      else send(res, 404, { message: 'branch not found' });
    },
    (error: unknown) => {
      console.error('baseline-server: query failed:', error instanceof Error ? error.message : error);
      send(res, 500, { message: 'query failed' });
    },
  );
});
// The gateway's settings (gateway/src/main.ts), so both keep autocannon's connections open alike.
server.keepAliveTimeout = 65_000;
server.headersTimeout = 66_000;

server.listen(port, '127.0.0.1', () => {
  const address = server.address();
  const actual = typeof address === 'object' && address ? address.port : port;
  process.send?.({ type: 'ready', name: 'baseline', address: `http://127.0.0.1:${actual}` });
  if (!process.send) console.log(`baseline listening on http://127.0.0.1:${actual}`);
});

let stopping = false;
function stop(): void {
  if (stopping) return;
  stopping = true;
  setTimeout(() => process.exit(0), 3_000).unref();
  server.close(() => void pool.end().finally(() => process.exit(0)));
  server.closeAllConnections();
}
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
process.on('disconnect', stop);
