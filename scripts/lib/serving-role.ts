/**
 * The serving role where the platform's own launchers own the server (docs/adr/0150-a-serving-role-apart-from-the-owner.md):
 * `npm start`'s embedded PostgreSQL (`platform_svc`), each test run's and bench's fresh database (a
 * role named after it). A login role that owns nothing, no superuser, no BYPASSRLS; the migrations
 * grant it what serving needs. Elsewhere the deployment creates it (deploy/README.md).
 */
import { randomBytes } from 'node:crypto';
import { withClient } from './pg-client.ts';

export interface ServingRole {
  name: string;
  password: string;
  /** `url` (the owner's, of the same database) with the role as its user. */
  urlOf(url: string): string;
  /** Drops the role (DROP ROLE IF EXISTS): after the databases it was granted in. Idempotent. */
  drop(): Promise<void>;
}

// 42710 duplicate_object; 23505 when two create the same name at once (pg_authid's unique index)
const EXISTS = new Set(['42710', '23505']);

/**
 * Creates login role `name` with `password` (a new one by default) on `adminUrl`'s server, whose user
 * may create roles; one that exists already (created by a concurrent run, or at an earlier start) is
 * given `password` and kept.
 *
 * @example
 * const role = await createServingRole(adminUrl, `${database.name}_svc`);
 * const env = { DATABASE_URL: role.urlOf(database.url), DATABASE_OWNER_URL: database.url };
 */
export async function createServingRole(adminUrl: string, name: string, password = randomBytes(18).toString('hex')): Promise<ServingRole> {
  await withClient(adminUrl, async (client) => {
    const role = client.escapeIdentifier(name);
    const attributes = `login password ${client.escapeLiteral(password)} nosuperuser nocreatedb nocreaterole nobypassrls noreplication`;
    try {
      await client.query(`create role ${role} ${attributes}`);
    } catch (error) {
      if (!EXISTS.has((error as { code?: string }).code ?? '')) throw error;
      await client.query(`alter role ${role} ${attributes}`);
    }
  });
  let dropping: Promise<void> | undefined;
  return {
    name,
    password,
    urlOf(url) {
      const parsed = new URL(url);
      parsed.username = encodeURIComponent(name);
      parsed.password = encodeURIComponent(password);
      return parsed.toString();
    },
    drop: () => (dropping ??= withClient(adminUrl, async (client) => void (await client.query(`drop role if exists ${client.escapeIdentifier(name)}`)))),
  };
}
