import { ConfigError } from '@platform/kit/config/config-error.ts';

type Env = Record<string, string | undefined>;

/**
 * The PostgreSQL a service works on (DATABASE_URL), in every environment. Read apart from the
 * services' configuration: the services and the migrators read it, the gateway never does and is not given it
 * (docs/adr/0038-where-a-token-s-session-is-checked.md). Its user is the serving role, which owns no
 * table (docs/adr/0150-a-serving-role-apart-from-the-owner.md).
 *
 * @example
 * const url = databaseUrlOf(process.env); // throws ConfigError when DATABASE_URL is not set
 */
export function databaseUrlOf(env: Env = process.env): string {
  const url = env.DATABASE_URL;
  if (!url) throw new ConfigError('DATABASE_URL is not set: a service works on its schema of the PostgreSQL it names');
  return url;
}

/**
 * The schema owner's connection (DATABASE_OWNER_URL), DATABASE_URL when unset (one role for
 * everything): what migrates (a service's start in development and test, `npm run migrate`, the
 * job queue's schema), backs up and restores. The services and workers serve on DATABASE_URL.
 *
 * @example
 * const ownerUrl = databaseOwnerUrlOf(process.env);
 */
export function databaseOwnerUrlOf(env: Env = process.env): string {
  return env.DATABASE_OWNER_URL || databaseUrlOf(env);
}

/**
 * The role the services serve as, the user DATABASE_URL names, when it differs from the owner's
 * connection: the role a migration grants what serving needs (db/serving-grants.ts). Undefined when
 * there is one role (DATABASE_OWNER_URL unset or the same URL): nothing to grant.
 *
 * @example
 * servingRoleOf({ DATABASE_URL: 'postgres://platform_svc:…@db/app', DATABASE_OWNER_URL: 'postgres://app:…@db/app' }) // 'platform_svc'
 */
export function servingRoleOf(env: Env = process.env): string | undefined {
  const serving = databaseUrlOf(env);
  const owner = databaseOwnerUrlOf(env);
  if (owner === serving) return undefined;
  const user = userOf(serving);
  if (!user) throw new ConfigError('DATABASE_URL names no user: with DATABASE_OWNER_URL set it must name the serving role');
  return user;
}

/** The user a postgres:// URL names, decoded; '' when none or the URL does not parse. */
export function userOf(url: string): string {
  try {
    return decodeURIComponent(new URL(url).username);
  } catch {
    return '';
  }
}
