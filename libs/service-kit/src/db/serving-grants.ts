/**
 * What the serving role is granted on a schema (docs/adr/0150-a-serving-role-apart-from-the-owner.md):
 * what serving needs and nothing more. Rows read and written, sequences drawn, functions called;
 * no CREATE, no TRUNCATE, no ownership, so row-level security applies to it. ALTER DEFAULT
 * PRIVILEGES makes the tables, sequences and functions the owner creates later follow.
 * Run by the owner after every migration (migration-runner.ts), after the job queue's schema is
 * installed (jobs/job-schema.ts) and after a restore (scripts/lib/backup-restore-run.ts).
 */

/** Runs one statement (or several, without parameters) and returns its rows. */
export type Execute = (sql: string, params?: unknown[]) => Promise<Record<string, unknown>[]>;

/** `name` as an SQL identifier, double-quoted. */
function identifier(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}

/** The statements that grant `role` what serving needs on `schema`; idempotent. */
export function servingGrantsSql(schema: string, role: string): string {
  const s = identifier(schema);
  const r = identifier(role);
  return [
    `grant usage on schema ${s} to ${r}`,
    `grant select, insert, update, delete on all tables in schema ${s} to ${r}`,
    `grant usage, select, update on all sequences in schema ${s} to ${r}`,
    `grant execute on all functions in schema ${s} to ${r}`,
    `alter default privileges in schema ${s} grant select, insert, update, delete on tables to ${r}`,
    `alter default privileges in schema ${s} grant usage, select, update on sequences to ${r}`,
    `alter default privileges in schema ${s} grant execute on functions to ${r}`,
  ].join(';\n');
}

/**
 * Grants `role` what serving needs on `schema`, as the connection's user (the owner, whose later
 * objects the default privileges cover); nothing when `role` is undefined or is that user (one role).
 * `createSchema`: the schema is created first when missing, in the same transaction, so that it is
 * never seen without its grants. True when it granted.
 *
 * @example
 * await grantServingRole((sql, params) => orm.em.getConnection().execute(sql, params), 'core', 'platform_svc');
 */
export async function grantServingRole(execute: Execute, schema: string, role: string | undefined, options: { createSchema?: boolean } = {}): Promise<boolean> {
  if (!role) return false;
  const [me] = await execute('select current_user as name');
  if (me?.name === role) return false;
  const create = options.createSchema ? `create schema if not exists ${identifier(schema)};\n` : '';
  // one statement string: one implicit transaction, all or nothing
  await execute(create + servingGrantsSql(schema, role));
  return true;
}
