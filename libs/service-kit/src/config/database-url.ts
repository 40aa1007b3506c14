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
