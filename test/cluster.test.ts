/**
 * A cluster on one machine: two gateways, two replicas of each service (core-svc, bpm-svc, dms-svc)
 * and of each worker, on a database of their own, the files in a bucket of a real S3 server
 * (OpenStack Swift with s3api: helpers/swift.ts; docs/adr/0144-files-on-s3-compatible-storage.md),
 * the background work on the PostgreSQL queue (docs/adr/0143-background-work-on-a-postgresql-queue.md)
 * and the gateways' Redis under Sentinel (a master, a replica, three sentinels:
 * helpers/redis-sentinel.ts; docs/adr/0142-redis-behind-sentinel.md). Two walks run side by side,
 * each going to the gateways in turn, a round on one and the next on the other: login, a partner
 * created, updated and (every other round) deleted, a multipart upload, a share link to the file and
 * its public download, and every other round an import of a CSV of partners (uploaded, then started:
 * a job of the bpm-worker on the queue, docs/adr/0157-importing-files-into-the-registry.md), with a
 * webhook subscription delivering the partners' changes and the uploads to a receiver on loopback.
 * Meanwhile one replica of each kind is SIGKILLed and restarted by the launcher's supervisor, one
 * after the other: a gateway, a core-svc, a bpm-svc, a dms-svc, a dms-worker and a bpm-worker, each
 * next one a few seconds after the last restart, once each gateway has answered a whole round after it.
 *
 * How the replicas are reached: as in the Deployments behind their Services (deploy/README.md), each
 * process is given one address per service. CORE_GRPC_ADDR, BPM_GRPC_ADDR, DMS_GRPC_ADDR and
 * DMS_HTTP_ADDR name a Service on 127.0.0.1 (helpers/loopback-service.ts) that hands each connection
 * to a replica that accepts it, in turn; the replicas listen on the Service's port at a loopback
 * address of their own (INTERNAL_LISTEN_HOST: 127.0.0.2 for the first of each kind, 127.0.0.3 for the
 * second). A gateway's gRPC channel to a replica that is killed is cut, and it connects again,
 * through the Service, to one that is up. There is no balancer in front of the gateways: while one is
 * down, the rounds sent to it find no listener.
 *
 * What is allowed and what is not: a request may fail while a replica is down or restarting, as a
 * 502, 503 or 504 with the error body of docs/interface.md#errors (decisions §6: `{status: "ERROR",
 * error_code, message}` and `refId` on 5xx), or as a refused or cut connection to the gateway that was
 * killed, while it was down; these are counted and printed. Nothing is asserted of such a request's
 * write, which may or may not have happened, and the walk leaves that record alone. Every request
 * answered 2xx must have kept its write: at the end each partner reads back at the version its last
 * acknowledged write left it (or 404 once its delete was acknowledged), each file downloads with the
 * SHA-256 of the bytes sent through both gateways and through its share link, each import whose
 * start was acknowledged ends DONE with every row created once (its partners listed by their codes'
 * prefix, a worker killed mid-run resuming it), and the event of each acknowledged write (found in
 * the record's history) has reached the webhook receiver under its webhook-id, signed, as has each
 * imported partner's create. No request goes 15 s without an answer (three times the services' call
 * deadline), none fails any other way (no 4xx, no 500), and before the first kill every request is
 * answered 2xx.
 */
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import test from 'ava';
import pg from 'pg';
import { HeadObjectCommand } from '@aws-sdk/client-s3';
import { sessionCookieOf } from '@platform/kit/auth/request-token.ts';
import { freePort } from '../scripts/lib/os-probes.ts';
import type { ServiceName } from '../scripts/lib/platform-layout.ts';
import { type Platform, startPlatform } from '../scripts/lib/processes.ts';
import { createFreshDatabase, resolveTestDatabase } from '../scripts/lib/test-database.ts';
import { throwawayEnv } from '../scripts/lib/throwaway-env.ts';
import { type LoopbackService, startLoopbackService } from './helpers/loopback-service.ts';
import { redisClient, uniquePrefix } from './helpers/redis.ts';
import { startSentinelGroup } from './helpers/redis-sentinel.ts';
import { type FileTrack, type ImportTrack, isErrorBody, type Outcome, type PartnerTrack, portOf, sha256 } from './helpers/cluster-walk.ts';
import { suiteLog } from './helpers/suite-log.ts';
import { until as waitUntil } from './helpers/until.ts';
import { startSwift } from './helpers/swift.ts';
import { notePasswordsOf } from './helpers/used-secrets.ts';
import { startReceiver } from './helpers/webhook-receiver.ts';

/** Each call's bound at the services; a request not answered within HANG_MS here has hung. */
const DEADLINE_MS = 5_000;
const HANG_MS = 3 * DEADLINE_MS;
/** The loopback address each replica of a kind listens at: the first, the second. */
const HOSTS = ['127.0.0.2', '127.0.0.3'] as const;
/**
 * The replicas killed, in this order: [which of the two, process]. Of a service, the one its Service
 * holds more connections to at the time is killed instead (the first on a tie): a gRPC channel
 * stays on the replica it connected to, so either may be the one the gateways talk to.
 */
const VICTIMS: readonly [number, ServiceName][] = [
  [0, 'gateway'],
  [1, 'core-svc'],
  [0, 'bpm-svc'],
  [1, 'dms-svc'],
  [0, 'dms-worker'],
  [1, 'bpm-worker'],
];
/** The rows of each import in the walk; sent every other round. */
const IMPORT_ROWS = 20;
/** A restart's bound: a process starts in 2-5 s here, but in 20-30 s on a machine loaded 30 and more. */
const RESTART_WITHIN_MS = 60_000;
/** The least time between a restart and the next kill. */
const BETWEEN_KILLS_MS = 3_000;
/** The statuses a request may be answered with while a replica is down, with the §6 error body. */
const UNAVAILABLE = [502, 503, 504];

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
/** Polls `check` every 50 ms until it holds (helpers/until.ts); throws `what` after `timeoutMs`. */
const until = (what: string, timeoutMs: number, check: () => boolean | Promise<boolean>) => waitUntil(what, timeoutMs, async () => check(), { intervalMs: 50 });

test('a cluster of two of each walks login, CRUD, upload, share download, imports and webhooks while one replica of each kind is killed and restarted', async (t) => {
  // about a minute and a half on an idle machine; five minutes at a load of 20 on two cores
  t.timeout(600_000);
  const began = Date.now();
  const workDir = await mkdtemp(join(tmpdir(), 'platform-cluster-'));
  t.teardown(() => rm(workDir, { recursive: true, force: true }));
  const server = await resolveTestDatabase(process.env);
  t.teardown(() => server.stop());
  // each one started is stopped at the end, whichever of the others failed to start
  const stoppedAtEnd = <T>(value: T, stop: (value: T) => Promise<unknown>): T => {
    t.teardown(() => stop(value));
    return value;
  };
  const starting = [
    createFreshDatabase(server.adminUrl, 'platform_cluster', { servingRole: true }).then((created) => stoppedAtEnd(created, (db) => db.drop())),
    // started beside the database, the sentinels and, on a busy machine, other work: two minutes
    startSwift('platform-files', 120_000).then((started) => stoppedAtEnd(started, (s3) => s3.stop())),
    startSentinelGroup().then((started) => stoppedAtEnd(started, (group) => group.stop())),
    startReceiver().then((started) => stoppedAtEnd(started, (hooks) => hooks.close())),
  ] as const;
  await Promise.allSettled(starting);
  const [database, swift, sentinels, receiver] = await Promise.all(starting);

  // one Service per service port; the replicas listen on its port at 127.0.0.2 and 127.0.0.3
  const services: Record<'core' | 'bpm' | 'dms' | 'dmsHttp', LoopbackService> = {} as never;
  for (const name of ['core', 'bpm', 'dms', 'dmsHttp'] as const) {
    const port = await freePort();
    services[name] = await startLoopbackService(
      port,
      HOSTS.map((host) => `${host}:${port}`),
    );
    t.teardown(() => services[name].close());
  }
  const serviceOf: Partial<Record<ServiceName, LoopbackService>> = { 'core-svc': services.core, 'bpm-svc': services.bpm, 'dms-svc': services.dms };
  const redisPrefix = uniquePrefix('cluster');
  const { env, secrets } = throwawayEnv(database.servingUrl, workDir, {
    DATABASE_OWNER_URL: database.url,
    BCRYPT_ROUNDS: '4',
    GRPC_DEADLINE_MS: String(DEADLINE_MS),
    REDIS_URL: '',
    REDIS_SENTINELS: sentinels.sentinels,
    REDIS_SENTINEL_NAME: sentinels.name,
    REDIS_KEY_PREFIX: redisPrefix,
    RATE_LIMIT_PUBLIC: '100000',
    RATE_LIMIT_API_KEY: '100000',
    RATE_LIMIT_JWT: '100000',
    WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
    WEBHOOK_RETRY_SCHEDULE_MS: '200,400,800',
    // a delivery claimed by a core-svc that is killed is taken again once its lease lapses
    WEBHOOK_LEASE_MS: '3000',
    WEBHOOK_TIMEOUT_MS: '2000',
    WEBHOOK_DISABLE_AFTER_MS: '600000',
    // a job every second on the queue, so that the worker's kill meets work to take over
    DMS_TUS_SWEEP_INTERVAL_SECONDS: '1',
    ...swift.env,
    CORE_GRPC_ADDR: services.core.address,
    BPM_GRPC_ADDR: services.bpm.address,
    DMS_GRPC_ADDR: services.dms.address,
    DMS_HTTP_ADDR: services.dmsHttp.address,
  });
  const restarts: { replica: number; name: ServiceName; at: number }[] = [];
  const start = async (replica: number) =>
    startPlatform({
      env: { ...env, INTERNAL_LISTEN_HOST: HOSTS[replica], GATEWAY_PORT: String(await freePort()) },
      ports: 'free',
      workers: true,
      log: suiteLog(),
      readyTimeoutMs: 90_000,
      supervise: { initialBackoffMs: 200, onRestarted: (name) => void restarts.push({ replica, name, at: Date.now() }) },
    });
  // side by side: one of each migrates its schema, the other waits on the schema's migration lock and finds it done
  const infraMs = Date.now() - began;
  const started = await Promise.allSettled([start(0), start(1)]);
  for (const result of started) if (result.status === 'fulfilled') t.teardown(() => result.value.stop());
  const replicas: Platform[] = started.map((result) => {
    if (result.status === 'rejected') throw result.reason;
    return result.value;
  });
  const gateways = replicas.map((replica) => replica.url);
  const startedMs = Date.now() - began;
  t.log(`+${startedMs} ms: started (${infraMs} ms to the database, Swift and the sentinels)`);

  /** One request to gateway `gateway`, answered or failed within HANG_MS. */
  const send = async (
    gateway: number,
    step: string,
    method: string,
    path: string,
    options: { token?: string; json?: unknown; form?: FormData; apiKey?: boolean } = {},
  ): Promise<Outcome> => {
    const headers: Record<string, string> = {};
    if (options.token) headers.authorization = `Bearer ${options.token}`;
    if (options.apiKey) headers['x-api-key'] = secrets.CORE_API_KEY;
    let body: string | FormData | undefined = options.form;
    if (options.json !== undefined) {
      headers['content-type'] = 'application/json';
      body = JSON.stringify(options.json);
    }
    const at = Date.now();
    try {
      const response = await fetch(`${gateways[gateway]}${path}`, { method, headers, body, redirect: 'manual', signal: AbortSignal.timeout(HANG_MS) });
      const bytes = Buffer.from(await response.arrayBuffer());
      return { gateway, step, at, ms: Date.now() - at, status: response.status, bytes, headers: response.headers };
    } catch (error) {
      const cause = (error as { cause?: { code?: string } }).cause?.code;
      const name = error instanceof Error ? error.name : 'Error';
      return { gateway, step, at, ms: Date.now() - at, status: 0, bytes: Buffer.alloc(0), headers: new Headers(), error: cause ? `${name} ${cause}` : name };
    }
  };
  const json = (outcome: Outcome): any => JSON.parse(outcome.bytes.toString('utf8'));
  const ok = (outcome: Outcome) => outcome.status >= 200 && outcome.status < 300;

  // the tenant, its account and its webhook subscription, set up through the first gateway
  const admin = { userCode: 'admin', password: secrets.ADMIN_PASSWORD, languageCode: 'en' };
  notePasswordsOf(admin);
  const setupLogin = await send(0, 'login', 'POST', '/api/auth/login', { apiKey: true, json: admin });
  t.is(setupLogin.status, 200, setupLogin.bytes.toString());
  const setupToken = sessionCookieOf(setupLogin.headers.getSetCookie())?.token ?? '';
  const crProcessId = 5_000_000 + Math.floor(Math.random() * 1_000_000);
  const account = await send(0, 'account', 'POST', '/api/account', {
    token: setupToken,
    json: { accountNo: `ACC-${crProcessId}`, accountName: `Cluster ${crProcessId}`, crProcessId },
  });
  t.is(account.status, 200, account.bytes.toString());
  const subscription = await send(0, 'subscribe', 'POST', '/api/webhook-subscription', {
    token: setupToken,
    json: { crProcessId, url: `${receiver.url}/hook`, eventTypes: ['business-partner.*', 'dms-file.uploaded'], description: 'cluster' },
  });
  t.is(subscription.status, 200, subscription.bytes.toString());
  receiver.secret = json(subscription).secret;

  const outcomes: Outcome[] = [];
  const partners: PartnerTrack[] = [];
  const files: FileTrack[] = [];
  /** The imports whose start was acknowledged. */
  const imports: ImportTrack[] = [];
  /** Public downloads during the walk whose bytes differed from the file's. */
  const mismatches: string[] = [];
  /** Each gateway's rounds finished with every step 2xx: when they started. */
  const rounds: number[][] = [[], []];
  let walking = true;

  const round = async (gateway: number, n: number): Promise<boolean> => {
    const step = async (name: string, method: string, path: string, options: Parameters<typeof send>[4] = {}) => {
      const outcome = await send(gateway, name, method, path, options);
      outcomes.push(outcome);
      return outcome;
    };
    const login = await step('login', 'POST', '/api/auth/login', { apiKey: true, json: admin });
    if (!ok(login)) return false;
    const token = sessionCookieOf(login.headers.getSetCookie())?.token ?? '';
    const tag = `${gateway}-${n}-${randomBytes(3).toString('hex')}`;
    const created = await step('partner create', 'POST', '/api/business-partner', {
      token,
      json: { crProcessId, partnerCode: `P-${tag}`, partnerName: `Partner ${tag}`, partnerType: 'CUSTOMER' },
    });
    if (!ok(created)) return false;
    const { id, partnerName, version } = json(created);
    const partner: PartnerTrack = { id, name: partnerName, version, writes: [{ type: 'business-partner.created', version }], deleted: false };
    partners.push(partner);
    const renamed = `Renamed ${tag}`;
    const updated = await step('partner update', 'PUT', `/api/business-partner/${partner.id}`, {
      token,
      json: { version: partner.version, partnerName: renamed },
    });
    if (!ok(updated)) {
      partner.unsure = renamed;
      return false;
    }
    partner.name = json(updated).partnerName;
    partner.version = json(updated).version;
    partner.writes.push({ type: 'business-partner.updated', version: partner.version });
    if (n % 2 === 1) {
      const deleted = await step('partner delete', 'DELETE', `/api/business-partner/${partner.id}`, { token });
      if (!ok(deleted)) {
        partner.unsure = 'delete';
        return false;
      }
      partner.deleted = true;
      // a delete's event carries the version the record had (docs/interface.md#history)
      partner.writes.push({ type: 'business-partner.deleted', version: partner.version });
    }
    // every sixth round's file is past a part of the bucket's multipart upload (8 MiB)
    const content = randomBytes(n % 6 === 5 ? 8 * 1024 * 1024 + 4321 : 1024 + Math.floor(Math.random() * 256 * 1024));
    const form = new FormData();
    form.set('crProcessId', String(crProcessId));
    form.set('file', new Blob([content]), `cluster-${tag}.bin`);
    const uploaded = await step('upload', 'POST', '/api/dms-file/upload', { token, form });
    if (!ok(uploaded)) return false;
    const file: FileTrack = { fileId: json(uploaded).fileId, size: content.length, sha: sha256(content), storedFileName: json(uploaded).storedFileName };
    files.push(file);
    const link = await step('share link', 'POST', '/api/dms-share-link', { token, json: { crProcessId, fileId: file.fileId } });
    if (!ok(link)) return false;
    file.link = json(link).url;
    const shared = await step('share download', 'GET', file.link!);
    if (!ok(shared)) return false;
    if (sha256(shared.bytes) !== file.sha) mismatches.push(`file ${file.fileId} through its link on gateway ${gateway}`);
    if (n % 2 === 0) {
      const prefix = `I-${tag}`;
      const lines = ['partnerCode,partnerName,partnerType'];
      for (let row = 0; row < IMPORT_ROWS; row++) lines.push(`${prefix}-${row},Imported ${tag} ${row},SUPPLIER`);
      const sheet = new FormData();
      sheet.set('crProcessId', String(crProcessId));
      sheet.set('file', new Blob([lines.join('\n')]), `cluster-${tag}.csv`);
      const upload = await step('import upload', 'POST', '/api/import/business-partner', { token, form: sheet });
      if (!ok(upload)) return false;
      const runId = json(upload).id as number;
      const started = await step('import start', 'POST', `/api/import/business-partner/${runId}/start`, { token });
      if (!ok(started)) return false;
      imports.push({ runId, prefix });
    }
    return true;
  };
  // each walk sends a round to one gateway and the next to the other
  const walk = async (first: number) => {
    for (let n = 0; walking; n++) {
      const gateway = (first + n) % 2;
      const startedAt = Date.now();
      if (await round(gateway, n)) rounds[gateway]!.push(startedAt);
      // a moment before the next try while a replica is down, rather than a loop of refusals
      else await sleep(100);
    }
  };
  const walks = Promise.all([walk(0), walk(1)]);
  const roundAfter = (at: number) => rounds.every((started) => started.some((s) => s >= at));

  // the kills, one after the other; each next a few seconds after the last restart, once each gateway answered a round after it
  const kills: { replica: number; name: ServiceName; killedAt: number; restartedAt: number; connections?: number }[] = [];
  let firstKillAt = 0;
  let importsAtKill = 0;
  const importsUnderWay = async () => {
    const db = new pg.Client({ connectionString: database.url });
    await db.connect();
    try {
      return (await db.query(`select count(*)::int as n from bpm.bpm_import_run where status in ('QUEUED', 'RUNNING')`)).rows[0].n as number;
    } finally {
      await db.end();
    }
  };
  try {
    await until('a round on each gateway', RESTART_WITHIN_MS, () => roundAfter(0));
    for (const [planned, name] of VICTIMS) {
      const service = serviceOf[name];
      const open = HOSTS.map((host) => service?.openTo(`${host}:${portOf(service.address)}`) ?? 0);
      const replica = open[1 - planned]! > open[planned]! ? 1 - planned : planned;
      const connections = service ? open[replica] : undefined;
      const platform = replicas[replica]!;
      const pid = platform.pids[name];
      // the imports a bpm-worker's kill meets (not asserted: a run of 20 rows is over in moments)
      if (name === 'bpm-worker') importsAtKill = await importsUnderWay();
      const killedAt = Date.now();
      firstKillAt ||= killedAt;
      process.kill(pid, 'SIGKILL');
      await until(`${name} (${HOSTS[replica]}) restarted`, RESTART_WITHIN_MS, () =>
        restarts.some((r) => r.replica === replica && r.name === name && r.at >= killedAt),
      );
      const restartedAt = Date.now();
      kills.push({ replica, name, killedAt, restartedAt, connections });
      t.log(`+${killedAt - began} ms: ${name}@${HOSTS[replica]} killed, back in ${restartedAt - killedAt} ms`);
      t.not(platform.pids[name], pid, `${name} runs as a new process`);
      await until(`a round on each gateway after ${name}'s restart`, RESTART_WITHIN_MS, () => roundAfter(restartedAt));
      await sleep(Math.max(0, restartedAt + BETWEEN_KILLS_MS - Date.now()));
    }
  } finally {
    walking = false;
    await walks;
  }
  const walkedMs = Date.now() - began - startedMs;

  // what the walk saw
  const acknowledged = outcomes.filter(ok);
  const describe = (o: Outcome) => `${o.step} on gateway ${o.gateway} at +${o.at - began} ms: ${o.error ?? `${o.status} ${o.bytes.toString().slice(0, 200)}`}`;
  const hung = outcomes.filter((o) => o.error?.startsWith('TimeoutError'));
  t.deepEqual(hung.map(describe), [], `no request went without an answer for ${HANG_MS} ms`);
  // a gateway killed refuses or cuts the connections sent to it until its restart is ready
  const gatewayDown = kills.filter((kill) => kill.name === 'gateway');
  const whileItWasDown = (o: Outcome) =>
    gatewayDown.some((kill) => kill.replica === o.gateway && o.at <= kill.restartedAt + 1000 && o.at + o.ms >= kill.killedAt);
  // a share download streams from one dms-svc replica through the gateway: once its 200 and its
  // first bytes are sent, a kill of that replica can end the body only by closing the connection
  // (HTTP has no later status), so a download in flight across a dms-svc kill may be cut
  const dmsDown = kills.filter((kill) => kill.name === 'dms-svc');
  const cutMidStream = (o: Outcome) =>
    o.step === 'share download' && o.error === 'TypeError UND_ERR_SOCKET' && dmsDown.some((kill) => o.at <= kill.killedAt && o.at + o.ms >= kill.killedAt);
  const unanswered = outcomes.filter((o) => o.status === 0 && !o.error?.startsWith('TimeoutError'));
  t.deepEqual(
    unanswered.filter((o) => !whileItWasDown(o) && !cutMidStream(o)).map(describe),
    [],
    'a connection failed only to the gateway killed while it was down, or as a download whose dms-svc was killed while it streamed',
  );
  const unavailable = outcomes.filter((o) => o.status !== 0 && !ok(o));
  t.deepEqual(
    unavailable.filter((o) => !UNAVAILABLE.includes(o.status) || !isErrorBody(o.bytes)).map(describe),
    [],
    'a request refused was refused for a replica being down: 502, 503 or 504 with the error body of §6; no 4xx, no 500',
  );
  const beforeKills = outcomes.filter((o) => o.at + o.ms < firstKillAt);
  t.deepEqual(beforeKills.filter((o) => !ok(o)).map(describe), [], 'every request before the first kill answered 2xx');
  t.true(beforeKills.length > 0, 'the walk sent requests before the first kill');
  t.deepEqual(mismatches, [], 'every public download during the walk had the bytes of its file');
  for (const kill of kills) {
    if (kill.connections !== undefined) t.true(kill.connections > 0, `${kill.name} was serving connections through its Service when it was killed`);
  }

  // the background work on the queue went on across the worker's kill: the sweep's jobs (one a
  // second) complete after the restart. Its queue runs one job at a time, so a run the kill cut
  // holds it until that job expires and is tried again (docs/adr/0143-background-work-on-a-postgresql-queue.md):
  // then that job is still active, started before the kill.
  const workerKill = kills.find((kill) => kill.name === 'dms-worker')!;
  const db = new pg.Client({ connectionString: database.url });
  await db.connect();
  let queue = { completed: 0, cut: 0 };
  try {
    await until('a sweep job completed after the worker restarted', 15_000, async () => {
      const { rows } = await db.query(
        `select count(*) filter (where state = 'completed' and completed_on > $1)::int as completed,
                count(*) filter (where state = 'active' and started_on < $2)::int as cut
           from pgboss.job where name = 'dms.tus-sweep'`,
        [new Date(workerKill.restartedAt), new Date(workerKill.killedAt)],
      );
      queue = rows[0];
      return queue.completed > 0 || queue.cut > 0;
    });
  } finally {
    await db.end();
  }

  // every acknowledged write is there: through each gateway in turn
  t.log(`+${Date.now() - began} ms: walked; reading back`);
  const login = await send(1, 'login', 'POST', '/api/auth/login', { apiKey: true, json: admin });
  t.is(login.status, 200);
  const token = sessionCookieOf(login.headers.getSetCookie())?.token ?? '';
  const check = async <T>(items: readonly T[], verify: (item: T, gateway: number) => Promise<void>) => {
    for (let i = 0; i < items.length; i += 8) await Promise.all(items.slice(i, i + 8).map((item, j) => verify(item, (i + j) % 2)));
  };
  const readBack = (gateway: number, path: string) => send(gateway, 'read back', 'GET', path, { token });
  const untimely = (o: Outcome) => (o.error ? [`${o.step} ${o.error}`] : []);
  const readHung: string[] = [];
  /** The event ids of the acknowledged writes, from the records' histories: `type key` → id. */
  const expected = new Map<string, string>();
  const eventsOf = async (gateway: number, entity: string, key: number) => {
    const history = await readBack(gateway, `/api/${entity}/${key}/history?size=50`);
    readHung.push(...untimely(history));
    t.is(history.status, 200, `${entity} ${key}'s history: ${history.bytes.toString().slice(0, 200)}`);
    return history.status === 200 ? (json(history).content as { id: string; type: string; version: number }[]) : [];
  };
  await check(partners, async (partner, gateway) => {
    const got = await readBack(gateway, `/api/business-partner/${partner.id}`);
    readHung.push(...untimely(got));
    if (partner.deleted) t.is(got.status, 404, `partner ${partner.id}: its delete was acknowledged`);
    else if (partner.unsure === 'delete') t.true(got.status === 404 || (got.status === 200 && json(got).version === partner.version), `partner ${partner.id}`);
    else {
      t.is(got.status, 200, `partner ${partner.id}: ${got.bytes.toString().slice(0, 200)}`);
      const names = partner.unsure ? [partner.name, partner.unsure] : [partner.name];
      t.true(names.includes(json(got).partnerName), `partner ${partner.id} is named ${json(got).partnerName}, not ${names.join(' or ')}`);
      const versions = partner.unsure ? [partner.version, partner.version + 1] : [partner.version];
      t.true(versions.includes(json(got).version), `partner ${partner.id} is at version ${json(got).version}, not ${versions.join(' or ')}`);
    }
    const events = await eventsOf(1 - gateway, 'business-partner', partner.id);
    for (const write of partner.writes) {
      const event = events.find((e) => e.type === write.type && e.version === write.version);
      t.truthy(event, `partner ${partner.id}'s history holds its acknowledged ${write.type} at version ${write.version}`);
      if (event) expected.set(`${write.type} ${partner.id}`, event.id);
    }
  });
  await check(files, async (file, gateway) => {
    const record = await readBack(gateway, `/api/dms-file/${file.fileId}`);
    readHung.push(...untimely(record));
    t.is(record.status, 200, `file ${file.fileId}`);
    t.is(json(record).checksum, file.sha, `file ${file.fileId}'s checksum`);
    for (const through of [gateway, 1 - gateway]) {
      const url = await readBack(through, `/api/dms-file/${file.fileId}/download-url`);
      readHung.push(...untimely(url));
      t.is(url.status, 200, `file ${file.fileId}'s download URL on gateway ${through}`);
      const bytes = await readBack(through, json(url).url);
      readHung.push(...untimely(bytes));
      t.is(bytes.status, 200, `file ${file.fileId}'s download on gateway ${through}`);
      t.is(sha256(bytes.bytes), file.sha, `file ${file.fileId} reads back by its SHA-256 on gateway ${through}`);
    }
    const object = await swift.client.send(new HeadObjectCommand({ Bucket: swift.bucket, Key: file.storedFileName }));
    t.is(object.ContentLength, file.size, `file ${file.fileId} is an object of the bucket`);
    if (file.link) {
      const shared = await send(1 - gateway, 'read back', 'GET', file.link);
      readHung.push(...untimely(shared));
      t.is(shared.status, 200, `file ${file.fileId}'s share link`);
      t.is(sha256(shared.bytes), file.sha, `file ${file.fileId} through its share link`);
    }
    const uploaded = (await eventsOf(1 - gateway, 'dms-file', file.fileId)).find((e) => e.type === 'dms-file.uploaded');
    t.truthy(uploaded, `file ${file.fileId}'s history holds its dms-file.uploaded`);
    if (uploaded) expected.set(`dms-file.uploaded ${file.fileId}`, uploaded.id);
  });
  // each import started ends DONE with each of its rows created once, its partners' creates among the events expected
  const importEnds: Record<string, unknown>[] = [];
  /** The imported partners: each one's create is delivered, signed. */
  const imported: number[] = [];
  await check(imports, async (run, gateway) => {
    let status: any = {};
    for (const deadline = Date.now() + RESTART_WITHIN_MS * 2; ; await sleep(250)) {
      const got = await readBack(gateway, `/api/import/business-partner/${run.runId}`);
      readHung.push(...untimely(got));
      if (got.status === 200) status = json(got);
      if (['DONE', 'FAILED', 'CANCELLED'].includes(status.status) || Date.now() > deadline) break;
    }
    importEnds.push(status);
    t.like(status, { status: 'DONE', processed: IMPORT_ROWS, created: IMPORT_ROWS, failed: 0 }, `import ${run.runId}: ${JSON.stringify(status)}`);
    const listed = await send(1 - gateway, 'read back', 'POST', '/api/business-partner/list', {
      token,
      json: { page: 0, size: 2 * IMPORT_ROWS, filter: { crProcessId, partnerCodePrefix: `${run.prefix}-` } },
    });
    readHung.push(...untimely(listed));
    t.is(listed.status, 200, `import ${run.runId}'s partners: ${listed.bytes.toString().slice(0, 200)}`);
    const content = listed.status === 200 ? (json(listed).content as { id: number; partnerCode: string; version: number }[]) : [];
    const codes = content.map((partner) => partner.partnerCode).sort();
    const wanted = Array.from({ length: IMPORT_ROWS }, (_, row) => `${run.prefix}-${row}`).sort();
    t.deepEqual(codes, wanted, `import ${run.runId} created each of its rows once`);
    imported.push(...content.map((partner) => partner.id));
  });
  t.deepEqual(readHung, [], 'every read back was answered');

  // each acknowledged write's event reached the receiver under its webhook-id, signed (at least
  // once: a delivery cut by a kill is made again, with the same webhook-id)
  const arrived = () => new Set(receiver.received.map((r) => r.id));
  const createsArrived = () =>
    new Set(receiver.received.filter((r) => r.verified && r.json?.type === 'business-partner.created').map((r) => Number(r.json?.data?.key)));
  const undelivered = () => {
    const ids = arrived();
    const creates = createsArrived();
    return [
      ...[...expected].filter(([, id]) => !ids.has(id)).map(([event, id]) => `${event} (${id})`),
      ...imported.filter((id) => !creates.has(id)).map((id) => `business-partner.created ${id} (imported)`),
    ];
  };
  await receiver.until(() => undelivered().length === 0, 30_000).catch(() => undefined);
  t.deepEqual(undelivered(), [], 'every acknowledged write was delivered under its event id');
  t.true(
    receiver.received.every((r) => r.verified),
    'every delivery is signed with the subscription secret',
  );
  const eventOf = new Map([...expected].map(([event, id]) => [id, event]));
  const mislabelled = receiver.received.filter((r) => eventOf.has(r.id) && eventOf.get(r.id) !== `${r.json?.type} ${r.json?.data?.key}`);
  t.deepEqual(
    mislabelled.map((r) => `${r.id} carried ${r.json?.type} ${r.json?.data?.key}, not ${eventOf.get(r.id)}`),
    [],
    "each delivery under an event's webhook-id carries that event",
  );
  const again = receiver.received.length - arrived().size;

  // the gateways limited through the Sentinel group's master: its token-bucket scripts ran there (a
  // bucket's key lapses as soon as it is full again, which at these limits is at once)
  const master = redisClient(`redis://127.0.0.1:${await sentinels.masterPort()}`);
  try {
    const stats = await master.info('commandstats');
    const scripts = [...stats.matchAll(/^cmdstat_(?:evalsha|eval):calls=(\d+)/gm)].reduce((sum, match) => sum + Number(match[1]), 0);
    t.true(scripts > 0, `the limits were counted on the master the sentinels name: ${scripts} scripts for ${acknowledged.length} answers`);
  } finally {
    master.disconnect();
  }

  t.true(acknowledged.length > 0 && files.length > 0 && imports.length > 0 && partners.some((p) => p.deleted));
  const failed = outcomes.filter((o) => !ok(o));
  const failures = new Map<string, number>();
  for (const o of failed) {
    const what = `${o.step} ${o.error ?? o.status}`;
    failures.set(what, (failures.get(what) ?? 0) + 1);
  }
  t.log(
    `${Date.now() - began} ms in all: started in ${startedMs} ms (${infraMs} ms to the database, Swift and the sentinels), walked ${walkedMs} ms: ${outcomes.length} requests, ${acknowledged.length} answered 2xx, ` +
      `${failed.length} not (${[...failures].map(([what, count]) => `${count}x ${what}`).join(', ') || 'none'}); slowest ${Math.max(...outcomes.map((o) => o.ms))} ms; ` +
      `${partners.length} partners, ${files.length} files, ${imports.length} imports (${importEnds.filter((r) => r.status === 'DONE').length} done, ${imported.length} partners, ${importsAtKill} under way at the bpm-worker's kill), ${expected.size} events expected, ${receiver.received.length} deliveries (${again} again); ` +
      `sweep jobs after the worker's restart ${queue.completed}, cut by its kill ${queue.cut}; rounds ${rounds.map((r) => r.length).join(' and ')}; ` +
      kills
        .map(
          (k) =>
            `${k.name}@${HOSTS[k.replica]} back in ${k.restartedAt - k.killedAt} ms${k.connections === undefined ? '' : ` (${k.connections} connections cut)`}`,
        )
        .join(', '),
  );
});
