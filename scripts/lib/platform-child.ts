import { type ChildProcess, spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { ROOT_DIR, type ServiceName } from './platform-layout.ts';
import { PlatformStartError } from './platform-start-error.ts';

type Env = Record<string, string | undefined>;

/** The IPC message each process sends (`process.send`) once it serves. */
export interface ReadyMessage {
  type: 'ready';
  name: string;
  /** `host:port` it listens on (the gateway's HTTP port, a service's gRPC port). */
  address: string;
  /** Where its Prometheus /metrics is served, `host:port`: a service's metrics port, the gateway's MANAGEMENT_PORT. */
  metricsAddress?: string;
}

/** How a child ended: its exit code, or the signal that ended it. */
export interface Ending {
  code: number | null;
  signal: NodeJS.Signals | null;
}

/** One process of the platform, as the launcher runs it. */
export interface PlatformChild {
  name: ServiceName;
  process: ChildProcess;
  /** The last lines of stdout and stderr together, in the order they came. */
  output: string[];
  /** When it was spawned (Date.now()). */
  startedAt: number;
  /** Its ready message; rejects when it could not be spawned at all. */
  ready: Promise<ReadyMessage>;
  /**
   * Once its schema is migrated (`{ type: 'migrated' }`, libs/service-kit/src/grpc/service-main.ts), or once it
   * is ready: a process with no schema (the gateway, a stand-in) has nothing to migrate.
   */
  migrated: Promise<void>;
  /** Once it asks for its turn to migrate (a service started with MIGRATION_GATE=ipc). */
  migrationTurn: Promise<void>;
  /** Its 'exit'. */
  exited: Promise<Ending>;
  /** Its 'close': by then its output has been read to the end. */
  closed: Promise<Ending>;
}

const OUTPUT_LINES = 40;

/**
 * Spawns `entry` with this Node (`process.execPath`) and `nodeArgs`, in its own process group (a
 * terminal's Ctrl-C reaches only the launcher, which then stops the children in order), with an
 * IPC channel for its messages. Each line it prints goes to `onLine`, the last ones kept.
 *
 * @example
 * const child = spawnChild('bpm-svc', { entry: DEFAULT_ENTRIES['bpm-svc'], nodeArgs: [], env, onLine: (line) => console.log(line) });
 * const { address } = await child.ready;
 */
export function spawnChild(
  name: ServiceName,
  options: { entry: string; nodeArgs: string[]; env: Env; onLine: (line: string, stream: 'stdout' | 'stderr') => void },
): PlatformChild {
  const spawned = spawn(process.execPath, [...options.nodeArgs, options.entry], {
    cwd: ROOT_DIR,
    env: options.env,
    stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
    detached: true,
  });
  const output: string[] = [];
  for (const stream of ['stdout', 'stderr'] as const) {
    const source = spawned[stream];
    if (!source) continue;
    createInterface({ input: source, crlfDelay: Infinity }).on('line', (line) => {
      // both streams: the logs (a failure to start included) are JSON lines on stdout, what Node
      // itself prints on a crash goes to stderr
      output.push(line);
      if (output.length > OUTPUT_LINES) output.shift();
      options.onLine(line, stream);
    });
  }
  const ending = (event: 'exit' | 'close'): Promise<Ending> => new Promise((r) => spawned.once(event, (code, signal) => r({ code, signal })));
  let migrated: () => void = () => undefined;
  let asked: () => void = () => undefined;
  const child: PlatformChild = {
    name,
    process: spawned,
    output,
    startedAt: Date.now(),
    ready: new Promise<ReadyMessage>((resolveReady, reject) => {
      const onMessage = (message: unknown): void => {
        if (isOfType(message, 'migration-turn')) asked();
        if (isOfType(message, 'migrated')) migrated();
        if (!isReady(message)) return;
        migrated();
        spawned.removeListener('message', onMessage);
        resolveReady(message);
      };
      spawned.on('message', onMessage);
      spawned.once('error', (error) => reject(new PlatformStartError(`${name} could not be started: ${error.message}`, name, [])));
    }),
    migrated: new Promise<void>((r) => (migrated = r)),
    migrationTurn: new Promise<void>((r) => (asked = r)),
    exited: ending('exit'),
    closed: ending('close'),
  };
  child.ready.catch(() => undefined);
  return child;
}

/**
 * Answers a child started with MIGRATION_GATE=ipc that asked for its turn: its migrations may run
 * now (libs/kit/src/runtime/migration-gate.ts). Nothing when it has gone meanwhile.
 */
export function allowMigrations(child: PlatformChild): void {
  if (child.process.connected) child.process.send({ type: 'migrate' }, () => undefined);
}

/** Signals the child's process group (it was spawned detached), so its own children go too. */
export function signalChild(child: PlatformChild, signal: NodeJS.Signals): void {
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

function isReady(message: unknown): message is ReadyMessage {
  if (typeof message !== 'object' || message === null) return false;
  const { type, address, metricsAddress } = message as Record<string, unknown>;
  return type === 'ready' && typeof address === 'string' && (metricsAddress === undefined || typeof metricsAddress === 'string');
}

function isOfType(message: unknown, type: string): boolean {
  return typeof message === 'object' && message !== null && (message as Record<string, unknown>).type === type;
}
