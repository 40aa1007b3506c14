import type { ServiceName } from './platform-layout.ts';

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

/** What a Supervisor restarts with: starts the child again and resolves with its pid once it is ready. */
export type Restart = (name: ServiceName) => Promise<number>;

/**
 * A supervisor's job: a child that died is started again, later each time while it keeps dying,
 * while the others serve.
 *
 * @example
 * const supervisor = new Supervisor({ initialBackoffMs: 1_000 }, (name) => launch(name).then((child) => child.pid));
 * child.on('exit', () => supervisor.exited('bpm-svc', startedAt));
 * supervisor.stop(); // on shutdown: no restart is pending any more
 */
export class Supervisor {
  readonly #supervision: Supervision;
  readonly #restart: Restart;
  /** The delay each child waits next time. */
  readonly #nextDelay = new Map<ServiceName, number>();
  readonly #pending = new Set<NodeJS.Timeout>();
  #stopped = false;

  constructor(supervision: Supervision, restart: Restart) {
    this.#supervision = supervision;
    this.#restart = restart;
  }

  /** Child `name`, started at `startedAt` (Date.now()), exited: schedules its restart. */
  exited(name: ServiceName, startedAt: number): void {
    if (this.#stopped) return;
    const supervision = this.#supervision;
    const initial = supervision.initialBackoffMs ?? 1_000;
    const max = supervision.maxBackoffMs ?? 30_000;
    const stayedUp = Date.now() - startedAt >= (supervision.resetAfterMs ?? 60_000);
    const delayMs = stayedUp ? initial : (this.#nextDelay.get(name) ?? initial);
    this.#nextDelay.set(name, Math.min(delayMs * 2, max));
    supervision.onRestart?.(name, delayMs);
    const timer = setTimeout(() => {
      this.#pending.delete(timer);
      if (this.#stopped) return;
      this.#restart(name).then(
        (pid) => supervision.onRestarted?.(name, pid),
        // a child that cannot even be spawned: tried again later, like one that died
        () => this.exited(name, Date.now()),
      );
    }, delayMs);
    this.#pending.add(timer);
  }

  /** Cancels the restarts pending and schedules no more. */
  stop(): void {
    this.#stopped = true;
    for (const timer of this.#pending) clearTimeout(timer);
  }
}
