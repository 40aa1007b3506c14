/**
 * Hostile requests on the private ports, which fuzz.test.ts (the public port) does not reach: the
 * gateway's management port (MANAGEMENT_PORT), each service's metrics port, and dms-svc's file port
 * (DMS_HTTP_ADDR) both without the gateway's credential and with it (so that its routes, not only
 * its refusal, are fuzzed; the upload route also gets the multipart corpus). Bad methods, paths,
 * headers and bodies through node:http, and bytes no HTTP client would send over raw TCP.
 *
 * The rule (docs/interface.md#errors and the task's): no request can stop a process, and none is a 5xx. So
 * every answer is below 500 — on the management and file ports with the error body on every non-2xx
 * — every raw exchange is a 4xx, and afterwards each process is the one it was (the services'
 * process_start_time_seconds unchanged, the gateway's pid alive) and answers its health.
 */
import test from 'ava';
import { FILE_PORT_CREDENTIAL_HEADER, FilePortCredential } from '@platform/kit/auth/file-port-credential.ts';
import { freePort, isAlive } from '../scripts/lib/os-probes.ts';
import type { Platform } from '../scripts/lib/processes.ts';
import { createAccount, userWithRoles } from './helpers/factories.ts';
import { BODIES, HEADER_SETS } from './helpers/hostile-corpus.ts';
import { listeners } from './helpers/listeners.ts';
import { multipartCorpus } from './helpers/multipart-corpus.ts';
import { platform, type ApiResponse } from './helpers/platform.ts';
import { rawExchange, rawRequest } from './helpers/raw-http.ts';
import { startGateway, uniquePrefix } from './helpers/redis.ts';

const PARALLEL = 8;
// HEAD goes over raw TCP (HEADS): raw-http.ts's rawRequest would parse the empty body of a JSON answer
const METHODS = ['GET', 'POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS', 'TRACE', 'PROPFIND', 'M-SEARCH'];
const PATHS = [
  '/',
  '*',
  '/metrics',
  '/health',
  '/actuator/health',
  '/api/health',
  '/metrics?name[]=%FF&x=%00',
  '/%FF',
  '/a%00b',
  '//metrics',
  '/health/../metrics',
  '/%2e%2e/%2e%2e/etc/passwd',
  `/${'x'.repeat(3000)}`,
  '/api/dms-file/upload',
  '/api/dms-file/download/%FF?token=x&expires=1&inline=false',
  '/api/dms-file/download/1?token=a&token=b',
  '/api/dms-share-link/public/%00',
  '/api/dms-share-link/public/x/validate-password',
];
/** HEAD of each path, written by hand, and requests a server may serve: below 500, whatever else. */
const HEADS = [
  ...PATHS.filter((path) => path !== '*').map((path) => `HEAD ${path} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`),
  // two Host fields: node:http serves it (RFC 9112 says 400); it must not be a 5xx either way
  'GET /metrics HTTP/1.1\r\nHost: x\r\nHost: y\r\nConnection: close\r\n\r\n',
];
/** Requests no HTTP client would send; each ends with the connection closed (by the server or by `Connection: close`). */
const RAW: readonly (string | Buffer)[] = [
  'GET /metrics HTTP/1.1\r\nHost: x\r\nContent-Length: -1\r\nConnection: close\r\n\r\n',
  'POST /metrics HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\nContent-Length: 5\r\nConnection: close\r\n\r\n0\r\n\r\n',
  'POST /api/dms-file/upload HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\nzz\r\nabc\r\n0\r\n\r\n',
  'GARBAGE\r\n\r\n',
  Buffer.from([0x00, 0x01, 0x02, 0xff, 0x0d, 0x0a, 0x0d, 0x0a]),
  'GET /metrics HTTP/9.9\r\nHost: x\r\nConnection: close\r\n\r\n',
  'GET /metrics HTTP/1.1\r\nHost: x\r\nno colon here\r\nConnection: close\r\n\r\n',
  `GET /metrics HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(100_000)}\r\nConnection: close\r\n\r\n`,
  'GET /met rics HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n',
];

interface Port {
  name: string;
  base: string;
  /** Headers on every request (the file port's credential). */
  headers?: Record<string, string>;
  /** Whether each non-2xx must carry the error body of docs/interface.md#errors (the metrics ports answer plain text). */
  errorBody: boolean;
}

/** The corpus for one port: each method on each path, each header set, each body, as node:http sends them. */
function requestsFor(port: Port): { label: string; method: string; path: string; headers: Record<string, string>; body?: string | Buffer }[] {
  const cases: ReturnType<typeof requestsFor> = [];
  for (const method of METHODS) for (const path of PATHS) cases.push({ label: `${method} ${path.slice(0, 60)}`, method, path, headers: { ...port.headers } });
  for (const headers of HEADER_SETS) {
    for (const path of ['/metrics', '/api/dms-share-link/public/x/validate-password'])
      cases.push({ label: `POST ${path} ${JSON.stringify(headers).slice(0, 60)}`, method: 'POST', path, headers: { ...headers, ...port.headers }, body: '{}' });
  }
  for (const body of BODIES) {
    for (const path of ['/metrics', '/api/dms-share-link/public/x/validate-password', '/api/dms-file/upload'])
      cases.push({ label: `POST ${path} body ${String(body).slice(0, 40)}`, method: 'POST', path, headers: { ...port.headers }, body });
  }
  return cases;
}

function problemOf(port: Port, label: string, res: Pick<ApiResponse, 'status' | 'body' | 'text'>): string | undefined {
  const said = `${port.name}: ${label} → ${res.status} ${res.text.slice(0, 160)}`;
  if (res.status < 200 || res.status >= 500) return said;
  if (port.errorBody && res.status >= 400 && (res.body?.status !== 'ERROR' || !/^SVC-SYS-\d{4}$/.test(String(res.body?.error_code))))
    return `no error body: ${said}`;
  return undefined;
}

async function inParallel<T>(items: readonly T[], work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: PARALLEL }, async () => {
      while (next < items.length) await work(items[next++] as T);
    }),
  );
}

/** Each service's and worker's start time as its metrics port reports it: a restarted process has a new one. */
async function startTimes(): Promise<Record<string, number>> {
  const times: Record<string, number> = {};
  for (const [name, address] of Object.entries(platform.metrics)) {
    const text = await (await fetch(`http://${address}/metrics`)).text();
    times[name] = Number(/^process_start_time_seconds (\S+)$/m.exec(text)?.[1]);
  }
  return times;
}

let gateway: Platform | undefined;
let management = '';

test.before(async () => {
  const port = await freePort();
  gateway = await startGateway(platform.env, { REDIS_KEY_PREFIX: uniquePrefix('fuzz-ports'), MANAGEMENT_PORT: String(port) });
  management = `http://127.0.0.1:${port}`;
});

test.after.always(async () => {
  await gateway?.stop();
});

test('the management, metrics and file ports answer hostile requests below 500 and stop no process', async (t) => {
  t.truthy(gateway);
  const started = await startTimes();
  t.is(Object.keys(started).length, 6, 'the three services and their three workers report a start time');
  const gatewayPid = gateway!.pids.gateway;
  const credential = new FilePortCredential(platform.env.DMS_FILE_PORT_SECRET ?? '').value;
  const file = `http://${platform.env.DMS_HTTP_ADDR}`;
  const ports: Port[] = [
    { name: 'management', base: management, errorBody: true },
    ...Object.entries(platform.metrics).map(([name, address]) => ({ name: `${name} metrics`, base: `http://${address}`, errorBody: false })),
    { name: 'file port without the credential', base: file, errorBody: true },
    { name: 'file port with the credential', base: file, headers: { [FILE_PORT_CREDENTIAL_HEADER]: credential }, errorBody: true },
  ];
  const problems: string[] = [];
  let sent = 0;
  for (const port of ports) {
    await inParallel(requestsFor(port), async (c) => {
      sent++;
      const res = await rawRequest(c.method, c.path, { baseUrl: port.base, headers: c.headers, ...(c.body === undefined ? {} : { body: c.body }) }).catch(
        (error: unknown) => ({ status: 0, body: undefined, text: `no answer: ${String(error)}` }),
      );
      const problem = problemOf(port, c.label, res);
      if (problem) problems.push(problem);
    });
    for (const head of HEADS) {
      sent++;
      const credentialLine = Object.entries(port.headers ?? {})
        .map(([name, value]) => `${name}: ${value}\r\n`)
        .join('');
      const res = await rawExchange(head.replace('Host: x\r\n', `Host: x\r\n${credentialLine}`), port.base).catch((error: unknown) => ({
        status: 0,
        body: undefined,
        text: `no answer: ${String(error)}`,
      }));
      if (res.status < 200 || res.status >= 500) problems.push(`${port.name}: ${head.split('\r\n')[0]} → ${res.status} ${res.text.slice(0, 160)}`);
    }
    for (const bytes of RAW) {
      sent++;
      const res = await rawExchange(bytes, port.base).catch((error: unknown) => ({ status: 0, body: undefined, text: `no answer: ${String(error)}` }));
      if (res.status < 400 || res.status >= 500) problems.push(`${port.name}: raw ${String(bytes).slice(0, 60)} → ${res.status} ${res.text.slice(0, 160)}`);
    }
  }
  // the upload route behind the credential gets the multipart corpus too, straight from a user with the one role it needs
  const account = await createAccount();
  const writer = await userWithRoles(account, ['dms-file:write']);
  const withCredential = ports.at(-1)!;
  await inParallel(multipartCorpus(account.crProcessId), async (c) => {
    sent++;
    const res = await rawRequest('POST', '/api/dms-file/upload', {
      baseUrl: file,
      token: writer.token,
      headers: { ...withCredential.headers, 'content-type': c.contentType },
      body: c.body,
    }).catch((error: unknown) => ({ status: 0, body: undefined, text: `no answer: ${String(error)}` }));
    const problem = problemOf(withCredential, `multipart ${c.label}`, res);
    if (problem) problems.push(problem);
  });
  t.log(`${sent} requests over ${ports.length} ports`);
  t.deepEqual(problems.slice(0, 40), [], `${problems.length} of ${sent} answers were wrong`);

  t.deepEqual(await startTimes(), started, 'every service is the process it was');
  t.true(isAlive(gatewayPid) && gateway!.pids.gateway === gatewayPid, 'the gateway is the process it was');
  for (const port of ports.slice(1, 4)) t.is((await fetch(`${port.base}/health`)).status, 200, port.name);
  t.is((await fetch(`${management}/actuator/health`)).status, 200);
  // the management port binds loopback, as every internal port does without INTERNAL_LISTEN_HOST
  t.deepEqual(await listeners(Number(new URL(management).port)), ['127.0.0.1']);
});
