import type { MikroORM } from '@mikro-orm/postgresql';
import type { Logger } from '../log/logger.ts';
import { idempotencyTableOf, KEY_LIFETIME } from './idempotency.ts';

/** How often a service deletes its expired keys. */
const SWEEP_INTERVAL_MS = 60 * 60 * 1000;

/**
 * Deletes the service's idempotency keys older than KEY_LIFETIME every hour, the first time an hour
 * after start. Nothing waits for it: a claim treats an expired row as absent (idempotency.ts), so the
 * sweep only keeps the table from growing. A failed sweep is logged and the next one comes on time;
 * sweeps of several replicas may overlap, which a delete by age is safe for.
 */
export function startIdempotencySweep(orm: MikroORM, log: Logger, intervalMs = SWEEP_INTERVAL_MS): { stop(): void } {
  const timer = setInterval(() => {
    const em = orm.em.fork();
    em.execute(`delete from ${idempotencyTableOf(em)} where created_at <= now() - interval '${KEY_LIFETIME}'`).catch((error: unknown) =>
      log.error({ err: error }, 'idempotency key sweep failed'),
    );
  }, intervalMs);
  timer.unref();
  return { stop: () => clearInterval(timer) };
}
