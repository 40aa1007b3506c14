import { Counter, Gauge, type Registry } from 'prom-client';
import { preparedRuns } from '../db/prepared.ts';

/** What pg's Pool tells of itself (public properties of pg.Pool). */
export interface PoolFigures {
  totalCount: number;
  idleCount: number;
  waitingCount: number;
  options: { max?: number };
}

/**
 * A PostgreSQL pool's use, read at each scrape: `db_pool_connections{pool, state="used"|"idle"}`,
 * `db_pool_waiting{pool}` (queries waiting for a connection) and `db_pool_max{pool}`.
 * `pool` returns undefined until the pool exists.
 *
 * @example
 * watchPool(registry, 'orm', () => pgPool);
 */
export function watchPool(registry: Registry, name: string, pool: () => PoolFigures | undefined): void {
  new Gauge({
    name: 'db_pool_connections',
    help: 'Connections of a PostgreSQL pool: in use by a query or transaction, or idle',
    labelNames: ['pool', 'state'],
    registers: [registry],
    collect() {
      const figures = pool();
      if (!figures) return;
      this.set({ pool: name, state: 'used' }, figures.totalCount - figures.idleCount);
      this.set({ pool: name, state: 'idle' }, figures.idleCount);
    },
  });
  new Gauge({
    name: 'db_pool_waiting',
    help: 'Queries of a PostgreSQL pool waiting for a connection',
    labelNames: ['pool'],
    registers: [registry],
    collect() {
      const figures = pool();
      if (figures) this.set({ pool: name }, figures.waitingCount);
    },
  });
  new Gauge({
    name: 'db_pool_max',
    help: 'Largest number of connections a PostgreSQL pool opens',
    labelNames: ['pool'],
    registers: [registry],
    collect() {
      const figures = pool();
      if (figures?.options.max !== undefined) this.set({ pool: name }, figures.options.max);
    },
  });
}

/**
 * The named prepared statements a service sent on its pool (libs/src/db/prepared.ts, the hot reads:
 * the live access, a get's row along with it, a record by key), read at each scrape:
 * `db_prepared_statements_total{statement}`. Names are fixed in the code, a few per entity.
 *
 * @example
 * watchPreparedStatements(registry);
 */
export function watchPreparedStatements(registry: Registry): void {
  new Counter({
    name: 'db_prepared_statements_total',
    help: 'Named prepared statements sent on the pool, by name',
    labelNames: ['statement'],
    registers: [registry],
    collect() {
      this.reset();
      for (const [statement, count] of preparedRuns()) this.inc({ statement }, count);
    },
  });
}
