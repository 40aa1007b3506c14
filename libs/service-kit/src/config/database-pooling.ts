import { ConfigError } from '@platform/kit/config/config-error.ts';
import type { Env } from '@platform/kit/config/env.ts';

/**
 * What stands between a service and its PostgreSQL (DATABASE_POOLING), read here alone
 * (docs/adr/0146-through-a-transaction-pooler.md):
 *
 * - `session` (the default): DATABASE_URL reaches PostgreSQL itself, or a pooler in session mode,
 *   so a connection's session is the service's for as long as it holds it; the hot reads are named
 *   prepared statements, parsed and planned once per connection (db/prepared.ts);
 * - `transaction`: DATABASE_URL is a pooler in transaction mode (PgBouncer `pool_mode =
 *   transaction`), which hands each transaction, or each statement outside one, to whichever server
 *   connection is free. A statement named on one server connection is unknown on the next, so
 *   the hot reads go as unnamed statements, planned each time.
 *
 * Nothing else differs: every other use of the database is correct under either (the ADR's table).
 *
 * @example
 * const pooling = databasePoolingOf(process.env); // 'session' unless DATABASE_POOLING=transaction
 */
export type DatabasePooling = 'session' | 'transaction';

export function databasePoolingOf(env: Env = process.env): DatabasePooling {
  const raw = env.DATABASE_POOLING;
  if (raw === undefined || raw === '' || raw === 'session') return 'session';
  if (raw === 'transaction') return 'transaction';
  throw new ConfigError(`DATABASE_POOLING must be session or transaction, not ${raw}`);
}
