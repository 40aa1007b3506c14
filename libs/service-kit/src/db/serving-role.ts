import type { AppEnv } from '@platform/kit/config/config.ts';
import { ConfigError } from '@platform/kit/config/config-error.ts';
import type { Logger } from '@platform/kit/log/logger.ts';
import type { Execute } from './serving-grants.ts';

/**
 * What the role a process serves as (DATABASE_URL's) may do on its schema, checked as a service or a
 * worker starts (docs/adr/0150-a-serving-role-apart-from-the-owner.md): row-level security does
 * not apply to a table's owner, a superuser or a role with BYPASSRLS, so the serving role must be
 * none of them; and it must have been granted the schema (the migrations grant it).
 */

/** What PostgreSQL says of the connection's role on `schema`. */
export interface ServingRoleFacts {
  role: string;
  superuser: boolean;
  bypassRls: boolean;
  ownsSchema: boolean;
  /** How many of the schema's tables it owns. */
  ownedTables: number;
}

const FACTS = `select r.rolname as role, r.rolsuper as superuser, r.rolbypassrls as bypass_rls,
    coalesce(n.nspowner = r.oid, false) as owns_schema,
    (select count(*)::int from pg_class c where c.relnamespace = n.oid and c.relowner = r.oid and c.relkind in ('r', 'p')) as owned_tables
  from pg_roles r left join pg_namespace n on n.nspname = $1
  where r.rolname = current_user`;

export async function servingRoleFacts(execute: Execute, schema: string): Promise<ServingRoleFacts> {
  const [row] = await execute(FACTS, [schema]);
  if (!row) throw new Error('current_user is not in pg_roles');
  return {
    role: String(row.role),
    superuser: row.superuser === true,
    bypassRls: row.bypass_rls === true,
    ownsSchema: row.owns_schema === true,
    ownedTables: Number(row.owned_tables),
  };
}

/** What makes the role unfit to serve, in words; none when it is fit. */
export function servingRoleProblems(facts: ServingRoleFacts): string[] {
  const problems: string[] = [];
  if (facts.superuser) problems.push('is a superuser');
  if (facts.bypassRls) problems.push('has BYPASSRLS');
  if (facts.ownsSchema) problems.push('owns the schema');
  if (facts.ownedTables > 0) problems.push(`owns ${facts.ownedTables} of its tables`);
  return problems;
}

/**
 * Checks the role a process serves `schema` as: in production a role that owns the schema's tables,
 * is a superuser or has BYPASSRLS refuses the start (ConfigError), naming DATABASE_URL and
 * DATABASE_OWNER_URL; elsewhere one warning line says so and the start goes on.
 *
 * @example
 * await checkServingRole(executeOn(orm), 'core', config.appEnv, log);
 */
export async function checkServingRole(execute: Execute, schema: string, appEnv: AppEnv, log: Logger): Promise<void> {
  const facts = await servingRoleFacts(execute, schema);
  const problems = servingRoleProblems(facts);
  if (problems.length === 0) return;
  const message =
    `the role "${facts.role}" of DATABASE_URL ${problems.join(', ')} on schema ${schema}: row-level security would not apply to it. ` +
    'Serve as a role that owns nothing (DATABASE_URL) and migrate as the owner (DATABASE_OWNER_URL): docs/adr/0150-a-serving-role-apart-from-the-owner.md';
  if (appEnv === 'production') throw new ConfigError(message);
  log.warn({ role: facts.role, schema, problems }, message);
}

const READABLE = `select has_schema_privilege(n.oid, 'USAGE')
    and coalesce((select has_table_privilege(c.oid, 'SELECT') from pg_class c where c.relnamespace = n.oid and c.relname = 'mikro_orm_migrations'), false) as readable
  from pg_namespace n where n.nspname = $1`;

/**
 * Whether the connection's role may read `schema`'s migrations: the schema exists, and it was granted
 * USAGE on it and SELECT on its migration table. False on a schema not yet migrated, or migrated
 * without granting this role (DATABASE_OWNER_URL unset when the migrations ran).
 */
export async function schemaReadable(execute: Execute, schema: string): Promise<boolean> {
  const [row] = await execute(READABLE, [schema]);
  return row?.readable === true;
}
