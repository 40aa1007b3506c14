import type { EntityManager } from '@mikro-orm/postgresql';

/**
 * Whether a user may log in with a password (docs/adr/0132-sign-in-provisions-the-user.md): a
 * user linked to an identity provider only where one of its providers allows it (passwordLogin);
 * a user linked to none, always.
 *
 * @example
 * if (!(await passwordLoginAllowed(em, 'ayse@acme.example'))) throw LOGIN_FAILED();
 */
export async function passwordLoginAllowed(em: EntityManager, userCode: string): Promise<boolean> {
  const rows = await em.execute<{ password_login: boolean }[]>(
    `select p.password_login from core.oidc_identity i join core.identity_provider p on p.id = i.provider_id where i.user_code = ?`,
    [userCode],
  );
  return rows.length === 0 || rows.some((r) => r.password_login);
}
