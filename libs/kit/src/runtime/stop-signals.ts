import type { Logger } from '../log/logger.ts';

/**
 * How a process stops (the gateway, each service, each worker): on SIGTERM or SIGINT, or when the
 * launcher that forked it goes away (its IPC channel closes), it runs its own `stop` once, logs
 * what went wrong in it, and exits 0. With `lastResortMs`, it exits then whatever `stop` is still
 * waiting for (a client's close that hangs). `stopping` says whether a stop began: health endpoints
 * answer NOT_SERVING from that moment.
 *
 * @example
 * const shutdown = new Shutdown(log);
 * serveMetrics(registry, port, { serving: () => !shutdown.stopping });
 * shutdown.onSignals(async () => { await server.close(); await orm.close(); }, { lastResortMs: 25_000 });
 */
export class Shutdown {
  readonly #log: Logger;
  #stopping = false;

  constructor(log: Logger) {
    this.#log = log;
  }

  get stopping(): boolean {
    return this.#stopping;
  }

  /** Runs `stop` at the first signal (later ones are ignored), then exits. */
  onSignals(stop: () => Promise<void>, options: { lastResortMs?: number } = {}): void {
    const begin = (signal: string): void => {
      if (this.#stopping) return;
      this.#stopping = true;
      this.#log.info({ signal }, 'stopping');
      if (options.lastResortMs !== undefined) setTimeout(() => process.exit(0), options.lastResortMs).unref();
      stop()
        .catch((error: unknown) => this.#log.warn({ err: error }, 'error while stopping'))
        .finally(() => process.exit(0));
    };
    process.on('SIGTERM', () => begin('SIGTERM'));
    process.on('SIGINT', () => begin('SIGINT'));
    process.on('disconnect', () => begin('parent gone'));
  }
}
