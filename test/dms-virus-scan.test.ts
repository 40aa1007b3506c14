/**
 * Virus scanning of uploads (docs/interface.md#files, docs/adr/0096-what-a-scan-answers.md): with
 * CLAMD_ADDRESS set, every upload is streamed to clamd (INSTREAM) before its row commits. Malware is
 * 422 SVC-SYS-2001 `upload.infected` on field file, audited as UPLOAD_REFUSED with the signature,
 * and keeps no row, bytes, event or idempotency key; a file over clamd's StreamMaxLength is refused
 * (413 SVC-SYS-3001), never passed; clamd unreachable is 503 SVC-SYS-5002 (fail closed), or stored
 * with a warning under CLAMD_FAIL_OPEN. A real clamd (Debian's clamav-daemon) with one local test
 * signature; dms-svcs and gateways of their own beside the suite's platform (same database and
 * storage), as the edge tests start theirs.
 */
import { spawn } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { createServer, type Server, type Socket } from 'node:net';
import test, { type ExecutionContext } from 'ava';
import { ROOT_DIR } from '../libs/kit/src/config/root-dir.ts';
import { startPlatform, type Platform } from '../scripts/lib/processes.ts';
import { freePort } from '../scripts/lib/os-probes.ts';
import { startClamd, TEST_MARKER, TEST_SIGNATURE_FOUND, type TestClamd } from './helpers/clamd.ts';
import { sql } from './helpers/db.ts';
import { adminSession, createAccount } from './helpers/factories.ts';
import { storageNames, storedBytes, upload } from './helpers/files.ts';
import { scrape } from './helpers/metrics.ts';
import { logLine } from './helpers/platform-log.ts';
import { api, platform } from './helpers/platform.ts';
import { READY_STUB } from './helpers/stand-in.ts';
import { suiteLog } from './helpers/suite-log.ts';

/** clamd's StreamMaxLength in these tests: a file over it must be refused, not passed. */
const STREAM_MAX = 1024 * 1024;

const clamds: TestClamd[] = [];
const platforms: Platform[] = [];
let silent: Promise<{ server: Server; sockets: Set<Socket>; address: string }> | undefined;

/** A dms-svc and a gateway of their own with these scanning settings (core and bpm stand-ins). */
async function scanningPlatform(env: Record<string, string>): Promise<Platform> {
  const started = await startPlatform({
    env: { ...platform.env, GATEWAY_PORT: '0', DMS_GRPC_ADDR: '', DMS_HTTP_ADDR: '', DMS_METRICS_PORT: '0', ...env },
    entries: { 'core-svc': READY_STUB, 'bpm-svc': READY_STUB },
    ports: 'free',
    log: suiteLog(),
  });
  platforms.push(started);
  return started;
}

let unixScanned: Platform;

test.before(async () => {
  const clamd = await startClamd({ streamMaxLength: STREAM_MAX });
  clamds.push(clamd);
  unixScanned = await scanningPlatform({ CLAMD_ADDRESS: clamd.unixAddress });
});

test.after.always(async () => {
  await Promise.all(platforms.map((started) => started.stop()));
  await Promise.all(clamds.map((clamd) => clamd.stop()));
  const quiet = await silent;
  for (const socket of quiet?.sockets ?? []) socket.destroy();
  await new Promise((closed) => (quiet ? quiet.server.close(closed) : closed(undefined)));
});

/**
 * The files new in the storage folder since `before` (stored and temporary ones) that hold `content`:
 * other tests upload into the same folder meanwhile, so a file is told by its bytes.
 */
async function storedCopies(before: Set<string>, content: Uint8Array | string): Promise<string[]> {
  const wanted = Buffer.from(content);
  const copies: string[] = [];
  for (const name of (await storageNames()).filter((entry) => !before.has(entry))) {
    const bytes = await storedBytes(name);
    if (bytes?.equals(wanted)) copies.push(name);
  }
  return copies;
}

async function filesOf(token: string, crProcessId: number): Promise<number> {
  const listed = await api('POST', '/api/dms-file/list', { token, body: { filter: { crProcessId } } });
  return listed.body.totalElements as number;
}

async function auditOf(token: string, crProcessId: number): Promise<any[]> {
  const res = await api('POST', '/api/dms-audit-log/list', { token, body: { size: 100, filter: { crProcessId }, sorts: [{ field: 'id', direction: 'ASC' }] } });
  return res.body.content as any[];
}

async function eventsOf(crProcessId: number): Promise<number> {
  const [row] = await sql<{ n: string }>(`select count(*) as n from dms.dms_outbox where cr_process_id = $1`, [crProcessId]);
  return Number(row?.n);
}

/** A file the test clamd finds the test signature in; each one's bytes its own, to be told apart in the shared storage folder. */
function infectedContent(): string {
  return `a quarterly report ${randomUUID()}\n${TEST_MARKER}\nwith something inside it\n`;
}

test('a clean file is scanned and stored (clamd over a unix socket)', async (t) => {
  const { token } = await adminSession();
  const { crProcessId } = await createAccount();
  const uploaded = await upload({ token, crProcessId, content: 'clean quarterly report', fileName: 'clean.txt', baseUrl: unixScanned.url });
  t.is(uploaded.status, 200, uploaded.text);
  t.is(uploaded.body.fileSize, 22);
  t.is(await filesOf(token, crProcessId), 1);
  const metrics = await scrape(`http://${unixScanned.metrics['dms-svc']}`);
  t.true(metrics.sum('dms_upload_scans_total', { outcome: 'clean' }) >= 1);
  t.true(metrics.sum('dms_upload_scan_seconds_count') >= 1);
});

test('an infected file is 422 SVC-SYS-2001 upload.infected on field file, without the signature; no row, no bytes, no event; an UPLOAD_REFUSED audit row names the signature', async (t) => {
  const { token } = await adminSession();
  const { crProcessId } = await createAccount();
  const before = new Set(await storageNames());
  const eventsBefore = await eventsOf(crProcessId);
  const content = infectedContent();
  const refused = await upload({ token, crProcessId, content, fileName: 'report.txt', baseUrl: unixScanned.url, headers: { 'accept-language': 'tr' } });
  t.is(refused.status, 422, refused.text);
  t.is(refused.body.status, 'ERROR');
  t.is(refused.body.error_code, 'SVC-SYS-2001');
  t.is(refused.body.message, 'file alanında virüs taraması zararlı yazılım buldu; dosya kaydedilmedi');
  t.false(refused.text.includes('Platform.Test'), 'the signature stays out of the answer');

  t.deepEqual(await storedCopies(before, content), []);
  t.is(await filesOf(token, crProcessId), 0);
  t.is(await eventsOf(crProcessId), eventsBefore);
  const rows = await auditOf(token, crProcessId);
  t.is(rows.length, 1);
  t.is(rows[0].action, 'UPLOAD_REFUSED');
  t.is(rows[0].fileId ?? null, null);
  t.is(rows[0].userCode, 'admin');
  const details = JSON.parse(rows[0].details);
  t.like(details, { reason: 'infected', signature: TEST_SIGNATURE_FOUND, originalFileName: 'report.txt', fileSize: Buffer.byteLength(content) });
  t.regex(details.checksum, /^[0-9a-f]{64}$/);
  const verified = await api('GET', `/api/dms-audit-log/verify?crProcessId=${crProcessId}`, { token });
  t.true(verified.body.intact, verified.text);
  const logged = await logLine(TEST_SIGNATURE_FOUND, (line) => line.source === 'dms-svc' && line.entry.msg === 'upload infected: refused');
  t.truthy(logged, 'the signature is in the log');
});

test('an infected upload under an Idempotency-Key keeps no answer: the retry is scanned again and refused again', async (t) => {
  const { token } = await adminSession();
  const { crProcessId } = await createAccount();
  const key = randomUUID();
  for (let attempt = 0; attempt < 2; attempt++) {
    const refused = await upload({ token, crProcessId, content: infectedContent(), baseUrl: unixScanned.url, headers: { 'idempotency-key': key } });
    t.is(refused.status, 422, refused.text);
    t.is(refused.headers.get('idempotent-replayed'), null);
  }
  t.is((await auditOf(token, crProcessId)).filter((row) => row.action === 'UPLOAD_REFUSED').length, 2);
  // the key was never claimed: a clean upload under it is stored
  const clean = await upload({ token, crProcessId, content: 'clean now', baseUrl: unixScanned.url, headers: { 'idempotency-key': key } });
  t.is(clean.status, 200, clean.text);
});

test("a file larger than clamd's StreamMaxLength is refused 413 SVC-SYS-3001, not passed, and keeps nothing", async (t) => {
  const { token } = await adminSession();
  const { crProcessId } = await createAccount();
  const before = new Set(await storageNames());
  const content = randomBytes(STREAM_MAX + 4096);
  const refused = await upload({ token, crProcessId, content, baseUrl: unixScanned.url });
  t.is(refused.status, 413, refused.text);
  t.is(refused.body.error_code, 'SVC-SYS-3001');
  t.is(refused.body.message, 'The file is larger than the virus scanner accepts');
  t.deepEqual(await storedCopies(before, content), []);
  t.is(await filesOf(token, crProcessId), 0);
  const metrics = await scrape(`http://${unixScanned.metrics['dms-svc']}`);
  t.true(metrics.sum('dms_upload_scans_total', { outcome: 'too_large' }) >= 1);
});

test('clamd over TCP: scans while it runs; once it is stopped an upload is 503 SVC-SYS-5002 with a refId, and keeps nothing (fail closed)', async (t) => {
  const clamd = await startClamd();
  clamds.push(clamd);
  const tcp = await scanningPlatform({ CLAMD_ADDRESS: clamd.tcpAddress, CLAMD_TIMEOUT_MS: '5000' });
  const { token } = await adminSession();
  const { crProcessId } = await createAccount();
  t.is((await upload({ token, crProcessId, content: 'clean over tcp', baseUrl: tcp.url })).status, 200);
  t.is((await upload({ token, crProcessId, content: infectedContent(), baseUrl: tcp.url })).status, 422);

  await clamd.stop();
  const before = new Set(await storageNames());
  const eventsBefore = await eventsOf(crProcessId);
  const content = `nobody scans this ${randomUUID()}`;
  const refused = await upload({ token, crProcessId, content, baseUrl: tcp.url });
  t.is(refused.status, 503, refused.text);
  t.is(refused.body.error_code, 'SVC-SYS-5002');
  t.is(refused.body.message, 'The virus scanner is unavailable; the file was not stored, please try again');
  t.regex(refused.body.refId, /^[0-9a-f-]{36}$/);
  t.deepEqual(await storedCopies(before, content), []);
  t.is(await filesOf(token, crProcessId), 1);
  t.is(await eventsOf(crProcessId), eventsBefore);
  const metrics = await scrape(`http://${tcp.metrics['dms-svc']}`);
  t.true(metrics.sum('dms_upload_scans_total', { outcome: 'failed' }) >= 1);
  t.is(metrics.sum('dms_upload_unscanned_total'), 0);
});

/** The address of a "clamd" that accepts and says nothing (one per file, made once for the tests that run side by side): every scan against it times out. */
function silentClamd(): Promise<string> {
  silent ??= (async () => {
    const sockets = new Set<Socket>();
    const server = createServer((socket) => {
      sockets.add(socket);
      socket.on('error', () => undefined);
      socket.resume();
    });
    const port = await freePort();
    await new Promise<void>((listening) => server.listen(port, '127.0.0.1', listening));
    return { server, sockets, address: `tcp://127.0.0.1:${port}` };
  })();
  return silent.then(({ address }) => address);
}

test('a clamd that gives no answer within CLAMD_TIMEOUT_MS is 503 SVC-SYS-5002 (fail closed), and keeps nothing', async (t) => {
  const closed = await scanningPlatform({ CLAMD_ADDRESS: await silentClamd(), CLAMD_TIMEOUT_MS: '300' });
  const { token } = await adminSession();
  const { crProcessId } = await createAccount();
  const before = new Set(await storageNames());
  const content = `too slow to scan ${randomUUID()}`;
  const started = Date.now();
  const refused = await upload({ token, crProcessId, content, baseUrl: closed.url });
  t.is(refused.status, 503, refused.text);
  t.is(refused.body.error_code, 'SVC-SYS-5002');
  t.true(Date.now() - started < 5_000, 'answered once the timeout passed, not hung');
  t.deepEqual(await storedCopies(before, content), []);
  t.is(await filesOf(token, crProcessId), 0);
});

test('CLAMD_FAIL_OPEN=true outside production: a clamd that never answers (CLAMD_TIMEOUT_MS) lets the upload through with a warning, counted as unscanned', async (t) => {
  const open = await scanningPlatform({ CLAMD_ADDRESS: await silentClamd(), CLAMD_TIMEOUT_MS: '300', CLAMD_FAIL_OPEN: 'true' });
  const { token } = await adminSession();
  const { crProcessId } = await createAccount();
  const stored = await upload({ token, crProcessId, content: `unscanned ${crProcessId}`, baseUrl: open.url });
  t.is(stored.status, 200, stored.text);
  t.is(await filesOf(token, crProcessId), 1);
  const metrics = await scrape(`http://${open.metrics['dms-svc']}`);
  t.is(metrics.sum('dms_upload_unscanned_total'), 1);
  t.is(metrics.sum('dms_upload_scans_total', { outcome: 'failed' }), 1);
  const warned = await logLine('upload stored unscanned (CLAMD_FAIL_OPEN)', (line) => line.source === 'dms-svc' && line.entry.level === 'warn');
  t.truthy(warned, 'a warning is logged');
});

/** dms-svc started alone with `env`: its exit code and output (it is stopped if it got as far as ready). */
function startDms(t: ExecutionContext, env: Record<string, string>): Promise<{ code: number | null; output: string }> {
  const child = spawn(process.execPath, [`${ROOT_DIR}/dms-svc/src/main.ts`], {
    cwd: ROOT_DIR,
    env: { PATH: process.env.PATH ?? '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  t.teardown(() => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  });
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
  // a start refused by its configuration exits within seconds; the budget is for a loaded machine,
  // where loading dms-svc's modules alone took more than 20 s beside the suite's other files
  const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
  return new Promise((resolve) => child.once('close', (code) => (clearTimeout(timer), resolve({ code, output }))));
}

test('dms-svc refuses to start with a CLAMD_ADDRESS that is not tcp://host:port or unix:/path, naming the variable and the syntax', async (t) => {
  const secrets = {
    JWT_SECRET: randomBytes(32).toString('hex'),
    CORE_API_KEY: randomBytes(16).toString('hex'),
    DMS_URL_SECRET: randomBytes(32).toString('hex'),
    DMS_FILE_PORT_SECRET: randomBytes(32).toString('hex'),
  };
  const { code, output } = await startDms(t, { APP_ENV: 'test', ...secrets, CLAMD_ADDRESS: 'clamav:3310' });
  t.is(code, 1, output);
  t.true(output.includes('CLAMD_ADDRESS must be tcp://host:port or unix:/absolute/path/clamd.sock'), output);
});

test('a resumable (tus) upload is scanned too: its infected completion is 422 upload.infected, audited, and leaves no row, no bytes and no upload to resume', async (t) => {
  const { token } = await adminSession();
  const { crProcessId } = await createAccount();
  const before = new Set(await storageNames());
  const content = Buffer.from(infectedContent());
  const b64 = (text: string) => Buffer.from(text).toString('base64');
  const tus = (method: string, path: string, headers: Record<string, string>, body?: Uint8Array) =>
    fetch(`${unixScanned.url}${path}`, {
      method,
      headers: { 'tus-resumable': '1.0.0', authorization: `Bearer ${token}`, ...headers },
      ...(body ? { body } : {}),
    });
  const created = await tus('POST', '/api/dms-file/tus', {
    'upload-length': String(content.length),
    'upload-metadata': `filename ${b64('resumed.txt')},crProcessId ${b64(String(crProcessId))}`,
  });
  t.is(created.status, 201, await created.text());
  const location = created.headers.get('location') ?? '';
  const half = Math.floor(content.length / 2);
  const first = await tus('PATCH', location, { 'upload-offset': '0', 'content-type': 'application/offset+octet-stream' }, content.subarray(0, half));
  t.is(first.status, 204, await first.text());
  const last = await tus('PATCH', location, { 'upload-offset': String(half), 'content-type': 'application/offset+octet-stream' }, content.subarray(half));
  const refused = (await last.json()) as { error_code: string };
  t.is(last.status, 422, JSON.stringify(refused));
  t.is(refused.error_code, 'SVC-SYS-2001');
  t.false(JSON.stringify(refused).includes('Platform.Test'), 'the signature stays out of the answer');
  t.is((await tus('HEAD', location, {})).status, 404);
  t.deepEqual(await storedCopies(before, content), []);
  t.is(await filesOf(token, crProcessId), 0);
  const rows = await auditOf(token, crProcessId);
  t.deepEqual(
    rows.map((row) => row.action),
    ['UPLOAD_REFUSED'],
  );
  t.like(JSON.parse(rows[0].details), { reason: 'infected', signature: TEST_SIGNATURE_FOUND, originalFileName: 'resumed.txt', fileSize: content.length });
});
