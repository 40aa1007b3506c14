import { int, type Env } from '@platform/kit/config/env.ts';

/**
 * How many PostgreSQL connections each kind of process may hold, by purpose, every one from the
 * environment (docs/adr/0147-a-connection-budget.md): the one place that names the variables and
 * their defaults. The processes size their pools from it, and test/deploy-connection-budget.test.ts
 * adds up what the production manifests allow from it, so a default changed here changes the budget.
 *
 * - `orm`: the process's MikroORM pool (DATABASE_POOL_MAX): every handler's and job's queries;
 * - `jobs`: a worker's pg-boss pool (JOBS_DATABASE_POOL_MAX): the queue's fetches, sends and
 *   maintenance;
 * - `migrationLock`: the connection of its own that holds a schema's migration lock while the
 *   process starts (db/migration-lock.ts), not sized by a variable: one, and only at start.
 *
 * Outside production a service or worker also opens the owner's connections at start
 * (DATABASE_OWNER_URL, docs/adr/0150-a-serving-role-apart-from-the-owner.md): a service one, for its
 * migrations, a worker two, for the job queue's schema; closed before it serves. Production's
 * processes never do (the migrate Job does), so the budget leaves them out.
 */
export interface DatabasePools {
  orm: number;
  jobs: number;
  migrationLock: number;
}

/** Who holds the pools: a service process, a service's worker, the migrate Job (`npm run migrate`). */
export type PoolRole = 'service' | 'worker' | 'migrate';

/** Upper bound of either variable: a process past it has a pool no database would grant. */
const MOST = 1_000;

/** Each variable and its default by role; a worker and the migrator run a few statements at a time, a service every call's. */
export const POOL_VARIABLES = {
  orm: { name: 'DATABASE_POOL_MAX', fallback: { service: 10, worker: 2, migrate: 2 } },
  jobs: { name: 'JOBS_DATABASE_POOL_MAX', fallback: { service: 0, worker: 2, migrate: 0 } },
} as const;

/** The migration lock's connection, held from a process's start until its schema is checked (or migrated). */
export const MIGRATION_LOCK_CONNECTIONS = 1;

/**
 * The pool sizes of a process of `role`, from `env`: each variable a whole number from 1 to 1000,
 * its role's default when unset; anything else refuses the start, naming the variable. A role
 * without a job queue (service, migrate) has `jobs` 0 and ignores JOBS_DATABASE_POOL_MAX.
 *
 * @example
 * const pools = databasePoolsOf(process.env, 'worker'); // { orm: 2, jobs: 2, migrationLock: 1 }
 */
export function databasePoolsOf(env: Env, role: PoolRole): DatabasePools {
  const jobs = POOL_VARIABLES.jobs.fallback[role];
  return {
    orm: int(env, POOL_VARIABLES.orm.name, POOL_VARIABLES.orm.fallback[role], 1, MOST),
    jobs: jobs === 0 ? 0 : int(env, POOL_VARIABLES.jobs.name, jobs, 1, MOST),
    migrationLock: MIGRATION_LOCK_CONNECTIONS,
  };
}

/** The most connections a process of `role` holds at once: its pools together. */
export function connectionsOf(pools: DatabasePools): number {
  return pools.orm + pools.jobs + pools.migrationLock;
}
