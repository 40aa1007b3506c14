/**
 * The importing user as a run's rows are written (docs/interface.md#import): the user who
 * uploaded the file, with the access it has now, read live from core's tables before every chunk
 * (its account active, the tenant held, `<entity>:write` held there, or a super user). A role taken
 * away stops the run at its next chunk.
 */
import type { EntityManager } from '@mikro-orm/postgresql';
import type { VerifiedClaims } from '@platform/kit/auth/jwt.ts';
import type { Language } from '@platform/kit/i18n/messages.ts';
import type { Caller } from '../auth/caller.ts';

/** The caller the engine writes a chunk as, or undefined when the user no longer may. */
export async function importer(
  em: EntityManager,
  userCode: string,
  crProcessId: number,
  roles: readonly string[],
  lang: Language,
): Promise<Caller | undefined> {
  const [row] = await em.execute<{ super_user: boolean; tenant_held: boolean; roles: string[] }[]>(
    `select u.super_user,
            u.super_user or exists (select 1 from core.user_tenant t where t.user_code = u.user_code and t.cr_process_id = ?) as tenant_held,
            array(select r.role_code from core.user_tenant_role r where r.user_code = u.user_code and r.cr_process_id = ? and r.role_code = any(?::text[])) as roles
       from core.user_info u where u.user_code = ? and u.status`,
    [crProcessId, crProcessId, `{${roles.join(',')}}`, userCode],
  );
  if (!row) return undefined;
  const held = new Set(row.roles);
  if (!row.super_user && (!row.tenant_held || !roles.every((role) => held.has(role)))) return undefined;
  const claims = { sub: userCode, userCode, crProcessId, superUser: row.super_user, lang } as VerifiedClaims;
  return { kind: 'user', claims, access: { superUser: row.super_user, tenantHeld: row.tenant_held, roles: held, asked: new Set(roles) } };
}
