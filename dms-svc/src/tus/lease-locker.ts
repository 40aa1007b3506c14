import { randomUUID } from 'node:crypto';
import type { MikroORM } from '@mikro-orm/postgresql';
import { ERRORS, type Lock, type Locker, type RequestRelease } from '@tus/utils';
import { scopedFork } from '@platform/service-kit/db/tenant-scope.ts';

/** How often a lock held elsewhere is asked for again. */
const RETRY_MS = 100;
/** How long a lock lives without renewal: the bound on how long a holder that died keeps an upload. */
export const TUS_LEASE_MS = 15_000;
/** How often a holder renews its lease: three times a lease, so one slow renewal does not lose it. */
const RENEW_MS = TUS_LEASE_MS / 3;

/**
 * tus's Locker over lease rows of dms.dms_tus_lock (db.ts DmsTusLockEntity), so one upload is
 * written by one request at a time across every dms-svc replica sharing the files
 * (docs/adr/0094-resumable-uploads-across-replicas.md, docs/adr/0146-through-a-transaction-pooler.md).
 * Taking the lock inserts the upload's row, or takes over one whose lease lapsed, in one statement;
 * the holder renews it every 5 s while its request runs and deletes it when done. No connection is
 * held in between (each statement is one of the ORM's pool, autocommit), so a pooler in transaction
 * mode is no matter, and a thousand uploads under way hold no connection. A holder whose process
 * died frees the upload once its lease lapses (15 s); one that finds its lease taken over (it could
 * not renew for a whole lease) asks its request to end (tus's `requestRelease`). A lock held by
 * another request is asked for again every 100 ms until `timeoutMs`; then tus's ERR_LOCK_TIMEOUT,
 * which the tus handler answers 409 SVC-SYS-4002 (`tus.locked`).
 */
export class LeaseLocker implements Locker {
  readonly #orm: MikroORM;
  readonly #timeoutMs: number;

  constructor(orm: MikroORM, timeoutMs = 3_000) {
    this.#orm = orm;
    this.#timeoutMs = timeoutMs;
  }

  newLock(id: string): Lock {
    const orm = this.#orm;
    const timeoutMs = this.#timeoutMs;
    const holder = randomUUID();
    let renewal: NodeJS.Timeout | undefined;
    let held = false;
    const sql = <T extends object>(text: string, values: unknown[]) => scopedFork(orm, { platform: 'uploads' }).execute<T[]>(text, values, 'all');
    return {
      async lock(signal: AbortSignal, requestRelease: RequestRelease): Promise<void> {
        const deadline = Date.now() + timeoutMs;
        for (;;) {
          const taken = await sql<{ holder: string }>(
            `insert into dms.dms_tus_lock (id, holder, expires_at) values (?, ?, now() + make_interval(secs => ?))
             on conflict (id) do update set holder = excluded.holder, expires_at = excluded.expires_at
              where dms_tus_lock.expires_at <= now()
             returning holder`,
            [id, holder, TUS_LEASE_MS / 1000],
          );
          if (taken.length > 0) break;
          if (signal.aborted) throw ERRORS.ABORTED;
          if (Date.now() >= deadline) throw ERRORS.ERR_LOCK_TIMEOUT;
          await new Promise((resolve) => setTimeout(resolve, RETRY_MS));
        }
        held = true;
        renewal = setInterval(() => {
          sql<{ id: string }>('update dms.dms_tus_lock set expires_at = now() + make_interval(secs => ?) where id = ? and holder = ? returning id', [
            TUS_LEASE_MS / 1000,
            id,
            holder,
          ])
            .then((renewed) => {
              // taken over after a lapse: this request must stop writing
              if (held && renewed.length === 0) void requestRelease();
            })
            // the database out of reach: the next renewal tries again, within the lease
            .catch(() => undefined);
        }, RENEW_MS);
        renewal.unref();
      },
      async unlock(): Promise<void> {
        if (!held) return;
        held = false;
        clearInterval(renewal);
        // a failed delete leaves the row to lapse with its lease
        await sql('delete from dms.dms_tus_lock where id = ? and holder = ?', [id, holder]).catch(() => undefined);
      },
    };
  }
}
