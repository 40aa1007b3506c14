import { Counter, type Registry } from 'prom-client';
import { platformScopeRuns } from '../db/tenant-scope.ts';

/**
 * The units of database work a process scoped to every tenant, by the platform purpose that took
 * the path (libs/service-kit/src/db/tenant-scope.ts), read at each scrape:
 * `db_all_tenants_scopes_total{purpose}`. A purpose that grows where it should not (super-user
 * calls, public shares) is the audit trail's first sign.
 *
 * @example
 * watchPlatformScopes(registry);
 */
export function watchPlatformScopes(registry: Registry): void {
  new Counter({
    name: 'db_all_tenants_scopes_total',
    help: 'Units of database work scoped to every tenant, by platform purpose',
    labelNames: ['purpose'],
    registers: [registry],
    collect() {
      this.reset();
      for (const [purpose, count] of platformScopeRuns()) this.inc({ purpose }, count);
    },
  });
}
