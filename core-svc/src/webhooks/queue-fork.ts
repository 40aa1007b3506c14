/**
 * The EntityManager of the dispatcher's work: every tenant's events and deliveries (its platform
 * path past the wall, db/tenant-scope.ts), with the planner told to walk indexes rather than scan
 * tables. Its statements are queue reads written for their indexes: the outboxes' partial indexes
 * of undispatched events, the deliveries' partial indexes of pending ones, primary keys. A table
 * that autovacuum has not analysed yet (a new database, a restored one, each queue table's first
 * minute) has no statistics, and PostgreSQL then planned those reads as scans of the whole table,
 * every row ever written, at every poll and claim (bench/outbox-cost.md: the poll at 2.5 ms, the
 * claim at 3.4 ms). With scans turned off for these statements alone, their plans no longer
 * depend on statistics; the fork's named statements (queryPrepared) are planned, and their plans
 * kept, under the same settings.
 */
import type { EntityManager, MikroORM } from '@mikro-orm/postgresql';
import { scopedFork, type Scope } from '@platform/service-kit/db/tenant-scope.ts';

/** Every tenant's events and deliveries: the dispatcher's own path past the wall. */
const WEBHOOKS: Scope = { platform: 'webhooks' };

/** Local to each transaction of the fork, as its scope is. */
const INDEX_WALKS = { enable_seqscan: 'off', enable_bitmapscan: 'off' };

export function queueFork(orm: MikroORM): EntityManager {
  const em = scopedFork(orm, WEBHOOKS);
  em.setSessionContext({ variables: INDEX_WALKS });
  return em;
}
