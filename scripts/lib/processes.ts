import { join, resolve } from 'node:path';
import { MIGRATION_GATE } from '../../libs/kit/src/runtime/migration-gate.ts';
import { childEnv } from './child-env.ts';
import { fillPorts, retryingTakenPorts } from './free-ports.ts';
import { openSink, type LogTarget } from './log-sink.ts';
import { freePort } from './os-probes.ts';
import { allowMigrations, signalChild, spawnChild, type PlatformChild } from './platform-child.ts';
import { DEFAULT_ENTRIES, ROOT_DIR, SERVICE_NAMES, TELEMETRY_REGISTER, WORKER_NAMES, type ServiceName } from './platform-layout.ts';
import { PlatformStartError } from './platform-start-error.ts';
import { Supervisor, type Supervision } from './supervisor.ts';

type Env = Record<string, string | undefined>;

/**
 * Whose migrations wait for whose: bpm's keys name core's country and city
 * (bpm-svc/src/migrations), so bpm-svc migrates once core-svc has. Everything else starts at once.
 */
const MIGRATES_AFTER: Partial<Record<ServiceName, ServiceName>> = { 'bpm-svc': 'core-svc' };

/**
 * Where the children keep Node's compile cache (V8 code of every module, the type-stripped
 * TypeScript included): a start after the first compiles nothing again, which took about 40 % of
 * each process's import time. Under node_modules, so an install starts it over. Not in the test
 * run, whose dozens of platforms start and stop processes sharing it all the time (test/run.ts).
 */
const COMPILE_CACHE_DIR = join(ROOT_DIR, 'node_modules/.cache/node-compile-cache');

export interface StartPlatformOptions {
  /**
   * The children's complete environment (not merged with process.env): DATABASE_URL, APP_ENV,
   * DATA_DIR, the secrets, … GATEWAY_PORT, *_GRPC_ADDR and DMS_HTTP_ADDR are filled in per `ports` when missing.
   * The gateway is not handed DATABASE_URL (child-env.ts).
   */
  env: Env;
  log?: LogTarget<ServiceName>;
  /**
   * For GATEWAY_PORT, CORE_GRPC_ADDR, BPM_GRPC_ADDR and DMS_GRPC_ADDR missing from `env`:
   * `'default'` (8080 and 127.0.0.1:50051-50053) or `'free'` (free ports on 127.0.0.1). Default `'default'`.
   * With `'free'`, CORE_/BPM_/DMS_METRICS_PORT missing from `env` are 0: each service takes any free
   * port and reports it (`metrics`), so a second service started with the same env never collides.
   */
  ports?: 'default' | 'free';
  /**
   * How a `'free'` port is picked (default: one the OS hands out, then released). A start whose
   * child found a picked port taken (EADDRINUSE) is tried again with new picks, up to three times.
   */
  pickPort?: () => Promise<number>;
  /**
   * Start each service's worker too (WORKER_NAMES: the background work on the job queue), as
   * `npm start` and the suite's platform do. Default false: a second platform started beside
   * another (a test's replica) adds serving processes, not a second set of workers.
   */
  workers?: boolean;
  /** Entry files to run instead of the real ones (tests with stubs). */
  entries?: Partial<Record<ServiceName, string>>;
  /** Extra node options for every child, e.g. `['--enable-source-maps']`; given before the telemetry `--import`. */
  execArgv?: string[];
  /**
   * Start each child with `--import` TELEMETRY_REGISTER, as every deployment does. Default true;
   * false only for bench/tracing-cost.ts's baseline, which measures what the module costs.
   */
  telemetryRegister?: boolean;
  /** The whole start's. Default 60 s. */
  readyTimeoutMs?: number;
  /** Wait after SIGTERM before SIGKILL. Default 25 s: a process drains for up to 20 s (libs/kit/src/runtime/drain.ts). */
  stopTimeoutMs?: number;
  /** Called when a child exits after the platform was ready and before stop() was called. */
  onExit?: (name: ServiceName, code: number | null, signal: NodeJS.Signals | null) => void;
  /**
   * Restart a child that exits after the platform was ready (and before stop()), as a supervisor
   * would, while the others keep serving; off when unset. See `Supervision`.
   */
  supervise?: Supervision;
  /** Aborting during start kills the children started so far and rejects. */
  signal?: AbortSignal;
  /**
   * The gateway is launched once this resolves, the services at once: what the gateway reads at
   * start and the services do not (`npm start`: the console's build). A rejection fails the start.
   */
  gatewayAfter?: Promise<unknown>;
}

export interface Platform {
  /** The gateway, `http://127.0.0.1:<port>`. */
  url: string;
  /** The environment the services got (with the ports filled in); the gateway's lacks DATABASE_URL (child-env.ts). */
  env: Env;
  /** Each child's ready address. */
  addresses: Record<ServiceName, string>;
  /** Each metrics address (`host:port`, GET /metrics) as its process reported it: the services', and the gateway's MANAGEMENT_PORT when set; a supervised restart puts the new child's here. */
  metrics: Partial<Record<ServiceName, string>>;
  /** Each child's process id; a supervised restart puts the new child's here. */
  pids: Record<ServiceName, number>;
  /** SIGTERM to the gateway, then to the services; SIGKILL to any left after `stopTimeoutMs`. Idempotent. */
  stop(): Promise<void>;
}

/**
 * Starts core-svc, bpm-svc, dms-svc (and, with `workers`, their workers) and the gateway at once
 * (the gateway once `gatewayAfter` resolves) and resolves when each has sent
 * `{ type: 'ready', name, address }` over IPC (platform-child.ts); bpm-svc's migrations wait for
 * core-svc's (MIGRATES_AFTER). The gateway may be ready before the services: its health answers
 * DOWN for those not serving yet, and the platform is ready only once all are. Stops the gateway
 * first, then the services and the workers.
 *
 * @example
 * const platform = await startPlatform({ env: { ...process.env, DATABASE_URL }, ports: 'free', log: { file: 'test.log' } });
 * await fetch(`${platform.url}/api/...`);
 * await platform.stop();
 */
export async function startPlatform(options: StartPlatformOptions): Promise<Platform> {
  return options.ports === 'free' ? retryingTakenPorts(() => startOnce(options)) : startOnce(options);
}

async function startOnce(options: StartPlatformOptions): Promise<Platform> {
  const env: Env = { ...options.env };
  await fillPorts(env, options.ports ?? 'default', options.pickPort ?? freePort);
  // NODE_DISABLE_COMPILE_CACHE (the test run sets it: test/run.ts) reaches the children whatever env they are given
  const noCache = env.NODE_DISABLE_COMPILE_CACHE ?? process.env.NODE_DISABLE_COMPILE_CACHE;
  if (noCache) env.NODE_DISABLE_COMPILE_CACHE = noCache;
  else {
    delete env.NODE_DISABLE_COMPILE_CACHE;
    env.NODE_COMPILE_CACHE ??= COMPILE_CACHE_DIR;
  }
  const readyTimeoutMs = options.readyTimeoutMs ?? 60_000;
  const stopTimeoutMs = options.stopTimeoutMs ?? 25_000;
  const names: readonly ServiceName[] = options.workers ? [...SERVICE_NAMES, ...WORKER_NAMES] : SERVICE_NAMES;
  const sink = openSink(options.log ?? 'console', names);
  const children = new Map<ServiceName, PlatformChild>();
  // each process's first migration (a restarted one has nothing left to migrate)
  const migrated = new Map<ServiceName, Promise<void>>();
  const ready = new Map<ServiceName, { address: string; metricsAddress?: string }>();
  const addresses = {} as Record<ServiceName, string>;
  const pids = {} as Record<ServiceName, number>;
  const metrics: Partial<Record<ServiceName, string>> = {};
  let started = false;
  let stopping = false;
  // Rejected when any child exits before the whole platform is ready (a service dying while the
  // gateway starts counts too).
  let failStart: (error: Error) => void = () => undefined;
  const startFailed = new Promise<never>((_, reject) => (failStart = reject));
  startFailed.catch(() => undefined);

  const killAllNow = (): void => {
    for (const child of children.values()) signalChild(child, 'SIGKILL');
  };
  // Last resort when the launcher exits (process.exit, uncaught error) without stop().
  process.on('exit', killAllNow);

  const stopChildren = async (names: readonly ServiceName[]): Promise<void> => {
    const targets = names.map((name) => children.get(name)).filter((child): child is PlatformChild => child !== undefined);
    for (const child of targets) signalChild(child, 'SIGTERM');
    let timer: NodeJS.Timeout | undefined;
    const all = Promise.all(targets.map((child) => child.closed));
    const timedOut = await Promise.race([all.then(() => false), new Promise<boolean>((r) => (timer = setTimeout(() => r(true), stopTimeoutMs)))]);
    clearTimeout(timer);
    if (timedOut) {
      for (const child of targets) signalChild(child, 'SIGKILL');
      await all;
    }
  };
  let stopped: Promise<void> | undefined;
  const stop = (): Promise<void> => {
    stopping = true;
    supervisor?.stop();
    stopped ??= (async () => {
      await stopChildren(['gateway']);
      await stopChildren(['core-svc', 'bpm-svc', 'dms-svc', ...WORKER_NAMES]);
      process.removeListener('exit', killAllNow);
      await sink.close();
    })();
    return stopped;
  };

  const launch = (name: ServiceName): PlatformChild => {
    const register = options.telemetryRegister === false ? [] : ['--import', TELEMETRY_REGISTER];
    const child = spawnChild(name, {
      entry: resolve(options.entries?.[name] ?? DEFAULT_ENTRIES[name]),
      nodeArgs: [...(options.execArgv ?? []), ...register],
      env: MIGRATES_AFTER[name] ? { ...childEnv(name, env), [MIGRATION_GATE]: 'ipc' } : childEnv(name, env),
      onLine: (line, stream) => sink.write(name, line, stream),
    });
    children.set(name, child);
    const first = MIGRATES_AFTER[name];
    if (first) void Promise.all([child.migrationTurn, migrated.get(first)]).then(() => allowMigrations(child));
    if (!migrated.has(name)) migrated.set(name, child.migrated);
    void child.exited.then(({ code, signal }) => {
      if (!started || stopping) return;
      options.onExit?.(name, code, signal);
      supervisor?.exited(name, child.startedAt);
    });
    void child.closed.then(({ code, signal }) => {
      if (started || stopping) return;
      const how = signal ? `signal ${signal}` : `code ${code}`;
      failStart(new PlatformStartError(`${name} exited with ${how} before the platform was ready`, name, child.output));
    });
    // (a child that could not be spawned rejects the start, which waits for its ready)
    child.ready.then(
      (message) => void ready.set(name, message),
      () => undefined,
    );
    return child;
  };

  // a supervised restart: the new child takes the old one's place once it is ready
  const supervisor = options.supervise
    ? new Supervisor(options.supervise, async (name) => {
        const child = launch(name);
        const message = await child.ready;
        pids[name] = child.process.pid ?? 0;
        addresses[name] = message.address;
        if (message.metricsAddress) metrics[name] = message.metricsAddress;
        return pids[name];
      })
    : undefined;

  const startAll = async (): Promise<void> => {
    let timer: NodeJS.Timeout | undefined;
    let onAbort: (() => void) | undefined;
    const guard = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        const waiting = names.find((name) => !ready.has(name));
        const child = waiting ? children.get(waiting) : undefined;
        reject(new PlatformStartError(`${waiting ?? 'the platform'} was not ready within ${readyTimeoutMs / 1000} s`, waiting, child ? child.output : []));
      }, readyTimeoutMs);
      onAbort = () => reject(new PlatformStartError('start aborted', undefined, []));
      options.signal?.addEventListener('abort', onAbort, { once: true });
    });
    try {
      // in SERVICE_NAMES's order: core-svc is launched before bpm-svc, whose migrations wait for it
      const services = names.filter((name) => name !== 'gateway').map(launch);
      const gateway = (options.gatewayAfter ?? Promise.resolve()).then(() => {
        if (stopping) throw new PlatformStartError('start aborted', undefined, []);
        return launch('gateway').ready;
      });
      await Promise.race([Promise.all([...services.map((child) => child.ready), gateway]), guard, startFailed]);
    } finally {
      clearTimeout(timer);
      if (onAbort) options.signal?.removeEventListener('abort', onAbort);
    }
  };

  try {
    if (options.signal?.aborted) throw new PlatformStartError('start aborted', undefined, []);
    await startAll();
  } catch (error) {
    await stop();
    throw error;
  }
  started = true;
  for (const name of names) {
    addresses[name] = ready.get(name)?.address ?? '';
    pids[name] = children.get(name)?.process.pid ?? 0;
    const metricsAddress = ready.get(name)?.metricsAddress;
    if (metricsAddress) metrics[name] = metricsAddress;
  }
  const gatewayPort = portOf(addresses.gateway) ?? Number(env.GATEWAY_PORT);
  return { url: `http://127.0.0.1:${gatewayPort}`, env, addresses, metrics, pids, stop };
}

function portOf(address: string): number | undefined {
  const port = Number(address.slice(address.lastIndexOf(':') + 1));
  return Number.isInteger(port) && port > 0 ? port : undefined;
}
