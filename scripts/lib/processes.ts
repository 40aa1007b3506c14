import { type ChildProcess, spawn } from 'node:child_process';
import { dirname, join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { childEnv } from './child-env.ts';
import { openSink, type LogTarget } from './log-sink.ts';
import { freePort } from './os-probes.ts';

type Env = Record<string, string | undefined>;

/** Repository root (scripts/lib → ../..). */
export const ROOT_DIR = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

export type ServiceName = 'core-svc' | 'bpm-svc' | 'dms-svc' | 'gateway';

/** The processes, in start order: the three services together, then the gateway. */
export const SERVICE_NAMES: readonly ServiceName[] = ['core-svc', 'bpm-svc', 'dms-svc', 'gateway'];

export const DEFAULT_ENTRIES: Readonly<Record<ServiceName, string>> = {
  'core-svc': join(ROOT_DIR, 'core-svc/src/main.ts'),
  'bpm-svc': join(ROOT_DIR, 'bpm-svc/src/main.ts'),
  'dms-svc': join(ROOT_DIR, 'dms-svc/src/main.ts'),
  gateway: join(ROOT_DIR, 'gateway/src/main.ts'),
};

/**
 * The module each process is started with (`--import`), before its entry: it starts tracing when
 * an OTLP endpoint is configured and does nothing else otherwise (libs/kit/src/telemetry/register.ts).
 */
export const TELEMETRY_REGISTER = join(ROOT_DIR, 'libs/kit/src/telemetry/register.ts');

/** The IPC message each process sends (`process.send`) once it serves. */
export interface ReadyMessage {
  type: 'ready';
  name: string;
  /** `host:port` it listens on (the gateway's HTTP port, a service's gRPC port). */
  address: string;
  /** Where its Prometheus /metrics is served, `host:port`: a service's metrics port, the gateway's MANAGEMENT_PORT. */
  metricsAddress?: string;
}

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
  /** Entry files to run instead of the real ones (tests with stubs). */
  entries?: Partial<Record<ServiceName, string>>;
  /** Extra node options for every child, e.g. `['--enable-source-maps']`; given before the telemetry `--import`. */
  execArgv?: string[];
  /**
   * Start each child with `--import` TELEMETRY_REGISTER, as every deployment does. Default true;
   * false only for bench/tracing-cost.ts's baseline, which measures what the module costs.
   */
  telemetryRegister?: boolean;
  /** Per start phase. Default 60 s. */
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
}

/**
 * Restarts with exponential backoff: the first after `initialBackoffMs`, each next one twice as late
 * up to `maxBackoffMs`; a child that stayed up `resetAfterMs` since its last start is restarted
 * after `initialBackoffMs` again.
 */
export interface Supervision {
  /** Default 1 s. */
  initialBackoffMs?: number;
  /** Default 30 s. */
  maxBackoffMs?: number;
  /** Default 60 s. */
  resetAfterMs?: number;
  /** Called when a restart is scheduled, `delayMs` from now. */
  onRestart?: (name: ServiceName, delayMs: number) => void;
  /** Called when a restarted child is ready again. */
  onRestarted?: (name: ServiceName, pid: number) => void;
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

/** An error from startPlatform; `output` holds the failing child's last lines. */
export class PlatformStartError extends Error {
  override name = 'PlatformStartError';
  service: ServiceName | undefined;
  output: string[];
  constructor(message: string, service: ServiceName | undefined, output: string[]) {
    super(output.length > 0 ? `${message}\n--- last output of ${service} ---\n${output.join('\n')}` : message);
    this.service = service;
    this.output = output;
  }
}

const OUTPUT_LINES = 40;

interface Child {
  name: ServiceName;
  process: ChildProcess;
  /** The last lines of stdout and stderr together, in the order they came. */
  output: string[];
  exited: Promise<void>;
  address?: string;
  metricsAddress?: string;
}

/**
 * Starts core-svc, bpm-svc and dms-svc, waits until each has sent `{ type: 'ready', name, address }`
 * over IPC, then starts the gateway the same way. Children run with this Node (`process.execPath`),
 * each in its own process group so that a terminal's Ctrl-C reaches only the launcher, which then
 * stops them in order.
 *
 * @example
 * const platform = await startPlatform({ env: { ...process.env, DATABASE_URL }, ports: 'free', log: { file: 'test.log' } });
 * await fetch(`${platform.url}/api/...`);
 * await platform.stop();
 */
export async function startPlatform(options: StartPlatformOptions): Promise<Platform> {
  return options.ports === 'free' ? retryingTakenPorts(() => startOnce(options)) : startOnce(options);
}

/**
 * Runs `start`, and again (up to three times in all) while it fails because a child found a port
 * taken. For starts that pick ports themselves, inside `start`, so that each attempt picks anew: a
 * free port is picked before its service binds it, and meanwhile another process (any outgoing
 * connection's ephemeral port comes from the same range) may take it.
 *
 * @example
 * const own = await retryingTakenPorts(async () =>
 *   startPlatform({ env: { ...env, CORE_GRPC_ADDR: `localhost:${await freePort()}` }, ports: 'free' }));
 */
export async function retryingTakenPorts<T>(start: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await start();
    } catch (error) {
      if (attempt >= FREE_PORT_ATTEMPTS || !portWasTaken(error)) throw error;
    }
  }
}

/** Starts on free ports tried before a port taken between its pick and its bind fails the start. */
const FREE_PORT_ATTEMPTS = 3;

/** A child that exited before the platform was ready because its address was in use. */
function portWasTaken(error: unknown): boolean {
  return error instanceof PlatformStartError && error.output.some((line) => line.includes('EADDRINUSE'));
}

async function startOnce(options: StartPlatformOptions): Promise<Platform> {
  const env: Env = { ...options.env };
  await fillPorts(env, options.ports ?? 'default', options.pickPort ?? freePort);
  const readyTimeoutMs = options.readyTimeoutMs ?? 60_000;
  const stopTimeoutMs = options.stopTimeoutMs ?? 25_000;
  const sink = openSink(options.log ?? 'console', SERVICE_NAMES);
  const children = new Map<ServiceName, Child>();
  let addresses = {} as Record<ServiceName, string>;
  let pids = {} as Record<ServiceName, number>;
  const metrics: Partial<Record<ServiceName, string>> = {};
  let ready = false;
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
    const targets = names.map((name) => children.get(name)).filter((child): child is Child => child !== undefined);
    for (const child of targets) signalChild(child, 'SIGTERM');
    let timer: NodeJS.Timeout | undefined;
    const all = Promise.all(targets.map((child) => child.exited));
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
    for (const timer of restarts) clearTimeout(timer);
    stopped ??= (async () => {
      await stopChildren(['gateway']);
      await stopChildren(['core-svc', 'bpm-svc', 'dms-svc']);
      process.removeListener('exit', killAllNow);
      await sink.close();
    })();
    return stopped;
  };

  const launch = (name: ServiceName): Promise<Child> => {
    const entry = resolve(options.entries?.[name] ?? DEFAULT_ENTRIES[name]);
    const register = options.telemetryRegister === false ? [] : ['--import', TELEMETRY_REGISTER];
    const spawned = spawn(process.execPath, [...(options.execArgv ?? []), ...register, entry], {
      cwd: ROOT_DIR,
      env: childEnv(name, env),
      stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
      detached: true,
    });
    const child: Child = {
      name,
      process: spawned,
      output: [],
      exited: new Promise((r) => spawned.once('close', () => r())),
    };
    children.set(name, child);
    for (const stream of ['stdout', 'stderr'] as const) {
      const source = spawned[stream];
      if (!source) continue;
      createInterface({ input: source, crlfDelay: Infinity }).on('line', (line) => {
        // both streams: the logs (a failure to start included) are JSON lines on stdout, what Node
        // itself prints on a crash goes to stderr
        child.output.push(line);
        if (child.output.length > OUTPUT_LINES) child.output.shift();
        sink.write(name, line, stream);
      });
    }
    const startedAt = Date.now();
    spawned.once('exit', (code, signal) => {
      if (!ready || stopping) return;
      options.onExit?.(name, code, signal);
      if (options.supervise) scheduleRestart(name, options.supervise, startedAt);
    });
    // 'close' (not 'exit'): by then the child's output has been read to the end.
    spawned.once('close', (code, signal) => {
      if (ready || stopping) return;
      const how = signal ? `signal ${signal}` : `code ${code}`;
      failStart(new PlatformStartError(`${name} exited with ${how} before the platform was ready`, name, child.output));
    });
    return new Promise<Child>((resolveReady, reject) => {
      const onMessage = (message: unknown): void => {
        if (!isReady(message)) return;
        child.address = message.address;
        child.metricsAddress = message.metricsAddress;
        spawned.removeListener('message', onMessage);
        resolveReady(child);
      };
      spawned.on('message', onMessage);
      spawned.once('error', (error) => reject(new PlatformStartError(`${name} could not be started: ${error.message}`, name, [])));
    });
  };

  // Supervised restarts: the delay each child waits next time, and the timers pending.
  const nextDelay = new Map<ServiceName, number>();
  const restarts = new Set<NodeJS.Timeout>();
  const scheduleRestart = (name: ServiceName, supervision: Supervision, startedAt: number): void => {
    const initial = supervision.initialBackoffMs ?? 1_000;
    const max = supervision.maxBackoffMs ?? 30_000;
    const stayedUp = Date.now() - startedAt >= (supervision.resetAfterMs ?? 60_000);
    const delayMs = stayedUp ? initial : (nextDelay.get(name) ?? initial);
    nextDelay.set(name, Math.min(delayMs * 2, max));
    supervision.onRestart?.(name, delayMs);
    const timer = setTimeout(() => {
      restarts.delete(timer);
      if (stopping) return;
      launch(name).then(
        (child) => {
          pids[name] = child.process.pid ?? 0;
          addresses[name] = child.address ?? addresses[name];
          if (child.metricsAddress) metrics[name] = child.metricsAddress;
          supervision.onRestarted?.(name, pids[name]);
        },
        // a child that cannot even be spawned: tried again later, like one that died
        () => scheduleRestart(name, supervision, Date.now()),
      );
    }, delayMs);
    restarts.add(timer);
  };

  const phase = async (names: readonly ServiceName[]): Promise<void> => {
    let timer: NodeJS.Timeout | undefined;
    let onAbort: (() => void) | undefined;
    const guard = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        const waiting = names.find((name) => children.get(name)?.address === undefined);
        const child = waiting ? children.get(waiting) : undefined;
        reject(new PlatformStartError(`${waiting ?? names.join(', ')} was not ready within ${readyTimeoutMs / 1000} s`, waiting, child ? child.output : []));
      }, readyTimeoutMs);
      onAbort = () => reject(new PlatformStartError('start aborted', undefined, []));
      options.signal?.addEventListener('abort', onAbort, { once: true });
    });
    try {
      await Promise.race([Promise.all(names.map(launch)), guard, startFailed]);
    } finally {
      clearTimeout(timer);
      if (onAbort) options.signal?.removeEventListener('abort', onAbort);
    }
  };

  try {
    if (options.signal?.aborted) throw new PlatformStartError('start aborted', undefined, []);
    // core first: services migrate at start (but in production), and bpm's keys name core's tables
    await phase(['core-svc']);
    await phase(['bpm-svc', 'dms-svc']);
    await phase(['gateway']);
  } catch (error) {
    await stop();
    throw error;
  }
  ready = true;
  addresses = Object.fromEntries(SERVICE_NAMES.map((name) => [name, children.get(name)?.address ?? ''])) as Record<ServiceName, string>;
  pids = Object.fromEntries(SERVICE_NAMES.map((name) => [name, children.get(name)?.process.pid ?? 0])) as Record<ServiceName, number>;
  for (const child of children.values()) if (child.metricsAddress) metrics[child.name] = child.metricsAddress;
  const gatewayPort = portOf(addresses.gateway) ?? Number(env.GATEWAY_PORT);
  return { url: `http://127.0.0.1:${gatewayPort}`, env, addresses, metrics, pids, stop };
}

async function fillPorts(env: Env, ports: 'default' | 'free', pickPort: () => Promise<number>): Promise<void> {
  const pick = async (fallback: number): Promise<number> => (ports === 'free' ? pickPort() : fallback);
  if (!env.GATEWAY_PORT) env.GATEWAY_PORT = String(await pick(8080));
  const grpc = [
    ['CORE_GRPC_ADDR', 50051],
    ['BPM_GRPC_ADDR', 50052],
    ['DMS_GRPC_ADDR', 50053],
    // dms-svc's HTTP port for file bytes, proxied to by the gateway
    ['DMS_HTTP_ADDR', 50054],
  ] as const;
  for (const [name, fallback] of grpc) {
    if (!env[name]) env[name] = `127.0.0.1:${await pick(fallback)}`;
  }
  if (ports === 'free') for (const name of ['CORE_METRICS_PORT', 'BPM_METRICS_PORT', 'DMS_METRICS_PORT']) env[name] ||= '0';
}

function isReady(message: unknown): message is ReadyMessage {
  if (typeof message !== 'object' || message === null) return false;
  const { type, address, metricsAddress } = message as Record<string, unknown>;
  return type === 'ready' && typeof address === 'string' && (metricsAddress === undefined || typeof metricsAddress === 'string');
}

function portOf(address: string): number | undefined {
  const port = Number(address.slice(address.lastIndexOf(':') + 1));
  return Number.isInteger(port) && port > 0 ? port : undefined;
}

/** Signals the child's process group (it was spawned detached), so its own children go too. */
function signalChild(child: Child, signal: NodeJS.Signals): void {
  const { pid, exitCode, signalCode } = child.process;
  if (pid === undefined || exitCode !== null || signalCode !== null) return;
  try {
    process.kill(-pid, signal);
  } catch {
    try {
      child.process.kill(signal);
    } catch {
      // already gone
    }
  }
}
