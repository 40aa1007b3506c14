import pg from 'pg';

/**
 * The text whose `hashtextextended(…, 0)` is the advisory-lock key of a schema's migrations: one
 * fixed key per service schema, as the project's other advisory locks are keyed
 * (`dms.audit-chain:<tenant>`).
 */
export function migrationLockName(schema: string): string {
  return `${schema}.migrations`;
}

/** Who holds the lock a migrator waits for: `pid 123 (migrate core)`. */
export type LockHolders = string[];

export interface MigrationLockOptions {
  /** Called once when the lock is taken by someone else, before waiting for it. */
  onWait?: (holders: LockHolders) => void;
  /** `application_name` of the lock's connection, so `pg_stat_activity` shows who holds it. */
  applicationName?: string;
  /**
   * Where the lock's connection goes, when not where `work` goes: past a pooler in transaction mode,
   * straight to the primary (config/database-url.ts, sessionDatabaseUrlOf).
   */
  lockUrl?: string;
}

const KEY = 'hashtextextended($1, 0)';
// A bigint advisory key shows in pg_locks as classid (high 32 bits), objid (low 32 bits), objsubid 1.
const HOLDERS = `select l.pid, a.application_name from pg_locks l left join pg_stat_activity a on a.pid = l.pid
  where l.locktype = 'advisory' and l.granted and l.objsubid = 1 and l.database = (select oid from pg_database where datname = current_database())
    and l.classid = ((${KEY} >> 32) & 4294967295)::oid and l.objid = (${KEY} & 4294967295)::oid`;

/**
 * Runs `work` holding the session advisory lock of `schema`'s migrations, taken on a connection of
 * its own (not one of the ORM's pool, which `work` uses freely) and released after, whatever `work`
 * did. A second caller waits until the first is done. Should the process die, PostgreSQL ends its
 * session and so releases the lock.
 *
 * @example
 * const applied = await withMigrationLock(url, 'bpm', () => orm.migrator.up());
 */
export async function withMigrationLock<T>(url: string, schema: string, work: () => Promise<T>, options: MigrationLockOptions = {}): Promise<T> {
  const client = new pg.Client({
    connectionString: options.lockUrl ?? url,
    application_name: options.applicationName ?? `migrate ${schema}`,
    connectionTimeoutMillis: 10_000,
  });
  // A lost connection is reported by the query that uses it; without a listener it would crash the process.
  client.on('error', () => undefined);
  await client.connect();
  const name = migrationLockName(schema);
  try {
    const { rows } = await client.query<{ locked: boolean }>(`select pg_try_advisory_lock(${KEY}) as locked`, [name]);
    if (!rows[0]?.locked) {
      if (options.onWait) {
        const holders = await client.query<{ pid: number; application_name: string | null }>(HOLDERS, [name]);
        options.onWait(holders.rows.map((row) => `pid ${row.pid}${row.application_name ? ` (${row.application_name})` : ''}`));
      }
      await client.query(`select pg_advisory_lock(${KEY})`, [name]);
    }
    try {
      return await work();
    } finally {
      await client.query(`select pg_advisory_unlock(${KEY})`, [name]).catch(() => undefined);
    }
  } finally {
    await client.end().catch(() => undefined);
  }
}
