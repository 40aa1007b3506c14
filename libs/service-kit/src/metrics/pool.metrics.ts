import { Gauge, type Registry } from 'prom-client';

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
