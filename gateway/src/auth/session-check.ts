import pg from 'pg';
import type { VerifiedClaims } from '@platform/libs/auth/jwt.ts';

/**
 * Whether a verified token is still live: its user exists, is active and has the token's
 * tokenVersion, and its session (sid) is open and unexpired. Asked on every JWT request, of the
 * database itself (no cache), so change-password, logout and an ended session refuse the very
 * next request (decisions.md §2). It reads core's user_info and session_log tables: the one place
 * the gateway reads a service's schema, with one prepared statement per request.
 *
 * @example
 * const check = new SessionCheck(config.databaseUrl);
 * await check.isLive(claims) // false → 401 SVC-SYS-1001
 */
export class SessionCheck {
  readonly #pool: pg.Pool;

  constructor(databaseUrl: string, poolSize = 10) {
    this.#pool = new pg.Pool({ connectionString: databaseUrl, max: poolSize, idleTimeoutMillis: 60_000, connectionTimeoutMillis: 5_000 });
    // An idle client's error must not crash the gateway; the next query reports it.
    this.#pool.on('error', () => {});
  }

  async isLive(claims: VerifiedClaims): Promise<boolean> {
    const result = await this.#pool.query<{ live: boolean }>({
      name: 'session-live',
      text: `select (u.status and u.token_version = $3 and s.active and s.expires_at > now()) as live
               from core.user_info u, core.session_log s
              where u.user_code = $1 and s.session_id = $2`,
      values: [claims.userCode, claims.sid, claims.tokenVersion],
    });
    return result.rows[0]?.live === true;
  }

  close(): Promise<void> {
    return this.#pool.end();
  }
}
