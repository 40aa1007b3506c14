import type { EntityManager } from '@mikro-orm/postgresql';
import { queryPrepared } from '@platform/service-kit/db/prepared.ts';

/** One named prepared statement: login runs it on every password login. */
const PROVIDERS_OF_USER = {
  name: 'core-login-providers',
  text: `select p.password_login from core.oidc_identity i join core.identity_provider p on p.id = i.provider_id where i.user_code = $1`,
};

/**
 * Whether a user may log in with a password (docs/adr/0132-sign-in-provisions-the-user.md): a
 * user linked to an identity provider only where one of its providers allows it (passwordLogin);
 * a user linked to none, always.
 *
 * @example
 * if (!(await passwordLoginAllowed(em, 'ayse@acme.example'))) throw LOGIN_FAILED();
 */
export async function passwordLoginAllowed(em: EntityManager, userCode: string): Promise<boolean> {
  const rows = await queryPrepared<{ password_login: boolean }>(em, PROVIDERS_OF_USER, [userCode]);
  return rows.length === 0 || rows.some((r) => r.password_login);
}
