/**
 * The access stamp (docs/adr/0062-a-kept-live-access-and-its-access.md): the sum of the
 * `stamp`s of `core.access_stamp`'s rows, one of which every transaction that changes what a live
 * access reads moves by one, in that same transaction, as it commits. A service keeps the live
 * access it read with the stamp its statement saw, and uses it again while the stamp it reads is the
 * same (libs/service-kit/src/auth/access.ts). The rows are shards of one counter: a transaction moves the one of
 * its connection (`pg_backend_pid() % SHARDS`), so that changes committed at once on different
 * connections do not queue on one row (each commit holds its row until its WAL is flushed).
 *
 * What moves it: a row added or removed in, or one of the columns the live access reads changed
 * in, `user_info`, `user_process`, `user_process_select`, `account`, `security_group`,
 * `group_member`, `group_role` and `role_type` (the tables under `core.user_tenant` and
 * `core.user_tenant_role`), and in `session_log` a session ended, re-opened, given another expiry,
 * key or user, or removed. Not a new session (a login: its token has no access kept yet), nor
 * `last_seen_at`, `account_no`/`cr_process_id` of a session (switch-account: the token names the
 * tenant) or any other column.
 *
 * The triggers are constraint triggers, deferred: they fire as their transaction commits, after
 * its other writes and locks, so the stamp's row is held for the instant of the commit alone and a
 * change waits on another's stamp only then, never while it holds another row that one waits for
 * (no deadlock through the stamp). One move per transaction: the first trigger to fire notes it in
 * a transaction-local setting, and the others find it noted.
 */
import { BigIntType, EntitySchema, type TriggerDef } from '@mikro-orm/postgresql';
import type { Row } from '@platform/service-kit/db/entity-schema.ts';
import { SCHEMA } from './schema.ts';

/** The shards of the stamp: more than the connections that change privileges at once, and one page. */
export const STAMP_SHARDS = 32;

/** The rows `shard` 0 to STAMP_SHARDS - 1 (the migration inserts them), whose `stamp`s the live access sums. */
export const AccessStampEntity = new EntitySchema<Row>({
  name: 'AccessStamp',
  tableName: 'access_stamp',
  schema: SCHEMA,
  properties: {
    shard: { type: 'smallint', primary: true, autoincrement: false },
    stamp: { type: new BigIntType('number'), default: 0 },
  } as never,
});

/**
 * Moves the connection's shard once per transaction. Created by the migration that made the stamp
 * (core-svc/src/migrations/…_access_stamp.ts), before the triggers that call it.
 */
const BUMP = `"${SCHEMA}"."access_stamp_bump"`;

/** A deferred constraint trigger of `table` that moves the stamp on `events` (of the rows `when` holds for). */
function stampTrigger(table: string, name: string, events: ('insert' | 'update' | 'delete')[], when?: string): TriggerDef<Row> {
  return {
    name,
    timing: 'after',
    events,
    forEach: 'row',
    // raw DDL: MikroORM's trigger definition has no CONSTRAINT ... DEFERRABLE INITIALLY DEFERRED
    expression:
      `create constraint trigger "${name}" after ${events.join(' or ')} on "${SCHEMA}"."${table}" deferrable initially deferred ` +
      `for each row${when ? ` when (${when})` : ''} execute function ${BUMP}();`,
  };
}

/** The stamp's triggers of `table`: `columns` changed, and with `rows`, rows added or removed (or removed alone). */
function stampTriggers(table: string, columns: readonly string[], rows: 'added-or-removed' | 'removed'): TriggerDef<Row>[] {
  const changed = columns.map((column) => `old.${column} is distinct from new.${column}`).join(' or ');
  return [
    stampTrigger(table, `${table}_access_changed`, ['update'], changed),
    rows === 'removed'
      ? stampTrigger(table, `${table}_access_removed`, ['delete'])
      : stampTrigger(table, `${table}_access_added_removed`, ['insert', 'delete']),
  ];
}

/** The columns each table's rows are read by in the live access and its views. */
const WATCHED = {
  'user-info': ['user_info', ['user_code', 'status', 'token_version', 'super_user']],
  'user-process': ['user_process', ['id', 'user_code', 'status']],
  account: ['account', ['id', 'cr_process_id', 'status']],
  group: ['security_group', ['id', 'cr_process_id', 'status']],
  'group-member': ['group_member', ['user_code', 'group_id', 'cr_process_id', 'status']],
  'group-role': ['group_role', ['group_id', 'role_type_id', 'cr_process_id', 'status']],
  'role-type': ['role_type', ['id', 'cr_process_id', 'role_code', 'status']],
} as const;

/** The triggers of the resources' tables, by resource path (entitySchemas' `triggers`). */
export const resourceStampTriggers: Record<string, TriggerDef<Row>[]> = Object.fromEntries(
  Object.entries(WATCHED).map(([path, [table, columns]]) => [path, stampTriggers(table, columns, 'added-or-removed')]),
);

/** user_process_select's: every select the views join on. */
export const selectStampTriggers = stampTriggers('user_process_select', ['user_process_id', 'account_id'], 'added-or-removed');

/** session_log's: a session ended or changed as the live access reads it; a login's new row moves nothing. */
export const sessionStampTriggers = stampTriggers('session_log', ['session_id', 'user_code', 'active', 'expires_at'], 'removed');
