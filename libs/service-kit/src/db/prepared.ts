import type { EntityManager, PostgreSqlConnection } from '@mikro-orm/postgresql';
import type { PoolClient, QueryConfig } from 'pg';
import { databasePoolingOf } from '../config/database-pooling.ts';
import { querySingleSync, SINGLE_SYNC, type Step } from './pg-single-sync.ts';
import { scopeSettings, scoping, settingsOf, TENANT_FROM_SETTING, TENANT_TO_SETTING, TENANTS_SETTING, USER_SETTING, type Scope } from './tenant-scope.ts';

/** A named statement: PostgreSQL parses and plans it once per connection, then only binds and runs it. */
export interface PreparedStatement {
  /** Unique per statement text (a pg connection refuses one name with two texts). */
  name: string;
  /** SQL with `$1`, `$2`, … placeholders. */
  text: string;
}

type NativePool = Awaited<ReturnType<PostgreSqlConnection['getNativeClient']>>;

const pools = new WeakMap<object, Promise<NativePool>>();

/** How many times each named statement was sent in this process (db_prepared_statements_total). */
const runs = new Map<string, number>();

/**
 * Whether the statements go named (DATABASE_POOLING=session, the default) or unnamed
 * (=transaction: a pooler in transaction mode, where a name given on one server connection is
 * unknown on the next); read once, at the first statement.
 */
let named: boolean | undefined;

/** The statements sent so far, by name: counted as sent, whatever their outcome. */
export function preparedRuns(): ReadonlyMap<string, number> {
  return runs;
}

/** MikroORM's own pg pool: the same connections, and the same type parsers, that em.execute uses. */
function nativePool(em: EntityManager): Promise<NativePool> {
  const connection = em.getConnection() as PostgreSqlConnection;
  let pool = pools.get(connection);
  if (!pool) {
    pool = connection.getNativeClient();
    pools.set(connection, pool);
    pool.catch(() => pools.delete(connection));
  }
  return pool;
}

/** The scope's own settings (db/tenant-scope.ts), in the order its statements set them. */
const SCOPE_SETTINGS = [TENANTS_SETTING, USER_SETTING, TENANT_FROM_SETTING, TENANT_TO_SETTING];

/** The statement that scopes a transaction (db/tenant-scope.ts): the scope's settings, local to it. */
const SCOPE: PreparedStatement = {
  name: 'platform-scope',
  text: `select ${SCOPE_SETTINGS.map((name, i) => `set_config('${name}', $${i + 1}, true)`).join(', ')}`,
};

/** The statements that scope a transaction with further settings, by the names of those. */
const scopes = new Map<string, PreparedStatement>();

/**
 * The statement that scopes a transaction (db/tenant-scope.ts), the scope's settings local to it, and
 * after them any further setting of the fork's, by name (the dispatcher's planner settings:
 * core-svc/src/webhooks/queue-fork.ts), so that a named statement is planned, and its plan kept,
 * under the settings its fork's transactions run with; with its values.
 */
function scopeStep(settings: Record<string, string>): { statement: PreparedStatement; values: string[] } {
  const names = Object.keys(settings);
  const own = SCOPE_SETTINGS.map((name) => settings[name] ?? '');
  // the hot path: the scope's settings alone
  if (names.length === SCOPE_SETTINGS.length && SCOPE_SETTINGS.every((name) => name in settings)) return { statement: SCOPE, values: own };
  const further = names.filter((name) => !SCOPE_SETTINGS.includes(name)).sort();
  const key = further.join(',');
  let statement = scopes.get(key);
  if (!statement) {
    for (const name of further) if (!/^[a-z_][a-z0-9_.]*$/.test(name)) throw new Error(`a setting named ${JSON.stringify(name)}`);
    const sets = [...SCOPE_SETTINGS, ...further].map((name, i) => `set_config('${name}', $${i + 1}, true)`);
    statement = { name: further.length > 0 ? `platform-scope+${key}` : 'platform-scope', text: `select ${sets.join(', ')}` };
    scopes.set(key, statement);
  }
  return { statement, values: [...own, ...further.map((name) => settings[name] ?? '')] };
}

/**
 * Runs a prepared statement on MikroORM's pg pool: named (parsed and planned once per connection),
 * or unnamed under DATABASE_POOLING=transaction (config/database-pooling.ts), and returns its rows as the driver parses
 * them (bigint and timestamps as strings, as em.execute returns them); errors are MikroORM's
 * DriverExceptions, as from em.execute. For hot reads outside a transaction: it runs on any
 * connection of the pool, so inside a transaction use em.execute (the transaction's connection).
 *
 * It runs in `scope`, else in the scope of `em` (db/tenant-scope.ts `scopedFork`) with `em`'s further
 * settings, else in none (it then sees no tenant's rows). The scope's settings and the statement go in one extended-protocol
 * sequence under a single Sync, one implicit transaction that the settings end with
 * (db/pg-single-sync.ts; docs/adr/0152-the-scoped-read-under-one-sync.md); on a pg that module was
 * not written for, as `begin`, the settings, the statement and `commit`, pipelined (db/orm.ts).
 *
 * @example
 * const rows = await queryPrepared<{ id: string }>(em, { name: 'x-by-code', text: 'select id from core.x where code = $1' }, [code]);
 */
export async function queryPrepared<T extends object>(em: EntityManager, statement: PreparedStatement, values: unknown[], scope?: Scope): Promise<T[]> {
  if (em.isInTransaction()) throw new Error(`${statement.name}: a prepared read runs outside transactions; use em.execute inside one`);
  runs.set(statement.name, (runs.get(statement.name) ?? 0) + 1);
  return scopedRead(em, statement, values, scope);
}

/**
 * A read of SQL that MikroORM built (a list's page, its keys, its count), in `em`'s scope: outside a
 * transaction, the scope's settings and the read in one round trip, as queryPrepared sends them,
 * unnamed (the text changes with the request's values, which it carries, formatted by MikroORM as
 * em.execute formats them). em.execute would wrap it in `begin`, the settings, itself and `commit`,
 * each awaited (MikroORM's session context): four round trips where this takes one, about a
 * millisecond of a clerk's list (docs/adr/0158-the-tenant-wall-as-an-index-condition.md). Inside a
 * transaction, or with no scope (DATABASE_ROW_SECURITY=off), it is em.execute. Rows as em.execute
 * answers them (column names, the driver's parsing).
 *
 * @example
 * const { sql, params } = qb.toQuery();
 * const rows = await readInScope<Row>(em, sql, params);
 */
export async function readInScope<T extends object>(em: EntityManager, sql: string, params: readonly unknown[]): Promise<T[]> {
  if (em.isInTransaction() || !scoping() || settingsOf(em) === undefined) return em.execute<T[]>(sql, [...params]);
  // what MikroORM's connection does before it sends a statement: its onQuery hook, then the values written in
  const text = em.getPlatform().formatQuery(em.config.get('onQuery')(sql, params), params);
  return scopedRead(em, { text }, []);
}

/** A statement, named or not, run in `scope` or `em`'s (queryPrepared, readInScope). */
async function scopedRead<T extends object>(
  em: EntityManager,
  statement: Omit<PreparedStatement, 'name'> & { name?: string },
  values: unknown[],
  scope?: Scope,
): Promise<T[]> {
  const pool = await nativePool(em);
  named ??= databasePoolingOf() === 'session';
  const settings = !scoping() ? undefined : scope ? scopeSettings(scope) : settingsOf(em);
  const step = (prepared: { name?: string; text: string }, args: unknown[]): Step =>
    named && prepared.name ? { name: prepared.name, text: prepared.text, values: args } : { text: prepared.text, values: args };
  try {
    if (!settings) return (await pool.query<T>(step(statement, values) as QueryConfig)).rows;
    const client = await pool.connect();
    let failure: unknown;
    try {
      const scoped = scopeStep(settings);
      const steps = [step(scoped.statement, scoped.values), step(statement, values)] as const;
      return SINGLE_SYNC ? await querySingleSync<T>(client, steps) : await pipelined<T>(client, ...steps);
    } catch (error) {
      failure = error;
      throw error;
    } finally {
      client.release(failure !== undefined && !isServerError(failure) ? (failure as Error) : undefined);
    }
  } catch (error) {
    throw em.getDriver().convertException(error as Error);
  }
}

/** The scope and the read as four pipelined queries, `begin` … `commit`: the way on a pg that db/pg-single-sync.ts was not written for. */
async function pipelined<T extends object>(client: PoolClient, scope: Step, read: Step): Promise<T[]> {
  // every reply is awaited before the client goes back: a failed statement fails the transaction,
  // whose commit then answers a rollback
  const replies = await Promise.allSettled([
    client.query('begin'),
    client.query(scope as QueryConfig),
    client.query<T>(read as QueryConfig),
    client.query('commit'),
  ]);
  const failed = replies.find((reply) => reply.status === 'rejected');
  if (failed) throw failed.reason;
  return (replies[2] as PromiseFulfilledResult<{ rows: T[] }>).value.rows;
}
/** An error PostgreSQL answered (it has a SQLSTATE): the connection is sound. Anything else (a dropped socket) discards it. */
function isServerError(error: unknown): boolean {
  return typeof (error as { code?: unknown } | undefined)?.code === 'string' && /^[0-9A-Z]{5}$/.test((error as { code: string }).code);
}
