import type { TokenService } from '@platform/kit/auth/jwt.ts';
import { INTERNAL_CALLS } from '@platform/contracts/core/internal-calls.ts';
import type { SessionSeen } from '@platform/kit/gen/platform/core/v1/session.ts';
import { toMetadata } from '@platform/kit/grpc/metadata.ts';
import type { Logger } from '@platform/kit/log/logger.ts';
import { startPeriodicJob, type PeriodicJob } from '@platform/kit/runtime/periodic-job.ts';
import type { Backends } from '../backends.ts';

/** Sessions one RecordSessionsSeen call carries at most (core-svc's limit). */
const MAX_BATCH = 10_000;

/**
 * Keeps each session's lastSeenAt near its last request without a write per request: the gateway
 * notes when it served a session (a map entry, per session and not per request) and sends what it
 * noted to core-svc every `intervalMs` (SessionService.RecordSessionsSeen), which moves lastSeenAt
 * of open sessions forward. A batch core cannot take is dropped with a warning: the next one carries
 * later times of the same sessions anyway.
 *
 * @example
 * const seen = new SessionsSeen(backends, tokens, config.sessionSeenFlushMs, log);
 * seen.note(claims.sid) // on every request whose token verifies (core moves only open sessions)
 * await seen.close()    // on shutdown: sends what is left
 */
export class SessionsSeen {
  readonly #backends: Backends;
  readonly #tokens: TokenService;
  readonly #log: Logger;
  readonly #job: PeriodicJob;
  #noted = new Map<string, number>();

  constructor(backends: Backends, tokens: TokenService, intervalMs: number, log: Logger) {
    this.#backends = backends;
    this.#tokens = tokens;
    this.#log = log;
    this.#job = startPeriodicJob({ name: 'sessions seen flush', everyMs: intervalMs, log, run: () => this.flush() });
  }

  note(sessionId: string): void {
    this.#noted.set(sessionId, Date.now());
  }

  async flush(): Promise<void> {
    if (this.#noted.size === 0) return;
    const noted = [...this.#noted];
    this.#noted = new Map();
    for (let i = 0; i < noted.length; i += MAX_BATCH) {
      const seen: SessionSeen[] = noted.slice(i, i + MAX_BATCH).map(([sessionId, at]) => ({ sessionId, seenAt: new Date(at).toISOString() }));
      try {
        await this.#backends.call(
          INTERNAL_CALLS.recordSessionsSeen.service,
          INTERNAL_CALLS.recordSessionsSeen.method,
          { seen },
          toMetadata({ token: this.#tokens.internalToken('gateway'), lang: 'en' }),
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
