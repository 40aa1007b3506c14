import { Counter, type Registry } from 'prom-client';
import { preparedRuns } from '../db/prepared.ts';

/**
 * The named prepared statements a service sent on its pool (libs/service-kit/src/db/prepared.ts, the hot reads:
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
