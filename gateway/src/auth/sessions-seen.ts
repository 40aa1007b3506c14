import type { GatewayCallKey } from '@platform/kit/auth/gateway-call-key.ts';
import { INTERNAL_CALLS } from '@platform/contracts/core/internal-calls.ts';
import type { SessionSeen } from '@platform/kit/gen/platform/core/v1/session.ts';
import { toMetadata } from '@platform/kit/grpc/metadata.ts';
import type { Logger } from '@platform/kit/log/logger.ts';
import { startPeriodicJob, type PeriodicJob } from '@platform/kit/runtime/periodic-job.ts';
import type { Backends } from '../backends.ts';

/** Tokens one RecordSessionsSeen call carries at most: under core-svc's limit (10,000), and a few hundred bytes each within gRPC's 4 MiB message. */
const MAX_BATCH = 2_000;
/**
 * Tokens noted between two flushes at most. The gateway notes tokens it has not verified, so a
 * client sending a new well-formed token with every request could grow the map without end; past
 * the bound, tokens not noted yet wait for the next interval (a live session's next request notes it).
 */
const MAX_NOTED = 20_000;

/**
 * Keeps each session's lastSeenAt near its last request without a write per request: the gateway
 * notes when it served a token (a map entry, per token and not per request) and sends what it
 * noted to core-svc every `intervalMs` (SessionService.RecordSessionsSeen), which verifies each
 * token and moves lastSeenAt of its own open session forward. The tokens, not their sids: the
 * gateway does not verify a token (docs/adr/0138-an-edge-without-the-signing-secret.md), and a
 * forged one naming another user's session must not keep that session seen. A batch core cannot
 * take is dropped with a warning: the next one carries later times of the same sessions anyway.
 *
 * @example
 * const seen = new SessionsSeen(backends, gatewayKey, config.sessionSeenFlushMs, log);
 * seen.note(token) // on every JWT request handed on (core moves only verified tokens' open sessions)
 * await seen.close()    // on shutdown: sends what is left
 */
export class SessionsSeen {
  readonly #backends: Backends;
  readonly #key: GatewayCallKey;
  readonly #log: Logger;
  readonly #job: PeriodicJob;
  #noted = new Map<string, number>();
  /** Tokens not noted since the last flush, the map being full. */
  #skipped = 0;

  constructor(backends: Backends, key: GatewayCallKey, intervalMs: number, log: Logger) {
    this.#backends = backends;
    this.#key = key;
    this.#log = log;
    this.#job = startPeriodicJob({ name: 'sessions seen flush', everyMs: intervalMs, log, run: () => this.flush() });
  }

  note(token: string): void {
    if (this.#noted.size >= MAX_NOTED && !this.#noted.has(token)) {
      this.#skipped++;
      return;
    }
    this.#noted.set(token, Date.now());
  }

  async flush(): Promise<void> {
    if (this.#skipped > 0)
      this.#log.warn({ skipped: this.#skipped, noted: this.#noted.size }, 'more tokens than the sessions-seen bound in one interval: some not noted');
    this.#skipped = 0;
    if (this.#noted.size === 0) return;
    const noted = [...this.#noted];
    this.#noted = new Map();
    for (let i = 0; i < noted.length; i += MAX_BATCH) {
      const seen: SessionSeen[] = noted.slice(i, i + MAX_BATCH).map(([token, at]) => ({ sessionId: '', token, seenAt: new Date(at).toISOString() }));
      try {
        await this.#backends.call(
          INTERNAL_CALLS.recordSessionsSeen.service,
          INTERNAL_CALLS.recordSessionsSeen.method,
          { seen },
          toMetadata({ token: this.#key.credential, lang: 'en' }),
        );
      } catch (error) {
        this.#log.warn({ sessions: seen.length, err: error }, 'could not record when sessions were last seen');
      }
    }
  }

  async close(): Promise<void> {
    // a flush under way ends first; this one sends what came after it
    await this.#job.stop();
    await this.flush();
  }
}
