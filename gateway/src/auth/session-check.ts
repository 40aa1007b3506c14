import pg from 'pg';
import type { VerifiedClaims } from '@platform/libs/auth/jwt.ts';

/** Checks sent in one statement at most. */
const MAX_BATCH = 256;
/** Batch statements in flight at once; further checks wait for the next statement. */
const MAX_IN_FLIGHT = 2;

interface Pending {
  claims: VerifiedClaims;
  resolve(live: boolean): void;
  reject(error: unknown): void;
}

/**
 * Whether a verified token is still live: its user exists, is active and has the token's
 * tokenVersion, and its session (sid) is that user's, open and unexpired. Asked of the database
 * itself (no cache) before an answer the gateway gives itself on a JWT path and before the upload's
 * idle limit (http/context.ts sessionIsLive); the services ask the same on every call they serve, so
 * change-password, logout and an ended session refuse the very next request (docs/interface.md#token-and-cookie,
 * docs/decisions.md "Where a token's session is checked"). It reads core's user_info and session_log tables: the one place
 * the gateway reads a service's schema, with prepared statements.
 *
 * Checks that arrive while MAX_IN_FLIGHT statements are already running wait and go together in
 * the next one (one round trip and one statement for many requests under load; alone, a check is
 * sent at once). A check never joins a statement sent before it arrived, so every answer comes
 * from a read that started after its request did: revocation is seen exactly as with a statement
 * per request.
 *
 * @example
 * const check = new SessionCheck(config.databaseUrl);
 * await check.isLive(claims) // false → 401 SVC-SYS-1001
 */
export class SessionCheck {
  readonly #pool: pg.Pool;
  #pending: Pending[] = [];
  #inFlight = 0;

  constructor(databaseUrl: string, poolSize = 10) {
    this.#pool = new pg.Pool({ connectionString: databaseUrl, max: poolSize, idleTimeoutMillis: 60_000, connectionTimeoutMillis: 5_000 });
    // An idle client's error must not crash the gateway; the next query reports it.
    this.#pool.on('error', () => {});
  }

  isLive(claims: VerifiedClaims): Promise<boolean> {
    // Verified claims always fit the batch's arrays: sid is a UUID, tokenVersion an int4 (auth/jwt.ts).
    return new Promise((resolve, reject) => {
      this.#pending.push({ claims, resolve, reject });
      if (this.#inFlight < MAX_IN_FLIGHT) this.#send();
    });
  }

  /** Sends the waiting checks (up to MAX_BATCH) as one statement; on its answer, the next batch. */
  #send(): void {
    const batch = this.#pending.length <= MAX_BATCH ? this.#pending : this.#pending.slice(0, MAX_BATCH);
    this.#pending = this.#pending.length <= MAX_BATCH ? [] : this.#pending.slice(MAX_BATCH);
    this.#inFlight++;
    this.#pool
      .query<{ i: number; live: boolean }>({
        name: 'session-live-batch',
        text: `select k.i::int as i, (u.status and u.token_version = k.v and s.active and s.expires_at > now()) as live
                 from unnest($1::varchar[], $2::uuid[], $3::int[]) with ordinality as k(user_code, sid, v, i)
                 join core.user_info u on u.user_code = k.user_code
                 join core.session_log s on s.session_id = k.sid and s.user_code = u.user_code`,
        values: [batch.map((p) => p.claims.userCode), batch.map((p) => p.claims.sid), batch.map((p) => p.claims.tokenVersion)],
      })
      .then(
        (result) => {
          const live = new Array<boolean>(batch.length).fill(false);
          for (const row of result.rows) if (row.live === true) live[row.i - 1] = true;
          batch.forEach((pending, index) => pending.resolve(live[index] === true));
        },
        (error: unknown) => {
          for (const pending of batch) pending.reject(error);
        },
      )
      .finally(() => {
        this.#inFlight--;
        if (this.#pending.length > 0 && this.#inFlight < MAX_IN_FLIGHT) this.#send();
      });
  }

  /** The pool's own figures (pg.Pool's public counts), for the metrics. */
  get pool(): pg.Pool {
    return this.#pool;
  }

  close(): Promise<void> {
    return this.#pool.end();
  }
}
