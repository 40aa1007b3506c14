import { ConfigError } from '@platform/kit/config/config-error.ts';

/**
 * The PostgreSQL a service works on (DATABASE_URL), in every environment. Read apart from the
 * services' configuration: the services and the migrators read it, the gateway never does and is not given it
 * (docs/adr/0038-where-a-token-s-session-is-checked.md).
 *
 * @example
 * const url = databaseUrlOf(process.env); // throws ConfigError when DATABASE_URL is not set
 */
export function databaseUrlOf(env: Record<string, string | undefined> = process.env): string {
  const url = env.DATABASE_URL;
  if (!url) throw new ConfigError('DATABASE_URL is not set: a service works on its schema of the PostgreSQL it names');
  return url;
}

/**
 * The PostgreSQL a session's lock is taken on (the migration lock, db/migration-lock.ts):
 * DATABASE_SESSION_URL where it is set, else DATABASE_URL. Set it where DATABASE_URL leads through a
 * pooler in transaction mode, which hands each statement of a session to any server connection: a
 * session's advisory lock taken there would stay on one server connection and its unlock run on
 * another (deploy/components/cloudnative-pg points it at the primary).
 *
 * @example
 * const lockUrl = sessionDatabaseUrlOf(process.env);
 */
export function sessionDatabaseUrlOf(env: Record<string, string | undefined> = process.env): string {
  return env.DATABASE_SESSION_URL || databaseUrlOf(env);
}
