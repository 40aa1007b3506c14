import pg from 'pg';
import { ERRORS, type Lock, type Locker, type RequestRelease } from '@tus/utils';

/** How often a lock held elsewhere is asked for again. */
const RETRY_MS = 100;

/**
 * tus's Locker over PostgreSQL session advisory locks, so one upload is written by one request at
 * a time across every dms-svc replica sharing the files volume
 * (docs/adr/0094-resumable-uploads-across-replicas.md). Each lock holds a connection of a small pool of its own (not the ORM's, whose
 * connections a transaction must not wait on behind an upload) for as long as the request holds
 * the upload; a process that dies loses its sessions, and PostgreSQL frees their locks with them.
 * A lock held by another request is asked for again every 100 ms until `timeoutMs`; then tus's
 * ERR_LOCK_TIMEOUT, which the tus handler answers 409 SVC-SYS-4002 (`tus.locked`). The key is
 * `hashtextextended('dms.tus:<upload id>', 0)`, as the project's other advisory locks are keyed.
 */
export class AdvisoryLocker implements Locker {
  readonly #pool: pg.Pool;
  readonly #timeoutMs: number;

  constructor(databaseUrl: string, timeoutMs = 3_000) {
    this.#pool = new pg.Pool({ connectionString: databaseUrl, max: 20, application_name: 'dms-svc tus locks', idleTimeoutMillis: 10_000 });
    // a lost connection is reported by the query that uses it; without a listener it would end the process
    this.#pool.on('error', () => undefined);
    this.#timeoutMs = timeoutMs;
  }

  newLock(id: string): Lock {
    const pool = this.#pool;
    const timeoutMs = this.#timeoutMs;
    let client: pg.PoolClient | undefined;
    const name = `dms.tus:${id}`;
    return {
      async lock(signal: AbortSignal, _release: RequestRelease): Promise<void> {
        const connection = await pool.connect();
        const deadline = Date.now() + timeoutMs;
        try {
          for (;;) {
            const { rows } = await connection.query<{ locked: boolean }>('select pg_try_advisory_lock(hashtextextended($1, 0)) as locked', [name]);
            if (rows[0]?.locked) {
              client = connection;
              return;
            }
            if (signal.aborted) throw ERRORS.ABORTED;
            if (Date.now() >= deadline) throw ERRORS.ERR_LOCK_TIMEOUT;
            await new Promise((resolve) => setTimeout(resolve, RETRY_MS));
          }
        } catch (error) {
          connection.release();
          throw error;
        }
      },
      async unlock(): Promise<void> {
        const connection = client;
        client = undefined;
        if (!connection) return;
        try {
          await connection.query('select pg_advisory_unlock(hashtextextended($1, 0))', [name]);
          connection.release();
        } catch (error) {
          // a connection whose unlock failed is not handed out again: closing it frees the lock
          connection.release(error as Error);
        }
      },
    };
  }

  /** Closes the pool (at the service's stop). */
  close(): Promise<void> {
    return this.#pool.end();
  }
}
